package check

import (
	"fmt"
	"slices"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// RPSUseless finds RPS or RFS that cannot move any work: on an SoC with
// one CPU, or to only the CPU the interface's IRQ is pinned to.
var RPSUseless = &Check{
	Needs: FactCPUs | FactMasters | FactPolicy,
	Code: diag.Code{ID: "BC0415", Name: "rps-useless", Severity: diag.Warning,
		Doc: "RPS (rx-N/rps_cpus) and RFS (rps_flow_cnt) move receive processing to another CPU " +
			"through the backlog (get_rps_cpu() and enqueue_to_backlog(), net/core/dev.c). On an SoC " +
			"with one CPU, or with the mask naming only the CPU the interface's IRQ is pinned to, there " +
			"is no other CPU: every packet goes through the backlog for nothing. tune.sh writes no RPS " +
			"or RFS on a one-CPU SoC; drop them from the policy."},
	Run: func(p *Pass) {
		n := p.Board.SoC.NumCPUs()
		// The IRQ pins of each master, in the policy's order: a board
		// with many interfaces and pins reads each pin once.
		pins := map[*ir.Master][]int{}
		for i, pin := range p.Board.Policy.IRQs {
			for _, m := range pin.Owners {
				if l := pins[m]; len(l) == 0 || l[len(l)-1] != i {
					pins[m] = append(l, i)
				}
			}
		}
		for _, np := range p.Board.Policy.Net {
			if n == 1 {
				if len(np.RPS) > 0 || np.RPSFlowCount >= 0 {
					p.Report(np.Ref(), np.Pos, fmt.Sprintf("RPS/RFS on %s on an SoC with one CPU: no other CPU to steer to, every packet goes through the backlog for nothing", np.IfName))
				}
				continue
			}
			if np.Master == nil || len(np.RPS) != 1 {
				continue
			}
			var irqCPUs []int
			var at ir.Pos
			for _, i := range pins[np.Master] {
				pin := p.Board.Policy.IRQs[i]
				irqCPUs = append(irqCPUs, pin.CPUs...)
				at = pin.Pos
			}
			irqCPUs = ir.SortedCPUs(irqCPUs)
			if len(irqCPUs) == 1 && slices.Equal(ir.SortedCPUs(np.RPS[0]), irqCPUs) {
				p.Report(np.Ref(), np.Pos,
					fmt.Sprintf("RPS of %s rx-0 steers to %s only, where its IRQ is pinned: the packets are processed there anyway, and go through the backlog for nothing", np.IfName, ir.CPUText(irqCPUs)),
					Note(at, "the IRQ of %s is pinned to %s", np.IfName, ir.CPUText(irqCPUs)))
			}
		}
	},
}
