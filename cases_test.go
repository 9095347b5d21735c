package boardc_test

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/golden"
	"boardc.dev/boardc/internal/testtool"
	"boardc.dev/boardc/outputs"
)

// casesDir holds the end-to-end cases of TestCases.
const casesDir = "testdata/cases"

// diagFile is a case's expected diagnostics.
const diagFile = "stderr.txt"

// TestCases compiles every case of testdata/cases and compares what it
// gives with what the case expects, as (-want +got); BOARDC_UPDATE=1
// rewrites the expectations. A case is a directory holding a CUE module
// (cue.mod/module.cue) whose root package is a board, and its
// expectations:
//
//	expected/    the files the board generates; absent when it has errors.
//	             tune.sh holds one marker line for its library, as in
//	             boards/*/expected (golden.TuneLibrary), and there is
//	             no manifest.json (the in-tree boards' goldens and
//	             manifest_test.go test the manifest; a case's would pin
//	             the line numbers and digests of every output again)
//	base.dts     the tree the fragment is built on, for the base-tree
//	             checks; optional
//	stderr.txt   its diagnostics in the text form boardc prints, without
//	             the count of errors and warnings, paths relative to the
//	             case; absent when it has none
//
// Adding an edge case is adding a directory.
func TestCases(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(casesDir, "*", "cue.mod", "module.cue"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatalf("no case in %s", casesDir)
	}
	t.Setenv("CUE_REGISTRY", "none") // a case is self-contained
	for _, mod := range dirs {
		dir, err := filepath.Abs(filepath.Dir(filepath.Dir(mod)))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			// Positions are shown relative to the directory the
			// compiler is made in.
			t.Chdir(dir)
			c, err := boardc.New()
			if err != nil {
				t.Fatal(err)
			}
			var opts boardc.Options
			if _, err := os.Stat("base.dts"); err == nil {
				base := baseTree(t, "base.dts")
				opts.BaseTree = func(*ir.Board) (*basetree.Tree, error) { return base, nil }
			}
			r := c.Compile(".", opts)
			golden.Check(t, filepath.Join(dir, "expected"), r.Files,
				golden.WithTail(golden.TuneLibrary), golden.Skip(outputs.ManifestPath))
			var got strings.Builder
			if err := r.Diagnostics.WriteText(&got); err != nil {
				t.Fatal(err)
			}
			checkDiagnostics(t, filepath.Join(dir, diagFile), got.String())
		})
	}
}

// checkDiagnostics compares got with the content of file, which is
// absent when there are none, or rewrites the file with BOARDC_UPDATE=1.
func checkDiagnostics(t *testing.T, file, got string) {
	t.Helper()
	if golden.Update() {
		var err error
		if got == "" {
			err = os.Remove(file)
			if errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
		} else {
			err = os.WriteFile(file, []byte(got), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	switch {
	case len(want) == 0 && got != "":
		// cmp.Diff would shorten the lines of got.
		t.Errorf("no diagnostics expected (%s is absent or empty; run with BOARDC_UPDATE=1 to write it), got:\n%s", file, got)
	case string(want) != got:
		t.Errorf("diagnostics differ from %s (-want +got):\n%s", file, cmp.Diff(string(want), got))
	}
}

// baseTree compiles a case's base.dts with dtc -@ and reads it.
func baseTree(t *testing.T, dts string) *basetree.Tree {
	t.Helper()
	testtool.Look(t, "dtc", "device-tree-compiler")
	out, err := exec.Command("dtc", "-q", "-I", "dts", "-O", "dtb", "-@", "-o", "-", dts).Output()
	if err != nil {
		t.Fatalf("dtc %s: %v", dts, err)
	}
	tree, err := basetree.Read(out, dts)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}
