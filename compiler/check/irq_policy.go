package check

import (
	"fmt"
	"slices"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// IRQOnIsolated finds IRQs pinned to an isolated CPU.
var IRQOnIsolated = &Check{
	Needs: FactCPUs | FactMasters | FactPolicy,
	Code: diag.Code{ID: "BC0403", Name: "irq-on-isolated-cpu", Severity: diag.Error,
		Doc: "An IRQ is pinned to a CPU the policy isolates. Isolated CPUs are kept free of interrupts " +
			"and steering for latency-critical work; pinning an IRQ there defeats the isolation."},
	Run: func(p *Pass) {
		pol := &p.Board.Policy
		for pi, pin := range pol.IRQs {
			for _, c := range pin.CPUs {
				if slices.Contains(pol.IsolatedCPUs, c) {
					p.Report(ir.IRQPinRef(pi), pin.Pos, fmt.Sprintf("IRQ %s is pinned to isolated CPU %d", pin.IRQ, c),
						Note(pol.IsolatedPos, "isolated CPUs"))
				}
			}
		}
	},
}

// IrqbalanceMoves warns when irqbalance would undo the pinning.
var IrqbalanceMoves = &Check{
	Needs: FactCPUs | FactMasters | FactPolicy,
	Code: diag.Code{ID: "BC0404", Name: "irqbalance-moves-pinned", Severity: diag.Warning,
		Doc: "irqbalance ignores affinity hints and rebalances every IRQ it is not told to leave alone, " +
			"so a pinned IRQ drifts back within one rebalance interval. Keep irqbalanceBan (the default) " +
			"so that the generated policy script bans the pinned IRQs."},
	Run: func(p *Pass) {
		pol := &p.Board.Policy
		if pol.IrqbalanceBan {
			return
		}
		for pi, pin := range pol.IRQs {
			p.Report(ir.IRQPinRef(pi), pin.Pos, fmt.Sprintf("irqbalance would move pinned IRQ %s: irqbalanceBan is false", pin.IRQ))
		}
	},
}

// RPSRedundant notes RPS on interfaces whose hardware queues already
// cover every CPU.
var RPSRedundant = &Check{
	Needs: FactCPUs | FactMasters | FactPolicy,
	Code: diag.Code{ID: "BC0405", Name: "rps-redundant", Severity: diag.Info,
		Doc: "The interface spreads receive flows in hardware (RSS) over at least as many queues as there " +
			"are CPUs, so software RPS adds an inter-processor interrupt per packet batch and buys nothing."},
	Run: func(p *Pass) {
		n := p.Board.SoC.NumCPUs()
		for _, np := range p.Board.Policy.Net {
			if len(np.RPS) == 0 {
				continue
			}
			nd := np.Dev
			if nd != nil && nd.RSS && nd.RxQueues >= n {
				p.Report(np.Ref(), np.Pos,
					fmt.Sprintf("RPS on %s is redundant: %d hardware RSS queues already cover the %d CPUs", np.IfName, nd.RxQueues, n),
					Note(nd.Pos, "interface %s", np.IfName))
			}
		}
	},
}
