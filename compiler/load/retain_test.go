package load_test

import (
	"runtime"
	"testing"

	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/internal/synth"
)

// TestLoaderMemoryIsBounded checks that a Loader keeps at most a few of
// the boards it loads: a CUE context keeps every instance built in it,
// with its files and its value, so a context shared by all of a Loader's
// builds would grow by a board each time.
func TestLoaderMemoryIsBounded(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	dir, err := synth.Write(t.TempDir(), synth.Default(100))
	if err != nil {
		t.Fatal(err)
	}
	l, err := load.New()
	if err != nil {
		t.Fatal(err)
	}
	live := func() int64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	loadOnce := func() {
		if b, ds := l.Load(dir); b == nil {
			t.Fatalf("does not load:\n%s", text(ds))
		}
	}
	loadOnce()
	before := live()
	// The size of one evaluated board, held.
	e, ds := l.Evaluate(dir)
	if e == nil {
		t.Fatal(ds)
	}
	board := live() - before
	runtime.KeepAlive(e)
	if board < 1<<20 {
		t.Fatalf("an evaluated synthetic board of 100 masters holds %d bytes; expected more than 1 MiB", board)
	}
	const loads = 20
	for range loads {
		loadOnce()
	}
	grown := live() - before
	runtime.KeepAlive(l) // what it keeps is what is measured
	// A synthetic board of 100 masters is 29 kB of CUE: a context serves
	// three of them (contextBudget).
	if grown > 3*board {
		t.Errorf("after %d more loads, memory grew by %.1f MiB; one evaluated board holds %.1f MiB",
			loads, float64(grown)/(1<<20), float64(board)/(1<<20))
	}
}
