package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"boardc": func() { os.Exit(run(os.Args[1:])) },
	})
}

// TestScripts runs the CLI scripts in testdata/script. $BOARDS is the
// in-tree boards directory.
func TestScripts(t *testing.T) {
	boards, err := filepath.Abs("../../boards")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("BOARDS", boards)
			return nil
		},
	})
}
