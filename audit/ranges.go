package audit

import (
	"fmt"
	"slices"

	"boardc.dev/boardc/compiler/basetree"
)

// ranges returns the Ranges findings of t: a dma-ranges the kernel cannot
// decode with the cell counts in force (of_dma_get_range(),
// drivers/of/address.c, reads triplets of the node's #address-cells, its
// parent's #address-cells and its #size-cells: a length that is not a
// whole number of triplets leaves the last one out, a count above two
// cells is not read), and windows that overlap in the bus's address
// space (the same DMA address would mean two places in memory).
func ranges(t *basetree.Tree, board string) []Finding {
	var out []Finding
	for _, p := range t.Paths() {
		n := t.Node(p)
		v, has := n.Prop("dma-ranges")
		if !has || len(v) == 0 || !available(n) {
			continue
		}
		m := Master{Path: p, Source: t.PropSource(p, "dma-ranges")}
		if ls := t.LabelsOf(p); len(ls) > 0 {
			m.Label = ls[0]
		}
		m.Compatible, _ = n.Strings("compatible")
		pc := 2
		if n.Parent != nil {
			pc = n.Parent.AddressCells()
		}
		rs, ok := decode(n, pc)
		cells := fmt.Sprintf("#address-cells %d, parent #address-cells %d, #size-cells %d", n.AddressCells(), pc, n.SizeCells())
		if !ok {
			f := finding(Ranges, Warning, board, m)
			f.Message = fmt.Sprintf("dma-ranges on %s is %d cells, not a whole number of (child, parent, size) triplets of %s", p, len(v)/4, cells)
			f.Evidence = []Evidence{{Kind: "dt", Text: fmt.Sprintf("dma-ranges: %d cells; %s", len(v)/4, cells), Source: m.Source}}
			f.Suggest = "write dma-ranges with the cell counts of the node and its parent, or fix #address-cells/#size-cells"
			out = append(out, f)
			continue
		}
		sorted := slices.Clone(rs)
		slices.SortFunc(sorted, func(a, b [3]uint64) int {
			if a[0] < b[0] {
				return -1
			}
			if a[0] > b[0] {
				return 1
			}
			return 0
		})
		for i := 1; i < len(sorted); i++ {
			a, b := sorted[i-1], sorted[i]
			if a[2] > 0 && b[0] <= a[0]+(a[2]-1) {
				f := finding(Ranges, Warning, board, m)
				f.Message = fmt.Sprintf("dma-ranges on %s has overlapping windows: bus addresses %#x+%#x and %#x+%#x", p, a[0], a[2], b[0], b[2])
				f.Evidence = []Evidence{{Kind: "dt", Text: "dma-ranges: " + rangesText(rs) + "; " + cells, Source: m.Source}}
				f.Suggest = "make the windows disjoint in the bus's address space"
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// decode reads the dma-ranges of n as (child, parent, size) triplets with
// the node's #address-cells (ac), its parent's (pc) and its #size-cells.
// A count above two cells keeps its low two: a PCI address's first cell
// is its space code (IEEE 1275 PCI bus binding), not part of the address.
// ok is false when the property is not a whole number of triplets.
func decode(n *basetree.Node, pc int) ([][3]uint64, bool) {
	cells, _ := n.Cells("dma-ranges")
	ac, sc := n.AddressCells(), n.SizeCells()
	w := ac + pc + sc
	if w == 0 || len(cells)%w != 0 {
		return nil, false
	}
	num := func(c []uint32) uint64 {
		if len(c) > 2 {
			c = c[len(c)-2:]
		}
		var v uint64
		for _, x := range c {
			v = v<<32 | uint64(x)
		}
		return v
	}
	var out [][3]uint64
	for i := 0; i < len(cells); i += w {
		out = append(out, [3]uint64{num(cells[i : i+ac]), num(cells[i+ac : i+ac+pc]), num(cells[i+ac+pc : i+w])})
	}
	return out, true
}
