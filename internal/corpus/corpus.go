// Package corpus reads the test case corpora: the loader's broken inputs
// (compiler/load/testdata/bad), which the loader's and the CLI's tests
// feed them, and the compiler's end-to-end cases (testdata/cases). One
// format serves both: a case is a folder where it expects outputs, a
// txtar file otherwise.
//
// A folder NAME/ holds a CUE module (cue.mod/module.cue) whose root
// package is the board, its other inputs (base.dts, the tree the
// base-tree checks compare with), the files the board generates in
// expected/, and its diagnostics in want.diag, absent when it has none.
//
// A file NAME.txtar holds the input's files, expanded into a directory of
// their own, and a want.diag section, which is not expanded, holding the
// diagnostics. Its comment starts with a line saying what the case is
// about (lines starting with # are comment) and may add directives:
//
//	arg: REL     the argument passed to boardc, relative to the expanded
//	             directory (default: the directory itself)
//	chmod: FILE MODE
//	             the file's mode after expansion, in octal
//	want: path   the error is about the path itself (no line is known)
//
// Diagnostics are in the text form `boardc vet` prints (without the count
// of errors and warnings), as read from the case's directory: paths are
// relative to it. BOARDC_UPDATE=1 rewrites them with the diagnostics the
// test got.
package corpus

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"boardc.dev/boardc/internal/golden"
)

// WantFile is the name of the section, or of a folder's file, holding a
// case's expected diagnostics.
const WantFile = "want.diag"

// ExpectedDir is the folder of a case's expected outputs.
const ExpectedDir = "expected"

// MinCases is the least number of inputs the loader's corpus holds.
const MinCases = 40

// Case is one case, a folder or a txtar file expanded into a directory.
type Case struct {
	Name string
	// File is the absolute path of the case's txtar file or folder.
	File string
	// Dir is the absolute path of the directory holding the case's
	// inputs: its folder, or the directory its txtar file is expanded
	// into. The expected diagnostics are those read with Dir as the
	// working directory.
	Dir string
	// Arg is the argument to load, relative to the expansion root (for a
	// folder, relative to the corpus).
	Arg string
	// Rel is the argument to load, relative to Dir.
	Rel string
	// Expected is the absolute path of a folder case's expected outputs,
	// "" for a txtar case, which expects none.
	Expected string
	// Want is the case's expected diagnostics; HasWant says whether it
	// has a want.diag.
	Want    string
	HasWant bool
	// Path says the error has no line: the input has no file to point
	// into, or the path itself is wrong.
	Path bool
	// Skip is why the case cannot run here, if it cannot.
	Skip string
}

// Expand returns every case of the corpus dir, sorted by name: its
// folders as they are, its txtar files expanded under root (root/NAME
// each). Paths are relative to root, which the caller makes the working
// directory. A folder without expected outputs is refused: such a case
// is a txtar file.
func Expand(t testing.TB, dir, root string) []Case {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []Case
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
			out = append(out, folder(t, p))
		case strings.HasSuffix(e.Name(), ".txtar"):
			out = append(out, expand(t, p, root))
		}
	}
	if len(out) == 0 {
		t.Fatalf("corpus %s has no case", dir)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// folder reads the case in the folder dir.
func folder(t testing.TB, dir string) Case {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(abs)
	c := Case{Name: name, File: abs, Dir: abs, Arg: name, Rel: ".", Expected: filepath.Join(abs, ExpectedDir)}
	if fi, err := os.Stat(c.Expected); err != nil || !fi.IsDir() {
		t.Fatalf("case %s has no %s/ folder: a case that expects no outputs is a txtar file, %s.txtar", abs, ExpectedDir, name)
	}
	if _, err := os.Stat(filepath.Join(abs, "cue.mod", "module.cue")); err != nil {
		t.Fatalf("case %s: no CUE module: %v", abs, err)
	}
	want, err := os.ReadFile(filepath.Join(abs, WantFile))
	switch {
	case err == nil:
		c.Want, c.HasWant = string(want), true
	case !errors.Is(err, fs.ErrNotExist):
		t.Fatal(err)
	}
	return c
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
// its want.diag and reports the difference as (-want +got). A folder case
// with no diagnostics has no want.diag; a txtar case has diagnostics. With
// BOARDC_UPDATE=1 it rewrites the want.diag instead.
func (c Case) Check(t testing.TB, got string) {
	t.Helper()
	if golden.Update() {
		if got == c.Want && (c.HasWant || got == "") {
			return
		}
		if err := c.setWant(got); err != nil {
			t.Fatal(err)
		}
		return
	}
	switch {
	case c.Want == got:
		if got == "" && c.Expected == "" {
			t.Errorf("%s has no %s section or an empty one, and the case gave no diagnostic", c.File, WantFile)
		}
	case c.Want == "":
		// cmp.Diff would shorten the lines of got.
		t.Errorf("no diagnostics expected (%s has no %s or an empty one; run with BOARDC_UPDATE=1 to write it), got:\n%s", c.File, WantFile, got)
	default:
		t.Errorf("diagnostics differ from %s of %s (-want +got):\n%s", WantFile, c.File, cmp.Diff(c.Want, got))
	}
}

// setWant writes want as the case's want.diag: a folder's file, removed
// when want is empty, or a txtar file's last section.
func (c Case) setWant(want string) error {
	if c.Expected != "" {
		p := filepath.Join(c.File, WantFile)
		if want == "" {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			return nil
		}
		return writeFile(p, []byte(want))
	}
	a, err := txtar.ParseFile(c.File)
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
	return writeFile(c.File, txtar.Format(a))
}

// writeFile replaces file with data by a rename, so that a test reading
// it meanwhile (the loader's and the CLI's tests update the same files)
// reads it whole.
func writeFile(file string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), ".want-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
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

// FuzzSeeds returns the CUE files of every txtar case of the corpus in
// dir (not those under cue.mod/) and those of the in-tree boards and SoCs
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
