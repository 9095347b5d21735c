package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// CPURange finds CPU numbers beyond the SoC's CPUs anywhere in the board.
var CPURange = &Check{
	Needs: FactCPUs | FactMasters | FactDPAA2 | FactPolicy,
	Code: diag.Code{ID: "BC0402", Name: "cpu-out-of-range", Severity: diag.Error,
		Doc: "A CPU number in an IRQ pinning, an RPS or XPS mask, a DPIO or the isolated CPUs is not one " +
			"of the SoC's CPUs (0..N-1). The kernel rejects an affinity with no online CPU, and a mask " +
			"bit for a missing CPU steers nothing."},
	Run: func(p *Pass) {
		n := p.Board.SoC.NumCPUs()
		bad := func(on ir.Ref, pos ir.Pos, what string, cpus []int) {
			for _, c := range cpus {
				switch {
				case n == 0:
					p.Report(on, pos, fmt.Sprintf("%s names CPU %d, but the SoC has no CPUs (its clusters are empty)", what, c))
				case c >= n:
					p.Report(on, pos, fmt.Sprintf("%s names CPU %d, but the SoC has %d CPUs (0..%d)", what, c, n, n-1))
				}
			}
		}
		pol := &p.Board.Policy
		for pi, pin := range pol.IRQs {
			bad(ir.IRQPinRef(pi), pin.Pos, "pinning of IRQ "+pin.IRQ, pin.CPUs)
		}
		for _, np := range pol.Net {
			for i, q := range np.RPS {
				bad(np.Ref(), np.Pos, fmt.Sprintf("rps of %s rx-%d", np.IfName, i), q)
			}
			for i, q := range np.XPS {
				bad(np.Ref(), np.Pos, fmt.Sprintf("xps of %s tx-%d", np.IfName, i), q)
			}
		}
		bad(ir.RefIsolatedCPUs, pol.IsolatedPos, "isolatedCPUs", pol.IsolatedCPUs)
		if d := p.Board.SoC.DPAA2; d != nil {
			for _, io := range d.DPIOs {
				bad(io.Ref(), io.Pos, fmt.Sprintf("DPIO %d", io.ID), []int{io.CPU})
			}
		}
	},
}
