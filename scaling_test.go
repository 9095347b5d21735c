package boardc_test

import (
	"runtime"
	"testing"

	"boardc.dev/boardc"
	"boardc.dev/boardc/internal/synth"
	"boardc.dev/boardc/report"
)

// The scaling guard compiles synthetic boards of scaleSmall and scaleLarge
// DMA masters and fails when the memory a build allocates, counted in
// objects and in bytes, grows faster than the masters by more than
// scaleSlack: a stage that turns quadratic (merging each master's origin
// into a set copied anew, say) multiplies it by the size ratio again,
// which no slack hides. The same holds for the report's DOT and page. It
// counts allocations, which a busy machine does not change; timing stays
// in the benchmarks.
const (
	scaleSmall = 250
	scaleLarge = 2000
	// scaleSlack is how much faster than the masters the allocations may
	// grow: the synthetic board's buses, IRQ pins and steered interfaces
	// grow with the masters too, and maps and slices grow by doubling.
	scaleSlack = 1.5
)

// allocs is what a function allocated: objects and bytes.
type allocs struct{ objects, bytes uint64 }

// allocsOf runs f once and returns what it allocated. The tests of this
// package do not run in parallel, so what the process allocates meanwhile
// is f's.
func allocsOf(f func()) allocs {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return allocs{after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc}
}

// scaled is what one size of synthetic board allocates to compile, and
// to draw as DOT and as a page.
type scaled struct{ compile, report allocs }

func measureScale(t *testing.T, c *boardc.Compiler, n int) scaled {
	t.Helper()
	dir, err := synth.Write(t.TempDir(), synth.Default(n))
	if err != nil {
		t.Fatal(err)
	}
	// Once unmeasured: what a Compiler prepares once (the schema) and
	// keeps is not the board's.
	if r := c.Compile(dir, boardc.Options{}); r.Diagnostics.HasErrors() {
		t.Fatalf("synthetic board of %d masters: %v", n, r.Diagnostics)
	}
	var r *boardc.Result
	s := scaled{compile: allocsOf(func() { r = c.Compile(dir, boardc.Options{}) })}
	in := &report.Input{Board: r.Board, Diagnostics: r.Diagnostics, Outputs: report.OutputsOf(r.Manifest)}
	s.report = allocsOf(func() {
		if _, err := report.HTML(in, append([]byte("<svg>"), report.DOT(in)...)); err != nil {
			t.Fatal(err)
		}
	})
	return s
}

// TestScaling is the scaling guard (see scaleSlack).
func TestScaling(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	c, err := boardc.New()
	if err != nil {
		t.Fatal(err)
	}
	small, large := measureScale(t, c, scaleSmall), measureScale(t, c, scaleLarge)
	limit := scaleSlack * scaleLarge / scaleSmall
	for _, m := range []struct {
		what         string
		small, large uint64
	}{
		{"compile: objects", small.compile.objects, large.compile.objects},
		{"compile: bytes", small.compile.bytes, large.compile.bytes},
		{"report: objects", small.report.objects, large.report.objects},
		{"report: bytes", small.report.bytes, large.report.bytes},
	} {
		ratio := float64(m.large) / float64(m.small)
		t.Logf("%s: %d at %d masters, %d at %d: ×%.2f (limit ×%.1f)", m.what, m.small, scaleSmall, m.large, scaleLarge, ratio, limit)
		if ratio > limit {
			t.Errorf("%s grow ×%.2f from %d to %d masters, more than ×%.1f: a stage is super-linear (profile it with go test -bench Compile)",
				m.what, ratio, scaleSmall, scaleLarge, limit)
		}
	}
}
