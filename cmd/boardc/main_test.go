package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"boardc.dev/boardc/internal/golden"
	"boardc.dev/boardc/internal/synth"
	"boardc.dev/boardc/internal/testtool"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"boardc": func() { os.Exit(run(os.Args[1:])) },
	})
}

// TestScripts runs the CLI scripts in testdata/script. $BOARDS is the
// in-tree boards directory. With BOARDC_UPDATE=1, a failing cmp whose
// second file is one of the script's own rewrites that file in the script.
func TestScripts(t *testing.T) {
	boards, err := filepath.Abs("../../boards")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: golden.Update(),
		Setup: func(env *testscript.Env) error {
			env.Setenv("BOARDS", boards)
			// A script skips where a tool it runs is missing
			// ([!exec:dtc]); under BOARDC_REQUIRE_TOOLS=1 that fails.
			if testtool.Required() {
				for _, tool := range []string{"dtc", "cpp"} {
					if _, err := exec.LookPath(tool); err != nil {
						return fmt.Errorf("%s not found (BOARDC_REQUIRE_TOOLS=1)", tool)
					}
				}
			}
			return nil
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"build-layout": buildLayout,
			"synth":        synthBoard,
		},
	})
}

// synthBoard is the scripts' command synth N DIR: it writes a synthetic
// board of N DMA masters (internal/synth) under $WORK/DIR, its board
// package in DIR/board.
func synthBoard(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: synth N DIR")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("synth: %v", err)
	}
	if _, err := synth.Write(ts.MkAbs(args[1]), synth.Default(n)); err != nil {
		ts.Fatalf("synth: %v", err)
	}
}

// buildLayout is the scripts' command build-layout: it builds
// cmd/boardc-layout, a module of its own, into $WORK and points
// $BOARDC_LAYOUT at it, for boardc report. The program is not linked into this test binary: its
// layout engine compiles itself whenever a program linking it starts,
// and fails there when another user's cache is in the way (see
// TestUnreadableUnprivileged, which runs this binary as nobody).
func buildLayout(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) > 0 {
		ts.Fatalf("usage: build-layout")
	}
	bin := filepath.Join(ts.Getenv("WORK"), "bin", "boardc-layout")
	out, err := exec.Command("go", "build", "-C", filepath.Join("..", "boardc-layout"), "-o", bin, ".").CombinedOutput()
	if err != nil {
		ts.Fatalf("go build boardc-layout: %v\n%s", err, out)
	}
	ts.Setenv("BOARDC_LAYOUT", bin)
}
