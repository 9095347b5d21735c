package check

import (
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/ir"
)

// TestCostNote attaches the EIP97 figure to the engine and SoC it was
// measured on only, and says for any other master whose measurement it is.
func TestCostNote(t *testing.T) {
	eip97 := &ir.Master{Compatible: []string{"marvell,armada-3700-crypto", "inside-secure,safexcel-eip97ies"}}
	other := &ir.Master{Compatible: []string{"marvell,armada-3700-neta"}}
	a3720 := &ir.SoC{Compatible: []string{"marvell,armada3720", "marvell,armada3710"}}
	ls2088a := &ir.SoC{Compatible: []string{"fsl,ls2088a"}}
	for _, tc := range []struct {
		soc  *ir.SoC
		m    *ir.Master
		want string
	}{
		{a3720, eip97, eip97Gain},
		{a3720, other, eip97Elsewhere},
		{ls2088a, eip97, eip97Elsewhere},
		{ls2088a, other, eip97Elsewhere},
	} {
		if got := costNote(tc.soc, tc.m); got != tc.want {
			t.Errorf("costNote(%v, %v) = %q, want %q", tc.soc.Compatible, tc.m.Compatible, got, tc.want)
		}
	}
	for _, s := range []string{eip97Gain, eip97Elsewhere} {
		if strings.Contains(s, "slower") || !strings.Contains(s, "Armada 3720") || !strings.Contains(s, "+326 %") {
			t.Errorf("note %q must state the Armada 3720 gain, not a slowdown", s)
		}
	}
}
