package check

import (
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

func TestDPIOPin(t *testing.T) {
	for _, tc := range []struct {
		name string
		irq  string
		cpus []int
		want string
	}{
		{"the table's CPU", "dpio.1", []int{1}, ""},
		{"another CPU", "dpio.1", []int{0}, "IRQ dpio.1 is pinned to CPU 0, but the DPIO table gives DPIO 1 to CPU 1"},
		{"a wider mask", "dpio.0", []int{0, 1}, "IRQ dpio.0 is pinned to CPUs 0-1, but the DPIO table gives DPIO 0 to CPU 0"},
		{"no such DPIO", "dpio.7", []int{1}, "IRQ dpio.7 is pinned, but the DPIO table has no DPIO 7"},
		{"not a DPIO's IRQ", "dpio.1-x", []int{0}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := board()
			b.SoC.Masters[1].IRQs = []ir.IRQ{{Key: "p", Name: tc.irq, Pos: pos(25)}}
			b.Policy.IRQs = append(b.Policy.IRQs, ir.IRQPin{IRQ: tc.irq, CPUs: tc.cpus, Pos: pos(54)})
			finish(b)
			got := only(Run(b), "BC0304")
			if tc.want == "" {
				if len(got) != 0 {
					t.Fatalf("findings %v, want none", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("got %d BC0304 findings, want 1: %v", len(got), got)
			}
			d := got[0]
			if d.Message != tc.want || d.Pos.Line != 54 || d.Severity != diag.Warning || d.Ref != ir.IRQPinRef(1) {
				t.Errorf("got %q at line %d, %s, on %s; want %q at line 54, warning, on %s", d.Message, d.Pos.Line, d.Severity, d.Ref, tc.want, ir.IRQPinRef(1))
			}
			if last := d.Notes[len(d.Notes)-1].Message; !strings.Contains(last, "probe order") {
				t.Errorf("last note %q does not say the CPUs are assigned in probe order", last)
			}
		})
	}
}
