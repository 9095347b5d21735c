package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"boardc.dev/boardc/internal/golden"
	"boardc.dev/boardc/outputs/report/layout"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"boardc":        func() { os.Exit(run(os.Args[1:])) },
		"boardc-layout": layoutMain,
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
			return nil
		},
	})
}

// layoutMain is cmd/boardc-layout in the test binary, so that scripts
// find boardc-layout on PATH as boardc report does once installed.
func layoutMain() {
	dot, err := io.ReadAll(os.Stdin)
	if err == nil {
		var svg []byte
		if svg, err = layout.SVG(dot); err == nil {
			_, err = os.Stdout.Write(svg)
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "boardc-layout: %v\n", err)
		os.Exit(1)
	}
}
