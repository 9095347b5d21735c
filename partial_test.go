package boardc_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/check"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/kernel"
)

// TestPartialBoards compiles every in-tree board with one line of its
// board.cue or of its SoC's file left out, or with a value of the wrong
// type on that line: a table of partial boards (a field, an element or a
// closing brace missing, a field wrong) that the line structure of real
// descriptions gives. Whatever is missing, compiling
// must not panic; a board with errors yields no files and no board; every
// diagnostic is positioned in a file; when checks ran on a partial board,
// every check without a base tree either ran or was skipped, and its
// findings are findings of the whole board too. Some of the
// partial boards must reach the checks, and at least one must report a
// check's finding beside the loader's errors: a missing fact does not
// hide the others.
func TestPartialBoards(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	c, err := boardc.New()
	if err != nil {
		t.Fatal(err)
	}
	all := 0
	for _, ck := range check.All() {
		if !ck.NeedsBase && (!ck.NeedsKernel || kernel.Default() != "") {
			all++
		}
	}
	var partial, findings int
	for _, bc := range []struct{ board, soc string }{
		{"espressobin", "armada37xx"},
		{"ls2088a-rdb", "ls2088a"},
		{"mirabox", "armada370"},
		{"qemu-virt", "qemuvirt"},
	} {
		mod := t.TempDir()
		copyFile(t, filepath.Join("boards", "cue.mod", "module.cue"), filepath.Join(mod, "cue.mod", "module.cue"))
		files := []string{filepath.Join(bc.board, "board.cue"), filepath.Join("soc", bc.soc, bc.soc+".cue")}
		for _, f := range files {
			copyFile(t, filepath.Join("boards", f), filepath.Join(mod, f))
		}
		dir := filepath.Join(mod, bc.board)
		// What the whole board reports: a partial board may report
		// less, never a finding of its own.
		whole := map[string]bool{}
		for _, d := range compileNoPanic(t, c, dir, bc.board).Diagnostics {
			whole[key(d)] = true
		}
		step := 1
		if testing.Short() {
			step = 5
		}
		for _, f := range files {
			path := filepath.Join(mod, f)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(string(src), "\n")
			var variants []variant
			for i := 0; i < len(lines); i += step {
				if strings.TrimSpace(lines[i]) == "" || strings.HasPrefix(strings.TrimSpace(lines[i]), "//") {
					continue
				}
				variants = append(variants, variant{f + ":" + itoa(i+1) + " left out",
					strings.Join(slices.Delete(slices.Clone(lines), i, i+1), "")})
				// A value of the wrong type: a string for a number,
				// a number for a string.
				if l := retype(lines[i]); l != lines[i] {
					variants = append(variants, variant{f + ":" + itoa(i+1) + " retyped",
						strings.Join(slices.Replace(slices.Clone(lines), i, i+1, l), "")})
				}
			}
			for _, v := range variants {
				if err := os.WriteFile(path, []byte(v.src), 0o644); err != nil {
					t.Fatal(err)
				}
				what := v.what
				r := compileNoPanic(t, c, dir, what)
				if !r.Diagnostics.HasErrors() {
					continue
				}
				if len(r.Files) > 0 || r.Manifest != nil {
					t.Errorf("%s: errors, and %d files:\n%s", what, len(r.Files), text(r))
				}
				for _, d := range r.Diagnostics {
					if d.Pos.File == "" {
						t.Errorf("%s: diagnostic without a file: %s", what, d)
					}
				}
				loaderErr := slices.ContainsFunc(r.Diagnostics, func(d diag.Diagnostic) bool { return isLoaderCode(d.Code) })
				if r.Board != nil && loaderErr {
					t.Errorf("%s: the loader's errors, and a board:\n%s", what, text(r))
				}
				if len(r.Checks) == 0 || !loaderErr {
					continue
				}
				partial++
				if n := len(r.Checks) + len(r.Skipped); n != all {
					t.Errorf("%s: %d checks ran and %d were skipped, want %d in all", what, len(r.Checks), len(r.Skipped), all)
				}
				for _, d := range r.Diagnostics {
					if !isLoaderCode(d.Code) && !whole[key(d)] {
						t.Errorf("%s: a finding the whole board does not have: %s", what, d)
					}
				}
				if slices.ContainsFunc(r.Diagnostics, func(d diag.Diagnostic) bool { return !isLoaderCode(d.Code) }) {
					findings++
				}
			}
			if err := os.WriteFile(path, src, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if partial == 0 || findings == 0 {
		t.Errorf("%d partial boards reached the checks, %d with a check's finding; want some of each", partial, findings)
	}
	t.Logf("%d partial boards reached the checks, %d with a check's finding", partial, findings)
}

// variant is a description with one line changed.
type variant struct{ what, src string }

var (
	number = regexp.MustCompile(`: ([0-9][0-9a-fx_]*)`)
	str    = regexp.MustCompile(`: "[^"]*"`)
)

// retype gives the first number of line, or else its first string, a
// value of the other type.
func retype(line string) string {
	if loc := number.FindStringIndex(line); loc != nil {
		return line[:loc[0]] + `: "x"` + line[loc[1]:]
	}
	if loc := str.FindStringIndex(line); loc != nil {
		return line[:loc[0]] + ": 7" + line[loc[1]:]
	}
	return line
}

// key identifies a finding by what it says and where, whichever lines
// were left out around it.
func key(d diag.Diagnostic) string { return d.Code + " " + string(d.Ref) + " " + d.Message }

// isLoaderCode reports whether code is one of the loader's.
func isLoaderCode(code string) bool {
	return slices.ContainsFunc(diag.Loader(), func(c diag.Code) bool { return c.ID == code })
}

func compileNoPanic(t *testing.T, c *boardc.Compiler, dir, what string) (r *boardc.Result) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("%s: panic: %v", what, p)
		}
	}()
	return c.Compile(dir, boardc.Options{})
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
