package boardc_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"boardc.dev/boardc"
	"boardc.dev/boardc/internal/synth"
)

// The BSP guard: boards that only add to their SoC's masters, compiled
// together, share one evaluation of their SoC (boardc.Compiler.Prepare).
// Compiling bspBoards such boards on an SoC of bspMasters masters, with a
// Compiler made for them, may allocate at most bspLimit times what
// compiling one of them does. Each board's checks and outputs grow with
// the masters too, so the ratio is not 1: the SoC lowered once measured
// ×5.1 in objects and ×3.9 in bytes at dc762fe (×5.4 and ×4.1 at
// 7331780, ×5.9 and ×5.2 with each master a
// board disables unified with #Master again rather than taken lowered),
// each board evaluating its SoC again ×13.0 in both. Allocations, not
// time, so that a busy machine does not change the result.
const (
	bspMasters = 100
	bspBoards  = 16
	bspLimit   = 7.0
)

// TestBSPScaling is the BSP guard.
func TestBSPScaling(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	dir := t.TempDir()
	files := synth.BSP(bspMasters, bspBoards, func(i int) string {
		return fmt.Sprintf("soc: masters: m%d: enabled: false\n", i+1)
	})
	if err := synth.WriteTree(dir, files); err != nil {
		t.Fatal(err)
	}
	var boards []string
	for i := range bspBoards {
		boards = append(boards, filepath.Join(dir, fmt.Sprintf("b%02d", i)))
	}
	compile := func(paths []string) {
		c, err := boardc.New()
		if err != nil {
			t.Fatal(err)
		}
		c.Prepare(paths)
		for _, p := range paths {
			if r := c.Compile(p, boardc.Options{}); r.Diagnostics.HasErrors() || len(r.Files) == 0 {
				t.Fatalf("%s: %v", p, r.Diagnostics)
			}
		}
	}
	compile(boards[:1]) // what a process prepares once is not the boards'
	one := allocsOf(func() { compile(boards[:1]) })
	all := allocsOf(func() { compile(boards) })
	for _, m := range []struct {
		what     string
		one, all uint64
	}{
		{"objects", one.objects, all.objects},
		{"bytes", one.bytes, all.bytes},
	} {
		ratio := float64(m.all) / float64(m.one)
		t.Logf("%s: %d for one board, %d for %d boards on its SoC: ×%.2f (limit ×%.1f)", m.what, m.one, m.all, bspBoards, ratio, bspLimit)
		if ratio > bspLimit {
			t.Errorf("%d boards on one SoC allocate ×%.2f the %s of one, more than ×%.1f: do they evaluate their SoC again?", bspBoards, ratio, m.what, bspLimit)
		}
	}
}
