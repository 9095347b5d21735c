package check

import (
	"fmt"
	"math/bits"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// DMABelowRAM finds masters whose DMA width cannot reach all of the
// board's RAM.
var DMABelowRAM = &Check{
	Code: "BC0201", Name: "dma-width-below-ram", Severity: diag.Warning,
	Doc: "The master's streaming DMA mask does not cover the highest RAM address of the board, so buffers above " +
		"it are bounced through swiotlb: an extra copy per transfer, from a pool of 64 MiB by default " +
		"whose largest single mapping is 256 KiB (Documentation/core-api/swiotlb.rst); when the pool " +
		"runs out, DMA mappings fail. A master behind an IOMMU (iommu set) is not reported: the DMA " +
		"API hands it I/O virtual addresses below its mask wherever the RAM is " +
		"(drivers/iommu/dma-iommu.c, iommu_dma_alloc_iova() takes dma_get_mask()).",
	Run: func(p *Pass) {
		top, region := p.Board.HighestRAM()
		if top == 0 {
			return
		}
		need := bits.Len64(top - 1)
		for _, m := range p.Board.SoC.Masters {
			if m.DMABits >= need || m.IOMMU != "" {
				continue
			}
			p.Report(m.Ref, m.DMABitsPos,
				fmt.Sprintf("master %s drives %d DMA address bits, but RAM reaches 0x%x (%d bits)", m.Key, m.DMABits, top-1, need),
				Note(region.Pos, "highest RAM region"),
				Note(ir.Pos{}, "buffers above the mask go through swiotlb bounce buffers (64 MiB default pool, 256 KiB largest mapping)"))
		}
	},
}

// DMAAboveBus finds masters whose DMA width exceeds what their interconnect
// carries.
var DMAAboveBus = &Check{
	Code: "BC0202", Name: "dma-width-above-bus", Severity: diag.Error,
	Doc: "The master claims more DMA address bits than its bus (or a bus above it) carries. A mask " +
		"set from that width lets the DMA API hand out addresses the interconnect truncates: the " +
		"device reads and writes the wrong memory. Declare the master's width as the narrowest bus " +
		"on its path allows, or fix the bus's addressBits.",
	Run: func(p *Pass) {
		for _, m := range p.Board.SoC.Masters {
			for _, b := range append([]*ir.Bus{m.Bus}, m.Bus.Ancestors()...) {
				if b.AddressBits == 0 || m.WidestBits() <= b.AddressBits {
					continue
				}
				pos := m.DMABitsPos
				if m.CoherentWidth() > m.DMABits {
					pos = m.CoherentBitsPos
				}
				p.Report(m.Ref, pos,
					fmt.Sprintf("master %s drives %d DMA address bits, but bus %s carries %d", m.Key, m.WidestBits(), b.Key, b.AddressBits),
					Note(b.AddressBitsPos, "bus %s address width", b.Key))
				break
			}
		}
	},
}
