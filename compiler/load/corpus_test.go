package load_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/load"
)

// badCase is one broken input of testdata/bad, expanded into a directory.
//
// Each testdata/bad/NAME.txtar holds the files of one input. Its comment
// starts with a line saying what is broken and may add directives:
//
//	arg: REL     the argument passed to boardc, relative to the expanded
//	             directory (default: the directory itself)
//	chmod: FILE MODE
//	             the file's mode after expansion, in octal
//	want: path   the error is about the path itself (no line is known)
type badCase struct {
	name string
	arg  string // the argument, relative to the working directory
	// path says the error has no line: the input has no file to point
	// into, or the path itself is wrong.
	path bool
	// skip is why the case cannot run here, if it cannot.
	skip string
}

// expandBad expands testdata/bad/NAME.txtar under root/NAME. Paths are
// relative to root, which the caller makes the working directory.
func expandBad(t *testing.T, file, root string) badCase {
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
	for _, f := range a.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := badCase{name: name, arg: name}
	// A directory with no file to point into has no line either.
	c.path = !hasCUE(a)
	sc := bufio.NewScanner(bytes.NewReader(a.Comment))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ": ")
		if !ok || strings.HasPrefix(key, "#") {
			continue
		}
		switch key {
		case "arg":
			c.arg = filepath.Join(name, filepath.FromSlash(val))
		case "want":
			c.path = val == "path"
		case "chmod":
			f, m, _ := strings.Cut(val, " ")
			mode, err := strconv.ParseUint(m, 8, 32)
			if err != nil {
				t.Fatalf("%s: chmod: %v", file, err)
			}
			if os.Geteuid() == 0 {
				c.skip = "running as root: chmod does not stop root from reading"
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

func hasCUE(a *txtar.Archive) bool {
	for _, f := range a.Files {
		if strings.HasSuffix(f.Name, ".cue") && !strings.HasPrefix(f.Name, "cue.mod/") {
			return true
		}
	}
	return false
}

// TestBadCorpus loads every broken input of testdata/bad: each must yield
// no board, at least one error diagnostic, every diagnostic positioned in
// a file (with a line whenever the input has a file to point into), and no
// panic.
func TestBadCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/bad/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 40 {
		t.Fatalf("corpus has %d cases, want at least 40", len(files))
	}
	root := t.TempDir()
	var cases []badCase
	for _, f := range files {
		cases = append(cases, expandBad(t, f, root))
	}
	t.Chdir(root)
	// Loading offline: a missing module must fail, not be fetched.
	t.Setenv("CUE_REGISTRY", "none")
	l, err := load.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.skip != "" {
				t.Skip(c.skip)
			}
			b, ds := loadNoPanic(t, l, c.arg)
			if b != nil {
				t.Fatalf("loaded a board from a broken input; diagnostics:\n%s", text(ds))
			}
			if !ds.HasErrors() {
				t.Fatalf("no error diagnostic:\n%s", text(ds))
			}
			t.Logf("%s", text(ds))
			for _, d := range ds {
				if d.Pos.File == "" {
					t.Errorf("diagnostic without a file: %s", d)
				}
				if !c.path && d.Pos.Line <= 0 {
					t.Errorf("diagnostic without a line: %s", d)
				}
				if d.Code == "" || d.Message == "" {
					t.Errorf("diagnostic without a code or message: %s", d)
				}
			}
		})
	}
}

func loadNoPanic(t *testing.T, l *load.Loader, arg string) (b any, ds diag.List) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panic loading %s: %v", arg, r)
		}
	}()
	board, ds := l.Load(arg)
	if board != nil {
		return board, ds
	}
	return nil, ds
}

func text(ds diag.List) string {
	var b strings.Builder
	ds.WriteText(&b)
	return b.String()
}
