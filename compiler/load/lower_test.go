package load

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/internal/synth"
)

// TestLowerConcurrent lowers a board large enough to be lowered on several
// goroutines, and on one, and checks that both give the same IR, positions
// included. scripts/test.sh runs it under the race detector.
func TestLowerConcurrent(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	p := synth.Default(6 * minPerWorker)
	dir, err := synth.Write(t.TempDir(), p)
	if err != nil {
		t.Fatal(err)
	}
	l, err := New()
	if err != nil {
		t.Fatal(err)
	}
	e, ds := l.Evaluate(dir)
	if e == nil {
		t.Fatalf("does not evaluate: %v", ds)
	}
	one, ds := e.lower(1)
	if one == nil {
		t.Fatalf("does not lower: %v", ds)
	}
	if len(one.SoC.Masters) != p.Masters || len(one.Policy.IRQs) < p.Masters {
		t.Fatalf("lowered %d masters and %d IRQ pins; want %d and at least as many",
			len(one.SoC.Masters), len(one.Policy.IRQs), p.Masters)
	}
	for _, workers := range []int{2, 3, 5} {
		many, ds := e.lower(workers)
		if many == nil {
			t.Fatalf("%d workers: does not lower: %v", workers, ds)
		}
		if diff := cmp.Diff(one, many); diff != "" {
			t.Errorf("%d workers: the IR differs from one worker's (-one +many):\n%s", workers, diff)
		}
	}
}
