package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// DuplicateNodes finds two buses or masters with one DT label or path.
var DuplicateNodes = &Check{
	Needs: FactBuses | FactMasters,
	Code: diag.Code{ID: "BC0501", Name: "duplicate-node", Severity: diag.Error,
		Doc: "Two buses or masters name the same device-tree label or node path. The fragment would set " +
			"properties on one node from two descriptions, and one of the facts would be lost."},
	Run: func(p *Pass) {
		labels, paths := map[string]ir.Pos{}, map[string]ir.Pos{}
		seen := func(on ir.Ref, n ir.Node) {
			if prev, ok := paths[n.Path]; ok {
				p.Report(on, n.Pos, fmt.Sprintf("node path %s is described twice", n.Path), Note(prev, "first described here"))
			}
			paths[n.Path] = n.Pos
			if n.Label == "" {
				return
			}
			if prev, ok := labels[n.Label]; ok {
				p.Report(on, n.Pos, fmt.Sprintf("DT label %s is used twice", n.Label), Note(prev, "first used here"))
			}
			labels[n.Label] = n.Pos
		}
		for _, b := range p.Board.SoC.Buses {
			seen(b.Ref(), b.Node)
		}
		for _, m := range p.Board.SoC.Masters {
			seen(m.Ref(), m.Node)
		}
	},
}

// UndeclaredTarget finds runtime policy naming an IRQ or interface the
// board does not declare.
var UndeclaredTarget = &Check{
	Needs: FactBuses | FactMasters | FactPolicy,
	Code: diag.Code{ID: "BC0502", Name: "undeclared-policy-target", Severity: diag.Error,
		Doc: "The runtime policy pins an IRQ, or steers an interface, that no master of the board " +
			"declares (in its irqs or netdev). The generated script would fail on the target, or tune " +
			"a device the description knows nothing about; declare it on its master."},
	Run: func(p *Pass) {
		for pi, pin := range p.Board.Policy.IRQs {
			if len(pin.Owners) == 0 {
				p.Report(ir.IRQPinRef(pi), pin.Pos, fmt.Sprintf("IRQ %q is not declared by any master (soc.masters.*.irqs)", pin.IRQ))
			}
		}
		for _, np := range p.Board.Policy.Net {
			if np.Dev == nil {
				p.Report(np.Ref(), np.Pos, fmt.Sprintf("interface %s is not declared by any master (soc.masters.*.netdev)", np.IfName))
			}
		}
	},
}
