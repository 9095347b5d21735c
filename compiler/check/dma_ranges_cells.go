package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
)

// DMARangesCells finds dma-ranges values that do not fit the cell counts
// they are written in.
var DMARangesCells = &Check{
	Needs: FactRoot | FactBuses,
	Code: diag.Code{ID: "BC0203", Name: "dma-ranges-cells", Severity: diag.Error,
		Doc: "Each dma-ranges triplet is written in cells: the child address in the bus's #address-cells, " +
			"the parent address in the parent's #address-cells, the size in the bus's #size-cells " +
			"(devicetree specification, chapter 2). A value wider than its cells cannot be written and " +
			"would be truncated."},
	Run: func(p *Pass) {
		soc := &p.Board.SoC
		for _, b := range soc.Buses {
			pa, _ := soc.ParentCells(b)
			for _, r := range b.DMARanges {
				for _, f := range []struct {
					what  string
					v     uint64
					cells int
				}{{"child address", r.Child, b.AddressCells}, {"parent address", r.Parent, pa}, {"size", r.Size, b.SizeCells}} {
					if fits(f.v, f.cells) {
						continue
					}
					p.Report(b.Ref(), r.Pos,
						fmt.Sprintf("dma-ranges %s 0x%x of bus %s does not fit in %d cells", f.what, f.v, b.Key, f.cells),
						Note(b.CellsPos, "cell counts of bus %s", b.Key))
				}
			}
		}
	},
}

func fits(v uint64, cells int) bool {
	return cells >= 2 || v>>(32*uint(cells)) == 0
}
