package check

import (
	"fmt"
	"slices"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// SteeringOnIsolated finds RPS and XPS masks naming an isolated CPU.
var SteeringOnIsolated = &Check{
	Needs: FactCPUs | FactMasters | FactPolicy,
	Code: diag.Code{ID: "BC0409", Name: "steering-on-isolated-cpu", Severity: diag.Error,
		Doc: "An RPS or XPS mask of an interface queue names a CPU the policy isolates. RPS runs the " +
			"queue's receive processing on the CPUs of rx-N/rps_cpus (through an inter-processor " +
			"interrupt) and XPS sends on the CPUs of tx-N/xps_cpus, so the isolated CPU takes network " +
			"softirq work: the isolation BC0403 keeps for IRQs is lost. Each queue is reported once."},
	Run: func(p *Pass) {
		pol := &p.Board.Policy
		if len(pol.IsolatedCPUs) == 0 {
			return
		}
		isolated := func(cpus []int) []int {
			var out []int
			for _, c := range cpus {
				if slices.Contains(pol.IsolatedCPUs, c) {
					out = append(out, c)
				}
			}
			return out
		}
		for _, np := range pol.Net {
			for i, q := range np.RPS {
				if bad := isolated(q); len(bad) > 0 {
					p.Report(np.Ref(), np.Pos,
						fmt.Sprintf("rps of %s rx-%d steers receive processing to isolated %s", np.IfName, i, ir.CPUText(bad)),
						Note(pol.IsolatedPos, "isolated CPUs"))
				}
			}
			for i, q := range np.XPS {
				if bad := isolated(q); len(bad) > 0 {
					p.Report(np.Ref(), np.Pos,
						fmt.Sprintf("xps of %s tx-%d sends from isolated %s", np.IfName, i, ir.CPUText(bad)),
						Note(pol.IsolatedPos, "isolated CPUs"))
				}
			}
		}
	},
}
