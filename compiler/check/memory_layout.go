package check

import (
	"fmt"
	"sort"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// MemoryLayout finds memory regions that wrap past the end of the address
// space (an error) or overlap each other (a warning).
var MemoryLayout = &Check{
	Needs: FactMemory,
	Code: diag.Code{ID: "BC0210", Name: "memory-layout", Severity: diag.Error,
		Doc: "A memory region whose base plus size wraps past 2^64 is an error (a region may end exactly at " +
			"2^64): no RAM lies there, and the kernel caps the region at the end of the address space " +
			"(memblock_cap_size(), mm/memblock.c), so the description says something the hardware cannot be. " +
			"Two regions that overlap are a warning: memblock_add_range() takes overlapping regions and " +
			"merges them, and upstream trees have them (exynosautov920-sadk.dts), but one bank is then " +
			"given twice, most often with a wrong size, and the top of RAM every DMA-width check reads " +
			"may be wrong with it."},
	Run: func(p *Pass) {
		mem := p.Board.Memory
		order := make([]int, 0, len(mem))
		for i, m := range mem {
			if end := m.Base + m.Size; end < m.Base && end != 0 {
				p.Report(ir.MemoryRef(i), m.Pos, fmt.Sprintf(
					"memory region at 0x%x of size 0x%x wraps past the end of the 64-bit address space", m.Base, m.Size))
				continue
			}
			order = append(order, i)
		}
		sort.SliceStable(order, func(a, b int) bool { return mem[order[a]].Base < mem[order[b]].Base })
		for k := 1; k < len(order); k++ {
			prev, cur := order[k-1], order[k]
			if end := mem[prev].Base + mem[prev].Size; end == 0 || end > mem[cur].Base {
				p.ReportSeverity(diag.Warning, ir.MemoryRef(cur), mem[cur].Pos, fmt.Sprintf(
					"memory region at 0x%x overlaps %s (0x%x, size 0x%x): the kernel merges them, but one bank is given twice", mem[cur].Base, ir.MemoryRef(prev), mem[prev].Base, mem[prev].Size),
					Note(mem[prev].Pos, "%s", ir.MemoryRef(prev)))
			}
		}
	},
}

// DMARangesWrap finds dma-ranges windows whose child or parent address
// plus size wraps past 2^64.
var DMARangesWrap = &Check{
	Needs: FactBuses,
	Code: diag.Code{ID: "BC0209", Name: "dma-ranges-wrap", Severity: diag.Error,
		Doc: "A dma-ranges window whose child (device) or parent address plus its size wraps past the " +
			"end of the 64-bit address space (a window may end exactly at 2^64). of_dma_get_range() " +
			"(drivers/of/address.c) computes the device's DMA limit from the window's end, which then " +
			"lies below its start: the limit the kernel sets is not the window the description meant."},
	Run: func(p *Pass) {
		for _, b := range p.Board.SoC.Buses {
			for _, r := range b.DMARanges {
				for _, side := range []struct {
					name string
					at   uint64
				}{{"child", r.Child}, {"parent", r.Parent}} {
					if end := side.at + r.Size; end < side.at && end != 0 {
						p.Report(b.Ref(), r.Pos, fmt.Sprintf(
							"dma-ranges window of bus %s wraps past the end of the 64-bit address space: %s address 0x%x plus size 0x%x",
							b.Key, side.name, side.at, r.Size))
					}
				}
			}
		}
	},
}

// BoardCompatible finds a board whose compatible names only its SoC.
var BoardCompatible = &Check{
	Needs: FactIdentity,
	Code: diag.Code{ID: "BC0504", Name: "board-compatible", Severity: diag.Error,
		Doc: "The board's compatible list names only compatibles of its SoC. The root compatible of a " +
			"device tree starts with the board's own (\"vendor,board\", then the SoC's: devicetree " +
			"specification 3.2), and tune.sh refuses to run on a system whose root compatible does not " +
			"name this board: with only the SoC's, every board of that SoC passes, and one board's IRQ " +
			"pins and steering are applied to another's hardware. Put the board's own compatible first."},
	Run: func(p *Pass) {
		b := p.Board
		if len(b.Compatible) == 0 {
			return
		}
		soc := map[string]bool{}
		for _, c := range b.SoC.Compatible {
			soc[c] = true
		}
		for _, c := range b.Compatible {
			if !soc[c] {
				return
			}
		}
		p.Report(ir.RefCompatible, b.CompatiblePos, fmt.Sprintf(
			"the board's compatible %q names only SoC %s's compatibles: tune.sh would accept every board of the SoC as this one", b.Compatible, b.SoC.Name))
	},
}
