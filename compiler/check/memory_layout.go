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
