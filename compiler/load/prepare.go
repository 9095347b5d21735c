package load

import (
	"crypto/sha256"
	"maps"
	"os"
	"path/filepath"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/load"
)

// Prepare loads the CUE packages of the board directories among paths
// that a later Load, LoadPartial or Evaluate will ask for, one cue/load
// call per CUE module. Boards of one module then share the instances of
// the packages they import: an SoC package is read, parsed and built once
// in the Loader's context for all its boards, where a board loaded on its
// own reads, parses and builds its SoC again (a BSP of 54 boards on one
// SoC spent about a third of its CPU there; BENCHMARKS.md). A path that
// is a file, outside a CUE module, or whose inputs or package are in
// error is left to be loaded on its own, so that its diagnostics are
// exactly those of a board loaded alone. Preparing changes no result; an
// instance prepared and never asked for is dropped by the next Prepare.
func (l *Loader) Prepare(paths []string) {
	l.prepared, l.socs, l.sharableSoCs, l.sums = map[string]*build.Instance{}, nil, nil, map[string][sha256.Size]byte{}
	byRoot := map[string][]string{}
	var roots []string
	for _, path := range paths {
		abs, err := filepath.Abs(path)
		if err != nil {
			continue
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() || noCUEFiles(path, abs) != "" {
			continue
		}
		root := moduleRoot(abs)
		if rel, err := filepath.Rel(root, abs); root == "" || err != nil || rel == "." || !filepath.IsLocal(rel) {
			continue
		}
		if _, ok := byRoot[root]; !ok {
			roots = append(roots, root)
		}
		byRoot[root] = append(byRoot[root], abs)
	}
	for _, root := range roots {
		if len(byRoot[root]) < 2 {
			continue // nothing to share
		}
		c := newInputChecker(root)
		c.parsed = map[string]*ast.File{}
		var args []string
		for _, abs := range byRoot[root] {
			if file, _ := c.check(abs); file != "" || packagePathProblem(root, abs) != "" {
				continue
			}
			rel, _ := filepath.Rel(root, abs)
			arg := "./" + filepath.ToSlash(rel)
			if pkg := c.packageOf(abs); pkg != "" {
				arg += ":" + pkg
			}
			args = append(args, arg)
		}
		if len(args) < 2 {
			continue
		}
		// What the check read goes to cue/load, which then neither
		// reads nor parses it again (it parsed each file twice, a tenth
		// of a BSP's CPU, and read each board's directory three times).
		insts := load.Instances(args, &load.Config{Dir: root, Registry: registry(), FS: checkedFS{c}, ParseFile: c.parseFile})
		maps.Copy(l.sums, c.sums)
		if len(insts) != len(args) {
			continue
		}
		for _, inst := range insts {
			if inst.Err == nil && hasNoErrors(inst) {
				l.prepared[inst.Dir] = inst
			}
		}
	}
}

// hasNoErrors reports whether neither inst nor a package it imports, at any
// depth, failed to load.
func hasNoErrors(inst *build.Instance) bool {
	for _, i := range instances(inst) {
		if i.Err != nil || len(i.Files) == 0 {
			return false
		}
	}
	return true
}

// takePrepared returns the instance Prepare loaded for the directory abs
// and forgets it, or nil.
func (l *Loader) takePrepared(abs string) *build.Instance {
	inst := l.prepared[abs]
	if inst != nil {
		delete(l.prepared, abs)
	}
	return inst
}
