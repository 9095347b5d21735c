package check

import (
	"testing"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// TestDPNIUnconnected: one warning naming the DPNIs the layout leaves
// without a DPMAC, at the first of them; none when each is connected.
func TestDPNIUnconnected(t *testing.T) {
	mc := func(b *ir.Board, dpmacs ...int) {
		m := b.SoC.Masters[1]
		m.Compatible = []string{"fsl,qoriq-mc"}
		m.NetDevs = nil
		for i, mac := range dpmacs {
			m.NetDevs = append(m.NetDevs, ir.NetDev{Name: "eth" + string(rune('a'+i)), RxQueues: 1, TxQueues: 1, Pos: pos(26 + i), DPMAC: mac, DPMACPos: pos(26 + i)})
		}
	}
	for _, tc := range []struct {
		name   string
		dpni   int
		dpmacs []int
		want   string
		line   int
	}{
		{"no DPNI", 0, nil, "", 0},
		{"all connected", 2, []int{1, 2}, "", 0},
		{"none connected", 2, []int{0, 0}, "the data-path layout connects none of its 2 DPNIs (etha, ethb) to a DPMAC: no port, so no traffic off the board", 26},
		{"one DPNI", 1, []int{0}, "the data-path layout connects its one DPNI (etha) to no DPMAC: no port, so no traffic off the board", 26},
		{"one of two", 2, []int{1, 0}, "the data-path layout leaves DPNI 1 (ethb) without a DPMAC: no port, so no traffic off the board", 27},
		{"past the interfaces", 3, []int{1, 0}, "the data-path layout leaves DPNIs 1, 2 (ethb, no interface) without a DPMAC: no port, so no traffic off the board", 27},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := board()
			b.SoC.DPAA2.DPNI, b.SoC.DPAA2.DPCON = tc.dpni, 8
			mc(b, tc.dpmacs...)
			finish(b)
			got := only(Run(b), "BC0311")
			if tc.want == "" {
				if len(got) != 0 {
					t.Fatalf("findings %v, want none", got)
				}
				return
			}
			if len(got) != 1 || got[0].Message != tc.want || got[0].Pos.Line != tc.line || got[0].Severity != diag.Warning || got[0].Ref != ir.RefDPAA2 {
				t.Fatalf("got %v, want one warning %q at line %d", got, tc.want, tc.line)
			}
		})
	}
}
