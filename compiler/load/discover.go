package load

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"
	"cuelang.org/go/mod/modfile"
)

// ModuleFile is where a CUE module's root holds its module file.
const ModuleFile = "cue.mod/module.cue"

// FindBoards returns the board directories at or below root, sorted: the
// directories whose .cue files declare, between them, both top-level
// regular fields "name" and "soc". An SoC package declares "soc" but no
// top-level "name", so it is not a board. Directories named cue.mod,
// testdata or expected, and those starting with "." or "_", are not
// searched (root itself always is).
func FindBoards(root string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if path != root {
			if skipDir(d.Name()) {
				return filepath.SkipDir
			}
		}
		ok, err := isBoardDir(path)
		if err != nil {
			return err
		}
		if ok {
			dirs = append(dirs, path)
		}
		return nil
	})
	sort.Strings(dirs)
	return dirs, err
}

// isBoardDir reports whether dir's .cue files declare top-level "name"
// and "soc" fields.
func isBoardDir(dir string) (bool, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.cue"))
	if err != nil {
		return false, err
	}
	var name, soc bool
	for _, f := range files {
		if checkInput(f) != "" {
			continue // not read: loading the board, if it is one, says why
		}
		n, s, err := topLevelFields(f)
		if err != nil {
			return false, err
		}
		name, soc = name || n, soc || s
	}
	return name && soc, nil
}

// topLevelFields reports whether file declares the top-level regular
// fields "name" and "soc" (name: or "name":, not name?: or name!:). A file
// with a syntax error is judged by what CUE's parser recovers of it, so
// that such a board is still found, and loading it reports the error.
func topLevelFields(file string) (name, soc bool, err error) {
	f, err := parser.ParseFile(file, nil)
	if f == nil {
		return false, false, err
	}
	for _, d := range f.Decls {
		field, ok := d.(*ast.Field)
		if !ok || field.Constraint != token.ILLEGAL {
			continue
		}
		switch label, _, _ := ast.LabelName(field.Label); label {
		case "name":
			name = true
		case "soc":
			soc = true
		}
	}
	return name, soc, nil
}

// ModulePath returns the module path, without its major version, that the
// CUE module rooted at dir declares in its cue.mod/module.cue, as CUE's
// own parser of module files reads it. When dir has no module file, the
// error satisfies errors.Is(err, fs.ErrNotExist).
func ModulePath(dir string) (string, error) {
	m, err := moduleFile(dir)
	if err != nil {
		return "", err
	}
	path := m.ModuleRootPath()
	if path == "" {
		return "", fmt.Errorf("%s: no module path", filepath.Join(dir, filepath.FromSlash(ModuleFile)))
	}
	return path, nil
}

// moduleFile reads the module file of the CUE module rooted at dir as
// cue/load does with a registry (modfile.ParseNonStrict).
func moduleFile(dir string) (*modfile.File, error) {
	file := filepath.Join(dir, filepath.FromSlash(ModuleFile))
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return modfile.ParseNonStrict(data, file)
}

// FindModuleFile returns the cue.mod/module.cue of the CUE module holding
// file (the nearest directory above it that has one), or "" when there is
// none.
func FindModuleFile(file string) string {
	for d := filepath.Dir(file); ; d = filepath.Dir(d) {
		m := filepath.Join(d, filepath.FromSlash(ModuleFile))
		if _, err := os.Stat(m); err == nil {
			return m
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
