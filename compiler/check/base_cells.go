package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// BaseCells finds cell counts that differ from the base tree's.
var BaseCells = &Check{
	Needs: FactRoot | FactBuses,
	Code: diag.Code{ID: "BC0603", Name: "base-cells", Severity: diag.Error,
		Doc: "A bus's #address-cells or #size-cells, or the root's, differs from the node's in the base " +
			"tree (a node without them has the specification's defaults, 2 and 1). The fragment writes " +
			"dma-ranges in the description's cell counts; in a tree with other counts the kernel reads " +
			"other numbers than those written, and dtc warns or the translation is wrong."},
	NeedsBase: true,
	Run: func(p *Pass) {
		t := p.Base
		s := &p.Board.SoC
		if r := t.Node("/"); r.AddressCells() != s.RootAddressCells || r.SizeCells() != s.RootSizeCells {
			p.Report(ir.RefRoot, s.RootPos.Or(s.Pos),
				fmt.Sprintf("the root's cell counts are <%d %d>, the base tree's <%d %d> (#address-cells, #size-cells)",
					s.RootAddressCells, s.RootSizeCells, r.AddressCells(), r.SizeCells()),
				inTree(t, "/"))
		}
		for _, b := range s.Buses {
			n := baseNode(t, b.Node)
			if n == nil || b.Node.Path == "/" {
				continue
			}
			if n.AddressCells() != b.AddressCells || n.SizeCells() != b.SizeCells {
				p.Report(b.Ref(), b.CellsPos.Or(b.Pos),
					fmt.Sprintf("bus %s: cell counts <%d %d> differ from the base tree's <%d %d> (#address-cells, #size-cells)",
						b.Key, b.AddressCells, b.SizeCells, n.AddressCells(), n.SizeCells()),
					inTree(t, n.Path))
			}
		}
	},
}
