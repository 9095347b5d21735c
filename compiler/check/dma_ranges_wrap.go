package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
)

// DMARangesWrap finds dma-ranges windows whose child or parent address
// plus size wraps past 2^64.
var DMARangesWrap = &Check{
	Needs: FactBuses,
	Code: diag.Code{ID: "BC0209", Name: "dma-ranges-wrap", Severity: diag.Error,
		Doc: "A dma-ranges window whose child (device) or parent address plus its size wraps past the " +
			"end of the 64-bit address space (a window may end exactly at 2^64). of_dma_get_range() " +
			"(drivers/of/address.c) computes the device's DMA limit from the window's end, which then " +
			"lies below its start: the limit the kernel sets is not the window the description meant."},
	Run: func(p *Pass) {
		for _, st := range busRanges(&p.Board.SoC) {
			rangesWrap(p, st)
		}
	},
}

// rangesWrap reports the windows of st whose child or parent address
// plus size wraps past 2^64.
func rangesWrap(p *Pass, st statedRanges) {
	for _, r := range st.rs {
		for _, side := range []struct {
			name string
			at   uint64
		}{{"child", r.Child}, {"parent", r.Parent}} {
			if end := side.at + r.Size; end < side.at && end != 0 {
				p.Report(st.ref, r.Pos, fmt.Sprintf(
					"dma-ranges window of %s wraps past the end of the 64-bit address space: %s address 0x%x plus size 0x%x",
					st.what, side.name, side.at, r.Size))
			}
		}
	}
}
