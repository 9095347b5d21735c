package check

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/compiler/ir"
)

// walkBoard is the clean board with a translating /soc, a bus mid
// (/soc/mid, mc cells) under it and a bus leaf under mid, which holds a
// third master, cb: of_dma_get_range() starts at leaf, then must find a
// dma-ranges on mid to reach /soc's.
func walkBoard(mc int) *ir.Board {
	b := board()
	soc := b.SoC.Buses[0]
	soc.HasDMARanges, soc.DMARangesPos = true, pos(5)
	soc.DMARanges = []ir.DMARange{{Child: 0, Parent: 0, Size: 0x100_0000_0000, Pos: pos(5)}}
	coh := ir.BusCoherency{Coherent: false, Source: "s", Pos: pos(3)}
	mid := &ir.Bus{Key: "mid", Pos: pos(60), Node: ir.Node{Path: "/soc/mid"}, Parent: soc,
		AddressCells: mc, SizeCells: mc, CellsPos: pos(61), Coherency: coh}
	leaf := &ir.Bus{Key: "leaf", Pos: pos(62), Node: ir.Node{Path: "/soc/mid/leaf"}, Parent: mid,
		AddressCells: 1, SizeCells: 0, Coherency: coh}
	b.SoC.Buses = append(b.SoC.Buses, mid, leaf)
	for _, k := range []string{"cb2", "cb1"} {
		b.SoC.Masters = append(b.SoC.Masters, &ir.Master{Key: k, Pos: pos(70), Node: ir.Node{Path: "/soc/mid/leaf/" + k},
			Bus: leaf, DMABits: 32, DMABitsPos: pos(71), Enabled: true})
	}
	return b
}

// TestDMARangesWalk pins what BC0205 and BC0206 say: where the walk stops
// short of /soc's dma-ranges (mid states none), where a stated identity
// carries it on, and that an empty dma-ranges with cell counts other than
// the parent's draws dtc's warning.
func TestDMARangesWalk(t *testing.T) {
	for _, tc := range []struct {
		name  string
		mc    int
		state bool
		want  []string
	}{
		{"stops", 2, false, []string{
			"board.cue:60:1: info: bus mid states no dmaRanges: of_dma_get_range() stops there, so the dma-ranges of bus soc do not reach masters cb1, cb2, and the kernel sets no bus_dma_limit [BC0205]",
		}},
		{"identity carries on", 2, true, []string{
			"board.cue:63:1: info: bus mid: its empty dmaRanges carries of_dma_get_range() on to the dma-ranges of bus soc for masters cb1, cb2; the fragment writes an empty dma-ranges on /soc/mid [BC0205]",
		}},
		{"identity across cell counts", 1, true, []string{
			"board.cue:63:1: info: bus mid: its empty dmaRanges carries of_dma_get_range() on to the dma-ranges of bus soc for masters cb1, cb2; the fragment writes an empty dma-ranges on /soc/mid [BC0205]",
			"board.cue:63:1: warning: bus mid: an empty dma-ranges with cell counts <1 1>, not its parent's <2 2>: dtc warns (dma_ranges_format) [BC0206]",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := walkBoard(tc.mc)
			if tc.state {
				mid := b.SoC.Buses[1]
				mid.HasDMARanges, mid.DMARangesPos = true, pos(63)
			}
			var got []string
			for _, d := range Run(b) {
				got = append(got, d.String())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
	// Masters on the translating bus itself, or on a bus right below it,
	// reach its dma-ranges without help: nothing to say.
	b := walkBoard(2)
	b.SoC.Masters = b.SoC.Masters[:2]
	b.SoC.Masters = append(b.SoC.Masters, &ir.Master{Key: "m", Node: ir.Node{Path: "/soc/mid/m"}, Bus: b.SoC.Buses[1],
		DMABits: 32, DMABitsPos: pos(71), Enabled: true})
	for _, d := range Run(b) {
		if strings.Contains(d.Code, "BC020") {
			t.Errorf("master below the translation's child bus: %s", d)
		}
	}
}
