package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
)

// TestBoardNamingSameBytes builds one board named five ways on the
// command line and checks that every output, manifest.json included, is
// the same byte for byte.
func TestBoardNamingSameBytes(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	rel := filepath.Join("..", "..", "boards", "espressobin")
	abs, err := filepath.Abs(rel)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{rel, rel + "/", "./" + rel, filepath.Join(rel, "board.cue"), abs}
	out := t.TempDir()
	var trees []map[string]string
	for i, n := range names {
		dir := filepath.Join(out, fmt.Sprint(i))
		var stderr bytes.Buffer
		if code := runWith([]string{"build", "-q", "-o", dir, n}, &bytes.Buffer{}, &stderr); code != exitOK {
			t.Fatalf("build %s: exit %d\n%s", n, code, stderr.String())
		}
		trees = append(trees, readTree(t, filepath.Join(dir, "espressobin")))
	}
	if len(trees[0]) < 5 {
		t.Fatalf("only %d outputs", len(trees[0]))
	}
	for i := 1; i < len(trees); i++ {
		if d := diffTrees(trees[0], trees[i]); d != "" {
			t.Errorf("%s and %s give different bytes in:\n%s", names[0], names[i], d)
		}
	}
}
