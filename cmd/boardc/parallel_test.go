package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc"
	"boardc.dev/boardc/internal/synth"
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
	oneCallMatchesPerBoard(t, []string{"../../boards/..."}, boards)
}

// oneCallMatchesPerBoard builds args (arguments of boardc build naming
// boards) in one call into a directory and boards with one call each
// into another, and compares the trees and the diagnostics byte for
// byte.
func oneCallMatchesPerBoard(t *testing.T, args, boards []string) {
	t.Helper()
	a, b := t.TempDir(), t.TempDir()
	var allOut, allErr bytes.Buffer
	if code := runWith(append([]string{"build", "-o", a}, args...), &allOut, &allErr); code != exitOK {
		t.Fatalf("boardc build %v: exit %d\n%s", args, code, allErr.String())
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

// TestParallelBSPMatchesSequential builds a BSP, boards on one SoC
// package, in one call with several workers, which share the SoC lowered
// once (boardc.Shared), and with one call per board, and compares the
// trees and the diagnostics byte for byte. Under the race detector
// (scripts/test.sh) it also checks that the workers only read what they
// share.
func TestParallelBSPMatchesSequential(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	dir := t.TempDir()
	const boards = 8
	files := synth.BSP(6, boards, func(i int) string {
		extra := fmt.Sprintf("soc: masters: m%d: enabled: false\n", i%6)
		if i%3 == 0 {
			extra += fmt.Sprintf("soc: masters: m%d: dma: streaming: 40\n", (i+1)%6)
		}
		return extra
	})
	if err := synth.WriteTree(dir, files); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for i := range boards {
		paths = append(paths, filepath.Join(dir, fmt.Sprintf("b%02d", i)))
	}
	oneCallMatchesPerBoard(t, paths, paths)
}
