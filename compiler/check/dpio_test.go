package check

import (
	"strings"
	"testing"
)

// TestFewerDPIOsNotes: the warning for fewer DPIOs than CPUs says what
// dpaa2-eth does, and quotes the DPIO measurement as what it was (the
// driver not using the affine portal), not as the cost of fewer DPIOs.
func TestFewerDPIOsNotes(t *testing.T) {
	b := board()
	b.SoC.DPAA2.DPIOs = b.SoC.DPAA2.DPIOs[:1]
	finish(b)
	got := only(Run(b), "BC0301")
	if len(got) != 1 {
		t.Fatalf("got %d BC0301 findings, want 1: %v", len(got), got)
	}
	var notes []string
	for _, n := range got[0].Notes {
		notes = append(notes, n.Message)
	}
	all := strings.Join(notes, "\n")
	for _, want := range []string{"defers the interface's probe", "did not use the CPU's affine portal: 1.33 Mpps and out of memory, against 3.72 Mpps", "fewer DPIOs than CPUs was not measured"} {
		if !strings.Contains(all, want) {
			t.Errorf("notes do not say %q:\n%s", want, all)
		}
	}
	if strings.Contains(got[0].Message, "share") {
		t.Errorf("message %q says CPUs share a portal; dpaa2-eth defers instead", got[0].Message)
	}
}
