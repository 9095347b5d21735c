package check

import (
	"boardc.dev/boardc/compiler/ir"
)

// statedRanges is a dma-ranges the description states: a bus's, or a
// PCI host bridge's own (bridge.dmaRanges).
type statedRanges struct {
	// what names the owner in messages: "bus soc", "bridge pcie0".
	what string
	ref  ir.Ref
	rs   []ir.DMARange
	// childCells, parentCells and sizeCells are the cell counts the
	// windows are written in; cellsBus is the bus whose cell counts give
	// those of the parent address (the bus itself for a bus's child
	// addresses and sizes, whose CellsPos the notes cite).
	childCells, parentCells, sizeCells int
	cellsBus                           *ir.Bus
	// above is the bus the parent addresses are on, nil for the root.
	above *ir.Bus
}

// busRanges returns the buses' dma-ranges, in description order.
func busRanges(soc *ir.SoC) []statedRanges {
	var out []statedRanges
	for _, b := range soc.Buses {
		pa, _ := soc.ParentCells(b)
		out = append(out, statedRanges{what: "bus " + b.Key, ref: b.Ref(), rs: b.DMARanges,
			childCells: b.AddressCells, parentCells: pa, sizeCells: b.SizeCells, cellsBus: b, above: b.Parent})
	}
	return out
}

// bridgeRanges returns the bridges' own dma-ranges, in description
// order. A bridge's child addresses are PCI addresses, the flags cell and
// a 64-bit bus address (ir.PCIAddressCells), its sizes two cells
// (ir.PCISizeCells), its parent addresses in its bus's #address-cells.
func bridgeRanges(soc *ir.SoC) []statedRanges {
	var out []statedRanges
	for _, m := range soc.Masters {
		if m.Bridge == nil || !m.Bridge.HasDMARanges() || m.Bus == nil {
			continue
		}
		out = append(out, statedRanges{what: "bridge " + m.Key, ref: m.Ref(), rs: m.Bridge.DMARanges,
			childCells: ir.PCIAddressCells - 1, parentCells: m.Bus.AddressCells, sizeCells: ir.PCISizeCells, cellsBus: m.Bus, above: m.Bus})
	}
	return out
}
