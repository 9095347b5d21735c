package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"boardc.dev/boardc/internal/badcorpus"
)

// The broken inputs of the loader's corpus; see
// compiler/load/corpus_test.go for the format of each file.
const badCorpus = "../../compiler/load/testdata/bad"

var (
	// positioned is a diagnostic pointing into a file.
	positioned = regexp.MustCompile(`(?m)^[^\s:]+:\d+:\d+: error: .+ \[BC\d{4}\]$`)
	// pathError is a diagnostic about a path that cannot be used.
	pathError = regexp.MustCompile(`(?m)^[^\s:]+: error: .+ \[BC\d{4}\]$`)
)

// TestBadCorpusCLI builds every broken input of the loader's corpus: exit
// 1, a diagnostic in the text form pointing into the input (or at the path
// for path errors), no panic and nothing written.
func TestBadCorpusCLI(t *testing.T) {
	root := t.TempDir()
	cases := badcorpus.Expand(t, badCorpus, root)
	t.Chdir(root)
	t.Setenv("CUE_REGISTRY", "none") // offline: a missing module fails, never fetched
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if c.Skip != "" {
				t.Skip(c.Skip)
			}
			out := filepath.Join(root, "out-"+c.Name)
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := runWith([]string{"build", "-o", out, c.Arg}, &stdout, &stderr)
			errs := stderr.String()
			t.Logf("stderr:\n%s", errs)
			if code != exitDiags {
				t.Errorf("exit %d, want %d", code, exitDiags)
			}
			want := positioned
			if c.Path {
				want = pathError
			}
			if !want.MatchString(errs) {
				t.Errorf("stderr has no line matching %s", want)
			}
			if strings.Contains(errs, "goroutine ") || strings.Contains(errs, "panic:") {
				t.Errorf("stderr shows a panic")
			}
			if entries, err := os.ReadDir(out); err != nil || len(entries) > 0 {
				t.Errorf("output directory: %d entries, error %v; want it empty", len(entries), err)
			}
		})
	}
}
