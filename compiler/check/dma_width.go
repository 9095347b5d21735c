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
	Needs: FactBuses | FactMasters | FactDMA | FactMemory,
	Code: diag.Code{ID: "BC0201", Name: "dma-width-below-ram", Severity: diag.Warning,
		Doc: "The master's streaming DMA mask does not cover the highest RAM address of the board, so buffers above " +
			"it are bounced through swiotlb: an extra copy per transfer, from a pool of 64 MiB by default " +
			"whose largest single mapping is 256 KiB (Documentation/core-api/swiotlb.rst); when the pool " +
			"runs out, DMA mappings fail. A master behind an IOMMU (iommu set) is not reported: the DMA " +
			"API hands it I/O virtual addresses below its mask wherever the RAM is " +
			"(drivers/iommu/dma-iommu.c, iommu_dma_alloc_iova() takes dma_get_mask()). Nor is a bridge " +
			"(bridge): it has no mask of its own, its endpoints' drivers set theirs; nor a master configured " +
			"from another master's node (dmaDevice), which states no width."},
	Run: func(p *Pass) {
		top, region := p.Board.HighestRAM()
		if top == 0 {
			return
		}
		need := bits.Len64(top - 1)
		for _, m := range p.Board.SoC.Masters {
			if !m.HasOwnWidth() || m.DMABits >= need || m.IOMMU != "" {
				continue
			}
			p.Report(m.Ref(), m.DMABitsPos,
				fmt.Sprintf("master %s drives %d DMA address bits, but RAM reaches 0x%x (%d bits)", m.Key, m.DMABits, top-1, need),
				Note(region.Pos, "highest RAM region"),
				Note(ir.Pos{}, "buffers above the mask go through swiotlb bounce buffers (64 MiB default pool, 256 KiB largest mapping)"))
		}
	},
}

// DMAAboveBus finds masters whose DMA width exceeds what their interconnect
// carries.
var DMAAboveBus = &Check{
	Needs: FactBuses | FactMasters | FactDMA,
	Code: diag.Code{ID: "BC0202", Name: "dma-width-above-bus", Severity: diag.Error,
		Doc: "The master claims more DMA address bits than its bus (or a bus above it) carries. A mask " +
			"set from that width lets the DMA API hand out addresses the interconnect truncates: the " +
			"device reads and writes the wrong memory. Declare the master's width as the narrowest bus " +
			"on its path allows, or fix the bus's addressBits. A master whose driver sets its own masks " +
			"(driverSets) declares what the driver sets, which may be wider than the bus: the kernel " +
			"keeps such a device below the bus's reach when a dma-ranges on its path says so, since " +
			"of_dma_configure_id() (drivers/of/device.c) sets dev->bus_dma_limit from it and the DMA " +
			"API never hands out an address above min(mask, bus_dma_limit) (dma_capable(), " +
			"include/linux/dma-direct.h; dma_direct_optimal_gfp_mask(), kernel/dma/direct.c). It is " +
			"reported only when no dma-ranges gives the kernel a limit within the bus's width. A bridge " +
			"(bridge), or a master configured from another master's node (dmaDevice), has no width to check."},
	Run: func(p *Pass) {
		for _, m := range p.Board.SoC.Masters {
			if !m.HasOwnWidth() {
				continue
			}
			if m.DriverSets != nil {
				driverAboveBus(p, m)
				continue
			}
			for _, b := range m.BusPath() {
				if b.AddressBits == 0 || m.WidestBits() <= b.AddressBits {
					continue
				}
				p.Report(m.Ref(), widestPos(m),
					fmt.Sprintf("master %s drives %d DMA address bits, but bus %s carries %d", m.Key, m.WidestBits(), b.Key, b.AddressBits),
					Note(b.AddressBitsPos, "bus %s address width", b.Key))
				break
			}
		}
	},
}

// widestPos returns the position of the wider of a master's two widths.
func widestPos(m *ir.Master) ir.Pos {
	if m.CoherentWidth() > m.DMABits {
		return m.CoherentBitsPos
	}
	return m.DMABitsPos
}

// driverAboveBus reports a master whose driver sets masks wider than its
// bus carries, when no dma-ranges makes the kernel keep it within the bus.
func driverAboveBus(p *Pass, m *ir.Master) {
	bits, b := m.AddressLimit()
	if b == nil || m.WidestBits() <= bits {
		return
	}
	limit, from := m.BusDMALimit()
	if from != nil && (bits >= 64 || limit <= 1<<uint(bits)-1) {
		return
	}
	notes := []diag.Note{
		Note(b.AddressBitsPos, "bus %s address width", b.Key),
		Note(m.DriverSets.Pos, "the driver sets the masks: %s", m.DriverSets.Source),
	}
	if from != nil {
		notes = append(notes, Note(from.DMARangesPos, "the dma-ranges of bus %s reach 0x%x, above what %d bits address", from.Key, limit, bits))
	} else {
		notes = append(notes, Note(ir.Pos{}, "no dma-ranges on the master's path: the kernel sets no bus_dma_limit (of_dma_configure_id(), drivers/of/device.c)"))
	}
	p.Report(m.Ref(), widestPos(m),
		fmt.Sprintf("the driver of master %s sets %d-bit DMA masks, but bus %s carries %d and no dma-ranges keeps the kernel within it",
			m.Key, m.WidestBits(), b.Key, bits),
		notes...)
}
