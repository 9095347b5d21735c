package check

import (
	"testing"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

func TestDPCONBudget(t *testing.T) {
	mc := func(b *ir.Board, queues ...int) {
		m := b.SoC.Masters[1]
		m.Compatible = []string{"fsl,qoriq-mc"}
		m.NetDevs = nil
		for i, q := range queues {
			m.NetDevs = append(m.NetDevs, ir.NetDev{Name: "eth" + string(rune('a'+i)), RxQueues: q, TxQueues: q, Pos: pos(26 + i)})
		}
	}
	for _, tc := range []struct {
		name        string
		dpni, dpcon int
		edit        func(b *ir.Board)
		want        string
	}{
		{"no DPNI", 0, 0, nil, ""},
		{"one per channel", 2, 4, nil, ""},
		{"one per CPU only", 2, 2, nil, "dpcon is 2, but 2 DPNIs × 2 channels need 4 DPCONs: one per channel per interface"},
		{"capped by the queues", 2, 2, func(b *ir.Board) { mc(b, 1, 1) }, ""},
		{"queues differ", 2, 2, func(b *ir.Board) { mc(b, 1, 8) }, "dpcon is 2, but the channels of 2 DPNIs need 3 DPCONs: one per channel per interface"},
		{"a DPNI without a netdev", 2, 2, func(b *ir.Board) { mc(b, 1) }, "dpcon is 2, but the channels of 2 DPNIs need 3 DPCONs: one per channel per interface"},
		{"CPUs without a DPIO make no channel", 2, 2, func(b *ir.Board) { b.SoC.DPAA2.DPIOs = b.SoC.DPAA2.DPIOs[:1] }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := board()
			b.SoC.DPAA2.DPNI, b.SoC.DPAA2.DPCON = tc.dpni, tc.dpcon
			if tc.edit != nil {
				tc.edit(b)
			}
			finish(b)
			got := only(Run(b), "BC0306")
			if tc.want == "" {
				if len(got) != 0 {
					t.Fatalf("findings %v, want none", got)
				}
				return
			}
			if len(got) != 1 || got[0].Message != tc.want || got[0].Pos.Line != 29 || got[0].Severity != diag.Error || got[0].Ref != ir.RefDPAA2 {
				t.Fatalf("got %v, want one error %q at line 29 on %s", got, tc.want, ir.RefDPAA2)
			}
		})
	}
}
