// Package intree finds and compiles the boards that ship with boardc, for
// tests: each directory of boards/ holding a board.cue (the SoC packages
// under boards/soc are not boards).
package intree

import (
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/ir"
)

// Dirs returns the in-tree board directories under boardsDir, sorted,
// failing the test when there are fewer than the three reference boards.
func Dirs(t testing.TB, boardsDir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(boardsDir, "*", "board.cue"))
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, f := range m {
		if d := filepath.Dir(f); filepath.Base(d) != "soc" {
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	if len(dirs) < 3 {
		t.Fatalf("found %d boards under %s, want at least 3", len(dirs), boardsDir)
	}
	return dirs
}

var (
	mu    sync.Mutex
	cache = map[string]*boardc.Result{}
)

// Compile compiles the board in dir once per test binary and fails the
// test when it has errors.
func Compile(t testing.TB, dir string) *boardc.Result {
	t.Helper()
	mu.Lock()
	defer mu.Unlock()
	if r, ok := cache[dir]; ok {
		return r
	}
	c, err := boardc.New()
	if err != nil {
		t.Fatal(err)
	}
	r := c.Compile(dir, boardc.Options{})
	if r.Board == nil || r.Diagnostics.HasErrors() {
		var b strings.Builder
		_ = r.Diagnostics.WriteText(&b)
		t.Fatalf("%s does not compile:\n%s", dir, b.String())
	}
	cache[dir] = r
	return r
}

// CompileAll compiles every in-tree board under boardsDir.
func CompileAll(t testing.TB, boardsDir string) []*boardc.Result {
	t.Helper()
	var out []*boardc.Result
	for _, d := range Dirs(t, boardsDir) {
		out = append(out, Compile(t, d))
	}
	return out
}

// Boards returns the lowered board of every in-tree board under boardsDir.
func Boards(t testing.TB, boardsDir string) []*ir.Board {
	t.Helper()
	var out []*ir.Board
	for _, r := range CompileAll(t, boardsDir) {
		out = append(out, r.Board)
	}
	return out
}
