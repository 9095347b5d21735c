// Package badcorpus expands the loader's corpus of broken descriptions
// (compiler/load/testdata/bad) for the tests that feed it to the loader and
// to the CLI.
//
// Each NAME.txtar holds the files of one input. Its comment starts with a
// line saying what is broken and may add directives:
//
//	arg: REL     the argument passed to boardc, relative to the expanded
//	             directory (default: the directory itself)
//	chmod: FILE MODE
//	             the file's mode after expansion, in octal
//	want: path   the error is about the path itself (no line is known)
package badcorpus

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// MinCases is the least number of inputs the corpus must hold.
const MinCases = 40

// Case is one broken input, expanded into a directory.
type Case struct {
	Name string
	// Arg is the argument to load, relative to the expansion root.
	Arg string
	// Path says the error has no line: the input has no file to point
	// into, or the path itself is wrong.
	Path bool
	// Skip is why the case cannot run here, if it cannot.
	Skip string
}

// Expand expands every input of dir under root (root/NAME each), failing
// the test when the corpus is smaller than MinCases. Paths are relative to
// root, which the caller makes the working directory.
func Expand(t testing.TB, dir, root string) []Case {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < MinCases {
		t.Fatalf("corpus %s has %d cases, want at least %d", dir, len(files), MinCases)
	}
	var out []Case
	for _, f := range files {
		out = append(out, expand(t, f, root))
	}
	return out
}

func expand(t testing.TB, file, root string) Case {
	t.Helper()
	a, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimSuffix(filepath.Base(file), ".txtar")
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c := Case{Name: name, Arg: name, Path: true}
	WriteFiles(t, dir, a.Files)
	for _, f := range a.Files {
		if strings.HasSuffix(f.Name, ".cue") && !strings.HasPrefix(f.Name, "cue.mod/") {
			c.Path = false // a file to point into
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(a.Comment))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ": ")
		if !ok || strings.HasPrefix(key, "#") {
			continue
		}
		switch key {
		case "arg":
			c.Arg = filepath.Join(name, filepath.FromSlash(val))
		case "want":
			c.Path = val == "path"
		case "chmod":
			f, m, _ := strings.Cut(val, " ")
			mode, err := strconv.ParseUint(m, 8, 32)
			if err != nil {
				t.Fatalf("%s: chmod: %v", file, err)
			}
			if os.Geteuid() == 0 {
				c.Skip = "running as root: chmod does not stop root from reading (TestUnreadableUnprivileged in cmd/boardc covers it)"
			}
			p := filepath.Join(dir, filepath.FromSlash(f))
			if err := os.Chmod(p, os.FileMode(mode)); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(p, 0o644) })
		default:
			t.Fatalf("%s: unknown directive %q", file, key)
		}
	}
	return c
}

// WriteFiles writes the files of an archive below dir, making their
// directories.
func WriteFiles(t testing.TB, dir string, files []txtar.File) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzSeeds returns the CUE files of every input of the corpus in dir
// (not those under cue.mod/) and those of the in-tree boards and SoCs
// below boardsDir, as seeds for the fuzz targets that take one board.cue.
func FuzzSeeds(t testing.TB, dir, boardsDir string) [][]byte {
	t.Helper()
	var seeds [][]byte
	corpus, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range corpus {
		a, err := txtar.ParseFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasSuffix(f.Name, ".cue") && !strings.HasPrefix(f.Name, "cue.mod/") {
				seeds = append(seeds, f.Data)
			}
		}
	}
	boards, err := filepath.Glob(filepath.Join(boardsDir, "*", "*.cue"))
	if err != nil {
		t.Fatal(err)
	}
	socs, err := filepath.Glob(filepath.Join(boardsDir, "soc", "*", "*.cue"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append(boards, socs...) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, data)
	}
	if len(seeds) < MinCases {
		t.Fatalf("only %d fuzz seeds", len(seeds))
	}
	return seeds
}
