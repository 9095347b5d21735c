package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// The broken inputs of the loader's corpus; see
// compiler/load/corpus_test.go for the format of each file.
const badCorpus = "../../compiler/load/testdata/bad"

var (
	// positioned is a diagnostic pointing into a file.
	positioned = regexp.MustCompile(`(?m)^[^\s:]+:\d+:\d+: error: .+ \[BC\d{4}\]$`)
	// pathError is a diagnostic about a path that cannot be used.
	pathError = regexp.MustCompile(`(?m)^[^\s:]+: error: .+ \[BC\d{4}\]$`)
)

// TestBadCorpusCLI builds every broken input of the loader's corpus: exit
// 1, a diagnostic in the text form pointing into the input (or at the path
// for path errors), no panic and nothing written.
func TestBadCorpusCLI(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(badCorpus, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 40 {
		t.Fatalf("corpus has %d cases, want at least 40", len(files))
	}
	root := t.TempDir()
	var cases []cliCase
	for _, f := range files {
		cases = append(cases, expandCLICase(t, f, root))
	}
	t.Chdir(root)
	t.Setenv("CUE_REGISTRY", "none") // offline: a missing module fails, never fetched
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.skip != "" {
				t.Skip(c.skip)
			}
			out := filepath.Join(root, "out-"+c.name)
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := runWith([]string{"build", "-o", out, c.arg}, &stdout, &stderr)
			errs := stderr.String()
			t.Logf("stderr:\n%s", errs)
			if code != exitDiags {
				t.Errorf("exit %d, want %d", code, exitDiags)
			}
			want := positioned
			if c.path {
				want = pathError
			}
			if !want.MatchString(errs) {
				t.Errorf("stderr has no line matching %s", want)
			}
			if strings.Contains(errs, "goroutine ") || strings.Contains(errs, "panic:") {
				t.Errorf("stderr shows a panic")
			}
			if entries, err := os.ReadDir(out); err != nil || len(entries) > 0 {
				t.Errorf("output directory: %d entries, error %v; want it empty", len(entries), err)
			}
		})
	}
}

// cliCase is one expanded input of the corpus.
type cliCase struct {
	name, arg string
	path      bool   // the diagnostic names a path, with no line
	skip      string // why the case cannot run here
}

// expandCLICase expands one corpus file under root/NAME and reads its
// directives (arg, chmod, want).
func expandCLICase(t *testing.T, file, root string) cliCase {
	t.Helper()
	a, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimSuffix(filepath.Base(file), ".txtar")
	dir := filepath.Join(root, name)
	c := cliCase{name: name, arg: name, path: true}
	for _, f := range a.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f.Name, ".cue") && !strings.HasPrefix(f.Name, "cue.mod/") {
			c.path = false
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
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
