package check

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/compiler/ir"
)

// walkBase is cleanBase with a translating /soc and the Qualcomm
// remoteproc shape below it: rp > edge > cb, with no dma-ranges below
// /soc, so that of_dma_get_range() from cb's parent ends at rp (-ENODEV).
var walkBase = strings.Replace(cleanBase, "ranges; dma-coherent;",
	`ranges; dma-coherent; dma-ranges = <0x0 0x0 0x0 0x0 0x100 0x0>;
		rp { #address-cells = <2>; #size-cells = <1>;
			edge { #address-cells = <2>; #size-cells = <1>; cb: cb { }; };
		};`, 1)

// TestBaseDMAWalk: a master described on /soc's bus but sitting below
// nodes without dma-ranges gets, from the kernel, no bus_dma_limit where
// the description gives it /soc's: BC0608 says so. Described as it is
// (rp and edge as buses), the two agree, and BC0205 says where the walk
// stops instead.
func TestBaseDMAWalk(t *testing.T) {
	b := board()
	soc := b.SoC.Buses[0]
	soc.HasDMARanges, soc.DMARangesPos = true, pos(5)
	soc.DMARanges = []ir.DMARange{{Child: 0, Parent: 0, Size: 0x100_0000_0000, Pos: pos(5)}}
	cb := &ir.Master{Key: "cb", Pos: pos(70), Node: ir.Node{Label: "cb", Path: "/soc/rp/edge/cb", Pos: pos(71)},
		Bus: soc, BusPos: pos(72), DMABits: 32, DMABitsPos: pos(73), Enabled: true}
	b.SoC.Masters = append(b.SoC.Masters, cb)
	tree := baseOf(t, walkBase)
	var got []string
	for _, d := range RunWith(b, tree).Diagnostics {
		if d.Code == "BC0608" {
			got = append(got, d.String())
		}
	}
	want := []string{"board.cue:70:1: warning: master cb: the description's buses give it bus_dma_limit 0xffffffffff from the dma-ranges of bus soc, but of_dma_get_range() over the built tree finds none (-ENODEV: no bus_dma_limit) [BC0608]"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("BC0608 (-want +got):\n%s", diff)
	}

	coh := ir.BusCoherency{Coherent: true, Source: "s", Masters: ir.ScopeAll, Pos: pos(3)}
	rp := &ir.Bus{Key: "rp", Pos: pos(60), Node: ir.Node{Path: "/soc/rp"}, Parent: soc, AddressCells: 2, SizeCells: 1, Coherency: coh}
	edge := &ir.Bus{Key: "edge", Pos: pos(62), Node: ir.Node{Path: "/soc/rp/edge"}, Parent: rp, AddressCells: 2, SizeCells: 1, Coherency: coh}
	b.SoC.Buses = append(b.SoC.Buses, rp, edge)
	cb.Bus = edge
	got = nil
	for _, d := range RunWith(b, tree).Diagnostics {
		if strings.HasPrefix(d.Code, "BC06") || d.Code == "BC0205" {
			got = append(got, d.String())
		}
	}
	want = []string{"board.cue:60:1: info: bus rp states no dmaRanges: of_dma_get_range() stops there, so the dma-ranges of bus soc do not reach master cb, and the kernel sets no bus_dma_limit [BC0205]"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("described as it is (-want +got):\n%s", diff)
	}
}
