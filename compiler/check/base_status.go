package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/diag"
)

// BaseStatus finds masters whose enabled differs from the base tree's
// status.
var BaseStatus = &Check{
	Needs: FactMasters,
	Code: diag.Code{ID: "BC0606", Name: "base-status", Severity: diag.Warning,
		Doc: "A master's enabled differs from its node's status in the base tree (enabled: no status, " +
			"\"okay\" or \"ok\", as of_device_is_available() reads it). The fragment does not write " +
			"status, so the built tree has upstream's: a master the description enables but upstream " +
			"disables is never bound, and its mask setup, IRQ pins and steering find nothing; one the " +
			"description disables but upstream enables is bound without the description's policy."},
	NeedsBase: true,
	Run: func(p *Pass) {
		t := p.Base
		for _, m := range p.Board.SoC.Masters {
			n := baseNode(t, m.Node)
			if n == nil || n.Enabled() == m.Enabled {
				continue
			}
			state := map[bool]string{true: "enabled", false: "disabled"}
			p.Report(m.Ref(), m.EnabledPos.Or(m.Pos),
				fmt.Sprintf("master %s is %s in the description, but in the base tree its node %s; the fragment does not write status, so the built tree has it %s",
					m.Key, state[m.Enabled], statusPhrase(n), state[n.Enabled()]),
				append([]diag.Note{inTree(t, n.Path)}, setAt(t, n.Path, "status")...)...)
		}
	},
}

// statusPhrase says what status a node has.
func statusPhrase(n *basetree.Node) string {
	if s, ok := n.String("status"); ok {
		return fmt.Sprintf("has status %q", s)
	}
	return "has no status"
}
