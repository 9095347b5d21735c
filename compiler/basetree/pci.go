package basetree

// PCIRange is one window of a PCI host bridge's dma-ranges: the flags
// cell of the PCI child address (phys.hi), its 64-bit bus address, the
// parent address and the size.
type PCIRange struct {
	Flags             uint32
	Bus, Parent, Size uint64
}

// PCIDMARanges decodes the node's dma-ranges as a PCI host bridge's, the
// way of_pci_range_parser_one() (drivers/of/address.c, Linux 6.12) reads
// them: the child address in the node's #address-cells, which must be 3
// (the flags cell, flag_cells 1 of the PCI bus in of_busses[], then the
// bus address), the parent address in the parent's #address-cells, the
// size in the node's #size-cells. has is false when the node has no
// dma-ranges; ok is false when it cannot be decoded so (other cell
// counts, a value wider than 64 bits, not a whole number of windows).
// An empty dma-ranges gives an empty, non-nil list.
func (n *Node) PCIDMARanges() (ranges []PCIRange, has, ok bool) {
	cells, has := n.Cells("dma-ranges")
	if !has {
		return nil, false, true
	}
	if n.Parent == nil || n.AddressCells() != 3 {
		return nil, true, false
	}
	pc, sc := n.Parent.AddressCells(), n.SizeCells()
	w := 3 + pc + sc
	if pc > 2 || sc < 1 || sc > 2 || len(cells)%w != 0 {
		return nil, true, false
	}
	ranges = []PCIRange{}
	for i := 0; i < len(cells); i += w {
		ranges = append(ranges, PCIRange{
			Flags:  cells[i],
			Bus:    Number(cells[i+1 : i+3]),
			Parent: Number(cells[i+3 : i+3+pc]),
			Size:   Number(cells[i+3+pc : i+w]),
		})
	}
	return ranges, true, true
}
