package check

import (
	"fmt"
	"slices"
	"strings"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// DriverIRQName finds a master's IRQ name that is none of the literal
// names its driver requests IRQs under.
var DriverIRQName = &Check{
	NeedsKernel: true,
	Needs:       FactMasters,
	Code: diag.Code{ID: "BC0704", Name: "driver-irq-name", Severity: diag.Info,
		Doc: "An IRQ name of the master is none of the names its driver requests IRQs under, where the " +
			"driver-facts catalogue of the board's kernel knows each of them as a literal string " +
			"(request_irq() and its variants; /proc/interrupts shows that name). A pin on such a name " +
			"finds no IRQ on the board, and tune.sh reports it missing. It is information, not a warning: " +
			"the catalogue reads the requests it reaches from the driver's own code, and a name from a " +
			"library, a firmware table or a child device it does not follow may still exist. Drivers " +
			"that form a name at run time (a format, the device's or the interface's name) are not checked, " +
			"nor a bridge (bridge), whose IRQs are its endpoints', requested by their own drivers."},
	Run: func(p *Pass) {
		for _, m := range p.Board.SoC.Masters {
			d, matched := driverOf(p, m)
			if d == nil || len(d.IRQs) == 0 || len(m.IRQs) == 0 || m.IsBridge() {
				continue
			}
			var names, sites []string
			literal := true
			for _, q := range d.IRQs {
				literal = literal && q.Kind == "literal"
				if !slices.Contains(names, q.Name) {
					names = append(names, q.Name)
					sites = append(sites, fmt.Sprintf("%q at %s", q.Name, q.Site))
				}
			}
			if !literal {
				continue
			}
			for _, q := range m.IRQs {
				if slices.Contains(names, q.Name) {
					continue
				}
				p.Report(m.Ref(), q.Pos, fmt.Sprintf(
					"master %s's IRQ %s is named %q, but its driver %s requests IRQs only as %s (kernel %s)",
					m.Key, q.Key, q.Name, d.Name, quoteList(names), p.Kernel.Series),
					driverNote(p.Kernel, d, matched),
					Note(ir.Pos{}, "kernel %s: %s", p.Kernel.Series, strings.Join(sites, ", ")))
			}
		}
	},
}

// quoteList prints names quoted, joined with "or".
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
