package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc"
)

// TestParallelBuildMatchesSequential builds every in-tree board in one
// call (compiled in parallel) into one directory and with one call per
// board into another, and compares the trees and the diagnostics byte for
// byte.
func TestParallelBuildMatchesSequential(t *testing.T) {
	boards, err := boardc.Discover("../../boards")
	if err != nil {
		t.Fatal(err)
	}
	if len(boards) < 3 {
		t.Fatalf("found %d in-tree boards, want at least 3: %v", len(boards), boards)
	}
	a, b := t.TempDir(), t.TempDir()

	var allOut, allErr bytes.Buffer
	if code := runWith([]string{"build", "-o", a, "../../boards/..."}, &allOut, &allErr); code != exitOK {
		t.Fatalf("boardc build ../../boards/...: exit %d\n%s", code, allErr.String())
	}
	var seqOut, seqErr bytes.Buffer
	for _, board := range boards {
		if code := runWith([]string{"build", "-o", b, board}, &seqOut, &seqErr); code != exitOK {
			t.Fatalf("boardc build %s: exit %d\n%s", board, code, seqErr.String())
		}
	}
	if diff := cmp.Diff(readTree(t, b), readTree(t, a)); diff != "" {
		t.Errorf("one call for all boards differs from one call per board (-per-board +all):\n%s", diff)
	}
	if diff := cmp.Diff(seqErr.String(), allErr.String()); diff != "" {
		t.Errorf("diagnostics differ (-per-board +all):\n%s", diff)
	}
}

// readTree returns every regular file below dir by its slash path, with
// its mode bits and content.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	tree := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		tree[filepath.ToSlash(rel)] = fi.Mode().String() + "\n" + string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(tree) == 0 {
		t.Fatalf("%s: no file written", dir)
	}
	return tree
}
