package boardc_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc"
	"boardc.dev/boardc/internal/corpus"
)

// FuzzLoad compiles arbitrary bytes as a board's board.cue. Whatever the
// input, the compiler must not panic; a board it cannot load has an error
// diagnostic, every error names a file, a board with errors yields no
// files, and checks are skipped only on a description with errors. Seeds
// are the loader's bad-input corpus and the in-tree boards.
func FuzzLoad(f *testing.F) {
	for _, s := range corpus.FuzzSeeds(f, "compiler/load/testdata/bad", "boards") {
		f.Add(s)
	}
	f.Setenv("CUE_REGISTRY", "none") // an import never reaches the network
	c, err := boardc.New()
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	file := filepath.Join(dir, "board.cue")
	f.Fuzz(func(t *testing.T, src []byte) {
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
		r := c.Compile(dir, boardc.Options{})
		if r.Board == nil && !r.Diagnostics.HasErrors() {
			t.Fatalf("no board and no error:\n%s", text(r))
		}
		if len(r.Skipped) > 0 && !r.Diagnostics.HasErrors() {
			t.Fatalf("%d checks skipped without an error:\n%s", len(r.Skipped), text(r))
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

func text(r *boardc.Result) string {
	var b strings.Builder
	r.Diagnostics.WriteText(&b)
	return b.String()
}
