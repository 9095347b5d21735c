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
		for _, st := range busRanges(&p.Board.SoC) {
			rangesCells(p, st)
		}
	},
}

// rangesCells reports the values of st that do not fit their cells.
func rangesCells(p *Pass, st statedRanges) {
	for _, r := range st.rs {
		for _, f := range []struct {
			what  string
			v     uint64
			cells int
		}{{"child address", r.Child, st.childCells}, {"parent address", r.Parent, st.parentCells}, {"size", r.Size, st.sizeCells}} {
			if fits(f.v, f.cells) {
				continue
			}
			p.Report(st.ref, r.Pos,
				fmt.Sprintf("dma-ranges %s 0x%x of %s does not fit in %d cells", f.what, f.v, st.what, f.cells),
				Note(st.cellsBus.CellsPos, "cell counts of bus %s", st.cellsBus.Key))
		}
	}
}

func fits(v uint64, cells int) bool {
	return cells >= 2 || v>>(32*uint(cells)) == 0
}
