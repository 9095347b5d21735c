package boardc_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/corpus"
	"boardc.dev/boardc/internal/golden"
	"boardc.dev/boardc/internal/testtool"
	"boardc.dev/boardc/outputs"
)

// casesDir holds the end-to-end cases of TestCases.
const casesDir = "testdata/cases"

// TestCases compiles every case of testdata/cases and compares what it
// gives with what the case expects, as (-want +got); BOARDC_UPDATE=1
// rewrites the expectations. A case (internal/corpus) is a CUE module
// whose root package is a board, with base.dts beside it, optionally, the
// tree the fragment is built on for the base-tree checks, and its
// diagnostics in want.diag: a folder with the files the board generates
// in expected/, or, for a board that generates none, a txtar file.
// A folder's expected/tune.sh holds one marker line for its library, as in
// boards/*/expected (golden.TuneLibrary), and there is no manifest.json:
// the in-tree boards' goldens and manifest_test.go test the manifest, and
// a case's would pin the line numbers and digests of every output again.
// Adding an edge case is adding a folder or a txtar file.
func TestCases(t *testing.T) {
	cases := corpus.Expand(t, casesDir, t.TempDir())
	t.Setenv("CUE_REGISTRY", "none") // a case is self-contained
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			// Positions are shown relative to the directory the
			// compiler is made in.
			t.Chdir(tc.Dir)
			c, err := boardc.New()
			if err != nil {
				t.Fatal(err)
			}
			var opts boardc.Options
			if _, err := os.Stat("base.dts"); err == nil {
				base := baseTree(t, "base.dts")
				opts.BaseTree = func(*ir.Board) (*basetree.Tree, error) { return base, nil }
			}
			r := c.Compile(tc.Rel, opts)
			if tc.Expected != "" {
				golden.Check(t, tc.Expected, r.Files,
					golden.WithTail(golden.TuneLibrary), golden.Skip(outputs.ManifestPath))
			} else if len(r.Files) > 0 {
				t.Errorf("%s generates %d files: a case that expects outputs is a folder with them in %s/", tc.File, len(r.Files), corpus.ExpectedDir)
			}
			var got strings.Builder
			if err := r.Diagnostics.WriteText(&got); err != nil {
				t.Fatal(err)
			}
			tc.Check(t, got.String())
		})
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
