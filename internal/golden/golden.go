// Package golden compares generated files with committed expected outputs.
// BOARDC_UPDATE=1 rewrites the expected outputs instead of comparing.
package golden

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/outputs"
)

// Update reports whether golden files are rewritten (BOARDC_UPDATE=1).
func Update() bool { return os.Getenv("BOARDC_UPDATE") == "1" }

// Check compares files with the tree under dir: every file must be there
// with the same bytes, and dir must hold no other file. Differences are
// reported as (-want +got) diffs.
func Check(t *testing.T, dir string, files []outputs.File) {
	t.Helper()
	if Update() {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			p := filepath.Join(dir, filepath.FromSlash(f.Path))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	want := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		want[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range files {
		got[f.Path] = string(f.Data)
	}
	var paths []string
	for p := range want {
		paths = append(paths, p)
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		w, inWant := want[p]
		g, inGot := got[p]
		switch {
		case !inWant:
			t.Errorf("%s: generated but not in %s (run with BOARDC_UPDATE=1 to add it)", p, dir)
		case !inGot:
			t.Errorf("%s: expected in %s but not generated", p, dir)
		case w != g:
			t.Errorf("%s differs from %s (-want +got):\n%s", p, dir, cmp.Diff(w, g))
		}
	}
}
