package compiler_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"boardc.dev/boardc/compiler"
)

// FuzzLoad compiles arbitrary bytes as a board's board.cue. Whatever the
// input, the compiler must not panic; a board it cannot load has an error
// diagnostic, every error names a file, and a board with errors yields no
// files. Seeds are the loader's bad-input corpus and the in-tree boards.
func FuzzLoad(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Setenv("CUE_REGISTRY", "none") // an import never reaches the network
	c, err := compiler.New()
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	file := filepath.Join(dir, "board.cue")
	f.Fuzz(func(t *testing.T, src []byte) {
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
		r := c.Compile(dir, compiler.Options{})
		if r.Board == nil && !r.Diagnostics.HasErrors() {
			t.Fatalf("no board and no error:\n%s", text(r))
		}
		if r.Diagnostics.HasErrors() && len(r.Files) > 0 {
			t.Fatalf("%d files generated despite errors:\n%s", len(r.Files), text(r))
		}
		for _, d := range r.Diagnostics {
			if d.Pos.File == "" {
				t.Fatalf("diagnostic without a file: %s", d)
			}
		}
	})
}

// fuzzSeeds returns the CUE files of the bad-input corpus and of the
// in-tree boards and SoCs.
func fuzzSeeds(f *testing.F) [][]byte {
	var seeds [][]byte
	corpus, err := filepath.Glob("load/testdata/bad/*.txtar")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range corpus {
		a, err := txtar.ParseFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range a.Files {
			if strings.HasSuffix(file.Name, ".cue") && !strings.HasPrefix(file.Name, "cue.mod/") {
				seeds = append(seeds, file.Data)
			}
		}
	}
	boards, err := filepath.Glob("../boards/*/board.cue")
	if err != nil {
		f.Fatal(err)
	}
	socs, err := filepath.Glob("../boards/soc/*/*.cue")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range append(boards, socs...) {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, data)
	}
	if len(seeds) < 40 {
		f.Fatalf("only %d seeds", len(seeds))
	}
	return seeds
}

func text(r *compiler.Result) string {
	var b strings.Builder
	r.Diagnostics.WriteText(&b)
	return b.String()
}
