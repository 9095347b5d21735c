package load

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeTree writes files, by slash path, below dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFindBoards checks what makes a directory a board: both top-level
// regular fields between its files, however CUE spells them, and not a
// field of a struct, an optional or required field, or text in a string
// or comment; and which directories are not searched.
func TestFindBoards(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"cue.mod/module.cue":   "module: \"example.com/b@v0\"\nlanguage: version: \"v0.17.0\"\n",
		"plain/board.cue":      "package plain\n\nname: \"plain\"\nsoc: {}\n",
		"split/a.cue":          "package split\n\nname: \"split\"\n",
		"split/b.cue":          "package split\n\nsoc: {}\n",
		"quoted/board.cue":     "package quoted\n\n\"name\": \"q\"\n  soc:   {}\n",
		"broken/board.cue":     "package broken\n\nname: \"broken\"\nsoc: {\n\tx: [\n}\n",
		"soc/x/x.cue":          "package x\n\nsoc: {name: \"x\"}\n",
		"nested/board.cue":     "package nested\n\nboard: {\nname: \"n\"\nsoc: {}\n}\n",
		"optional/board.cue":   "package optional\n\nname?: string\nsoc!: {}\n",
		"text/board.cue":       "package text\n\n// name: \"t\"\nx: \"\"\"\nsoc: {}\n\"\"\"\nname: \"t\"\n",
		"plain/testdata/b.cue": "name: \"t\"\nsoc: {}\n",
		"plain/expected/b.cue": "name: \"t\"\nsoc: {}\n",
		"_hidden/b.cue":        "name: \"t\"\nsoc: {}\n",
		".dot/b.cue":           "name: \"t\"\nsoc: {}\n",
		"cue.mod/pkg/b/b.cue":  "name: \"t\"\nsoc: {}\n",
	})
	got, err := FindBoards(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i] = filepath.ToSlash(strings.TrimPrefix(got[i], dir+string(filepath.Separator)))
	}
	if diff := cmp.Diff([]string{"broken", "plain", "quoted", "split"}, got); diff != "" {
		t.Errorf("FindBoards (-want +got):\n%s", diff)
	}
	// The root itself is searched, whatever its name.
	if got, err := FindBoards(filepath.Join(dir, "plain", "testdata")); err != nil || len(got) != 1 {
		t.Errorf("FindBoards of a testdata root: %q, %v", got, err)
	}
}

// TestModulePath checks the module path read from cue.mod/module.cue,
// without its major version, and the errors of a missing, invalid or
// pathless module file.
func TestModulePath(t *testing.T) {
	for _, tc := range []struct {
		module, want, err string
	}{
		{"module: \"example.com/boards@v0\"\nlanguage: version: \"v0.17.0\"\n", "example.com/boards", ""},
		{"module: \"example.com/boards@v2\"\nlanguage: version: \"v0.17.0\"\n", "example.com/boards", ""},
		{"module: \"example.com/boards\"\nlanguage: version: \"v0.17.0\"\n", "example.com/boards", ""},
		{"// the module\nlanguage: version: \"v0.17.0\"\nmodule:   \"a.b/c@v0\"\n", "a.b/c", ""},
		{"language: version: \"v0.17.0\"\n", "", "empty module path"},
		{"module: \"example.com/boards@v0\"\nlanguage: {\n", "", "expected '}'"},
	} {
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{ModuleFile: tc.module})
		got, err := ModulePath(dir)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ModulePath of %q = %q, %v; want %q, error containing %q", tc.module, got, err, tc.want, tc.err)
		}
	}
	if _, err := ModulePath(t.TempDir()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ModulePath without a module file: %v, want fs.ErrNotExist", err)
	}
}

// TestFindModuleFile checks that the module file of the nearest module
// above a file is found, and none outside a module.
func TestFindModuleFile(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		ModuleFile:        "module: \"a.b/c@v0\"\nlanguage: version: \"v0.17.0\"\n",
		"x/y/board.cue":   "package y\n",
		"x/" + ModuleFile: "module: \"a.b/d@v0\"\nlanguage: version: \"v0.17.0\"\n",
		"z/board.cue":     "package z\n",
	})
	for file, want := range map[string]string{
		"x/y/board.cue": "x/" + ModuleFile,
		"z/board.cue":   ModuleFile,
	} {
		got := FindModuleFile(filepath.Join(dir, filepath.FromSlash(file)))
		if got != filepath.Join(dir, filepath.FromSlash(want)) {
			t.Errorf("FindModuleFile(%s) = %s, want %s", file, got, want)
		}
	}
}
