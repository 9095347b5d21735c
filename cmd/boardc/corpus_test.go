package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"boardc.dev/boardc/internal/corpus"
)

// The broken inputs of the loader's corpus; see internal/corpus for
// the format of each file.
const badCorpus = "../../compiler/load/testdata/bad"

var (
	// pathError is a diagnostic about a path that cannot be used.
	pathError = regexp.MustCompile(`(?m)^[^\s:]+: error: .+ \[BC\d{4}\]$`)
	// summary is the last line of the text form: the board's count of
	// errors, warnings and infos, and of the checks that ran.
	summary = regexp.MustCompile(`(?m)^boardc vet: [^\n]+: \d+ errors?, \d+ warnings?, \d+ infos?( \(-v lists them\))?; \d+ checks? ran(, \d+ skipped)?\n\z`)
)

// TestBadCorpusCLI vets and builds every broken input of the loader's
// corpus from the input's own directory: exit 1, no panic, nothing
// written, the same stderr from both (but the command named in the
// summary), and exactly the diagnostics of the case's want.diag section
// followed by the board's summary line (BOARDC_UPDATE=1 rewrites the
// section).
func TestBadCorpusCLI(t *testing.T) {
	root := t.TempDir()
	cases := corpus.Expand(t, badCorpus, root)
	t.Setenv("CUE_REGISTRY", "none") // offline: a missing module fails, never fetched
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if c.Skip != "" {
				t.Skip(c.Skip)
			}
			t.Chdir(c.Dir)
			var stdout, vetErr bytes.Buffer
			if code := runWith([]string{"vet", c.Rel}, &stdout, &vetErr); code != exitDiags {
				t.Errorf("vet: exit %d, want %d", code, exitDiags)
			}
			errs := vetErr.String()
			if strings.Contains(errs, "goroutine ") || strings.Contains(errs, "panic:") {
				t.Errorf("stderr shows a panic:\n%s", errs)
			}
			loc := summary.FindStringIndex(errs)
			if loc == nil {
				t.Errorf("stderr does not end with the count of errors and warnings:\n%s", errs)
			} else {
				c.Check(t, errs[:loc[0]])
			}

			out := filepath.Join(root, "out-"+c.Name)
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Fatal(err)
			}
			var buildErr bytes.Buffer
			if code := runWith([]string{"build", "-o", out, c.Rel}, &stdout, &buildErr); code != exitDiags {
				t.Errorf("build: exit %d, want %d", code, exitDiags)
			}
			if strings.Replace(buildErr.String(), "\nboardc build: ", "\nboardc vet: ", 1) != errs {
				t.Errorf("build's stderr differs from vet's:\n%s", buildErr.String())
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout: %q, want nothing", stdout.String())
			}
			if entries, err := os.ReadDir(out); err != nil || len(entries) > 0 {
				t.Errorf("output directory: %d entries, error %v; want it empty", len(entries), err)
			}
		})
	}
}
