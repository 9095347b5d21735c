package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
)

// DMARangesOverlap finds dma-ranges windows that overlap each other or reach
// beyond the parent's address space.
var DMARangesOverlap = &Check{
	Needs: FactRoot | FactBuses,
	Code: diag.Code{ID: "BC0204", Name: "dma-ranges-overlap", Severity: diag.Error,
		Doc: "Two dma-ranges windows of one bus overlap in the child (device) address space, so one DMA " +
			"address translates two ways, or a window reaches beyond what the parent bus can address " +
			"(its declared addressBits; its #address-cells bound only how the window's start is written). of_dma_get_range() (drivers/of/address.c) takes " +
			"the windows as they come: the device DMAs to the wrong memory."},
	Run: func(p *Pass) {
		for _, st := range busRanges(&p.Board.SoC) {
			rangesOverlap(p, st)
		}
	},
}

// rangesOverlap reports the windows of st that overlap another in the
// child address space, or end past what the bus above can address.
func rangesOverlap(p *Pass, st statedRanges) {
	rs := st.rs
	for i := range rs {
		for j := i + 1; j < len(rs); j++ {
			if overlaps(rs[i].Child, rs[i].Size, rs[j].Child, rs[j].Size) {
				p.Report(st.ref, rs[j].Pos,
					fmt.Sprintf("dma-ranges windows of %s overlap at child address 0x%x", st.what, max(rs[i].Child, rs[j].Child)),
					Note(rs[i].Pos, "the other window"))
			}
		}
	}
	limit := parentLimit(st.above)
	for _, r := range rs {
		if limit == 0 {
			break
		}
		if end := r.Parent + r.Size; end < r.Parent || end-1 > limit {
			p.Report(st.ref, r.Pos,
				fmt.Sprintf("dma-ranges window of %s ends past the parent's address space (last address 0x%x)", st.what, limit))
		}
	}
}

func overlaps(a, alen, b, blen uint64) bool {
	aend, bend := a+alen-1, b+blen-1
	if aend < a {
		aend = ^uint64(0)
	}
	if bend < b {
		bend = ^uint64(0)
	}
	return a <= bend && b <= aend
}
