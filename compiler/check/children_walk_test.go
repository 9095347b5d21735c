package check

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/compiler/ir"
)

// TestChildrenNoRanges: a coherent fsl-mc master on a bus whose walk
// reaches no dma-ranges leaves its objects non-coherent (BC0212); a
// dma-ranges on its bus, or a non-coherent master, draws nothing.
func TestChildrenNoRanges(t *testing.T) {
	bc0212 := func(b *ir.Board) []string {
		var got []string
		for _, d := range Run(b) {
			if d.Code == "BC0212" {
				got = append(got, d.String())
			}
		}
		return got
	}
	b := board()
	mc := b.SoC.Masters[1]
	mc.DMABits, mc.CoherentBits = 64, 64
	mc.DriverSets = &ir.DriverSet{Source: "fsl_mc_device_add()", Pos: pos(25), Children: true, ChildrenPos: pos(26)}
	want := []string{"board.cue:26:1: warning: master dma is coherent, but the dma-ranges walk from its node reaches none: the devices below it are configured with force_dma false (fsl_mc_dma_configure()), so of_dma_configure_id() returns before it sets their coherency, and they are non-coherent [BC0212]"}
	if diff := cmp.Diff(want, bc0212(b)); diff != "" {
		t.Errorf("no dma-ranges (-want +got):\n%s", diff)
	}
	soc := b.SoC.Buses[0]
	soc.HasDMARanges, soc.DMARanges = true, []ir.DMARange{{Size: 1 << 40, Pos: pos(5)}}
	if got := bc0212(b); len(got) != 0 {
		t.Errorf("with /soc's dma-ranges: %q", got)
	}
	soc.HasDMARanges, soc.DMARanges = false, nil
	mc.Coherency = &ir.MasterCoherency{Coherent: false, Reason: "r", Pos: pos(27)}
	if got := bc0212(b); len(got) != 0 {
		t.Errorf("non-coherent master: %q", got)
	}
}
