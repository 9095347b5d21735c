package check

import (
	"fmt"
	"strings"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// PolicyOnDisabled finds runtime policy for masters the board disables.
var PolicyOnDisabled = &Check{
	Needs: FactMasters | FactPolicy,
	Code: diag.Code{ID: "BC0410", Name: "policy-on-disabled-master", Severity: diag.Error,
		Doc: "The policy pins an IRQ that only disabled masters declare, or steers an interface whose " +
			"master is disabled (enabled: false, DT status \"disabled\"). No driver binds a disabled " +
			"node, so the IRQ is never requested and the interface never created: tune.sh finds no IRQ " +
			"of that name in /proc/interrupts and exits 4, or no queues directory and exits 5, before it " +
			"changes anything, so the whole tuning fails at every boot. It is an error, not a warning, " +
			"for that reason. Enable the master or drop the policy."},
	Run: func(p *Pass) {
		for pi, pin := range p.Board.Policy.IRQs {
			if len(pin.Owners) == 0 {
				continue // BC0502 reports it
			}
			var keys []string
			var notes []diag.Note
			for _, m := range pin.Owners {
				if m.Enabled {
					keys = nil
					break
				}
				keys = append(keys, m.Key)
				notes = append(notes, Note(m.Pos, "master %s is disabled", m.Key))
			}
			if len(keys) == 0 {
				continue
			}
			what := "master " + keys[0]
			if len(keys) > 1 {
				what = "masters " + strings.Join(keys, ", ")
			}
			p.Report(ir.IRQPinRef(pi), pin.Pos,
				fmt.Sprintf("IRQ %s is declared only by disabled %s: it is never requested, and tune.sh exits 4 (no IRQ of that name)", pin.IRQ, what),
				notes...)
		}
		for _, np := range p.Board.Policy.Net {
			if np.Master == nil || np.Master.Enabled {
				continue // BC0502 reports an undeclared interface
			}
			msg := fmt.Sprintf("interface %s belongs to disabled master %s: it does not exist on the target", np.IfName, np.Master.Key)
			if len(np.RPS) > 0 || len(np.XPS) > 0 || np.RPSFlowCount >= 0 {
				msg += fmt.Sprintf(", and tune.sh exits 5 (no /sys/class/net/%s/queues)", np.IfName)
			}
			p.Report(np.Ref(), np.Pos, msg, Note(np.Master.Pos, "master %s is disabled", np.Master.Key))
		}
	},
}
