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
//
// Its section want.diag, which is not expanded, holds the diagnostics the
// input must yield, in the text form `boardc vet` prints (without the
// count of errors and warnings), as read from the expanded directory:
// paths are relative to it. BOARDC_UPDATE=1 rewrites the section with the
// diagnostics the test got.
package badcorpus

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"boardc.dev/boardc/internal/golden"
)

// WantFile is the name of the section holding a case's expected
// diagnostics.
const WantFile = "want.diag"

// MinCases is the least number of inputs the corpus must hold.
const MinCases = 40

// Case is one broken input, expanded into a directory.
type Case struct {
	Name string
	// File is the absolute path of the case's txtar file.
	File string
	// Dir is the absolute path of the directory the case is expanded
	// into; the expected diagnostics are those read with Dir as the
	// working directory.
	Dir string
	// Arg is the argument to load, relative to the expansion root.
	Arg string
	// Rel is the argument to load, relative to Dir.
	Rel string
	// Want is the content of the case's want.diag section; HasWant says
	// whether it has one.
	Want    string
	HasWant bool
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
	dir, err := filepath.Abs(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	c := Case{Name: name, File: abs, Dir: dir, Arg: name, Rel: ".", Path: true}
	var inputs []txtar.File
	for _, f := range a.Files {
		if f.Name == WantFile {
			c.Want, c.HasWant = string(f.Data), true
			continue
		}
		inputs = append(inputs, f)
	}
	WriteFiles(t, dir, inputs)
	for _, f := range inputs {
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
			c.Rel = filepath.FromSlash(val)
			c.Arg = filepath.Join(name, c.Rel)
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

// Check compares got, the diagnostics of the case in the text form, with
// its want.diag section and reports the difference as (-want +got). With
// BOARDC_UPDATE=1 it rewrites the section instead.
func (c Case) Check(t testing.TB, got string) {
	t.Helper()
	if golden.Update() {
		if !c.HasWant || got != c.Want {
			if err := setWant(c.File, got); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	switch {
	case c.Want == "":
		// cmp.Diff would shorten the lines of got.
		t.Errorf("%s has no %s section or an empty one (run with BOARDC_UPDATE=1 to write it); got:\n%s", c.File, WantFile, got)
	case c.Want != got:
		t.Errorf("diagnostics differ from %s in %s (-want +got):\n%s", WantFile, c.File, cmp.Diff(c.Want, got))
	}
}

// setWant rewrites the want.diag section of the archive file with want,
// as its last section. The file is replaced by a rename, so that a test
// reading it meanwhile (the loader's and the CLI's tests update the same
// files) reads it whole.
func setWant(file, want string) error {
	a, err := txtar.ParseFile(file)
	if err != nil {
		return err
	}
	files := a.Files[:0]
	for _, f := range a.Files {
		if f.Name != WantFile {
			files = append(files, f)
		}
	}
	a.Files = append(files, txtar.File{Name: WantFile, Data: []byte(want)})
	tmp, err := os.CreateTemp(filepath.Dir(file), ".want-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(txtar.Format(a)); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
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
