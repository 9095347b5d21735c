// Package load reads a board description written in CUE, unifies it with the
// embedded schema in one evaluation, and lowers it to the IR. It is the only
// package of boardc that imports cuelang.org/go.
package load

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/load"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/schema"
)

// Loader loads board descriptions. It prepares the embedded schema once;
// a Loader is not safe for concurrent use (one per goroutine).
type Loader struct {
	schema *injected // the schema, as built into descriptions
	wd     string

	// The CUE context of the builds, the schema compiled in it as their
	// scope (schemaName), #Board as written if a failed build needed it
	// (see positioned), and how many bytes of CUE source were built in the
	// context; see contextBudget.
	ctx   *cue.Context
	scope cue.Value
	board cue.Value
	built int
}

// contextBudget is how many bytes of CUE source a Loader's builds share a
// CUE context for. A context keeps every instance built in it, with its
// files and its evaluated value (about 100 bytes for a byte of source), as
// long as it lives: cuelang.org/go/internal/core/runtime indexes each
// built instance and its value, and nothing removes them (cue-lang/cue#2121,
// where CUE's maintainers describe it). Past the budget the Loader lets its
// context go and the next build has a new one, which costs that build 2 to
// 3 ms: the schema compiled in it again and CUE's tables rebuilt
// (BENCHMARKS.md). A larger description has a context of its own.
const contextBudget = 64 << 10

// New returns a Loader with the embedded schema prepared.
func New() (*Loader, error) {
	inj, err := newInjected()
	if err != nil {
		return nil, err
	}
	wd, _ := os.Getwd()
	l := &Loader{schema: inj, wd: wd}
	if _, _, err := l.context(); err != nil {
		return nil, err
	}
	return l, nil
}

// context returns the CUE context of the next build and the scope compiled
// in it, making them if the last build spent the budget.
func (l *Loader) context() (*cue.Context, cue.Value, error) {
	if l.ctx == nil {
		ctx := cuecontext.New()
		scope, err := l.schema.scope(ctx)
		if err != nil {
			return nil, cue.Value{}, err
		}
		l.ctx, l.scope, l.board, l.built = ctx, scope, cue.Value{}, 0
	}
	return l.ctx, l.scope, nil
}

// spend counts the source of inst, and of the packages it imports, as
// built in the Loader's context, and lets the context go once it has
// built contextBudget bytes.
func (l *Loader) spend(inst *build.Instance) {
	for _, i := range instances(inst) {
		for _, f := range i.Files {
			if tf := f.Pos().File(); tf != nil {
				l.built += tf.Size()
			}
		}
	}
	if l.built >= contextBudget {
		l.ctx, l.scope, l.board = nil, cue.Value{}, cue.Value{}
	}
}

// positioned returns #Board as the schema is written, with its positions,
// compiled in the Loader's context, for explaining a failed build. It is
// compiled on first use: a build that succeeds never needs it.
func (l *Loader) positioned() (*cue.Context, cue.Value, error) {
	ctx, _, err := l.context()
	if err != nil {
		return nil, cue.Value{}, err
	}
	if !l.board.Exists() {
		s := ctx.CompileBytes(schema.Source, cue.Filename(schema.Filename))
		if err := s.Err(); err != nil {
			return nil, cue.Value{}, fmt.Errorf("compiling embedded schema: %v", err)
		}
		l.board = s.LookupPath(cue.MakePath(cue.Def("Board")))
	}
	return ctx, l.board, nil
}

// Load loads the board described by path, a directory holding a CUE package
// or a single .cue file. It returns the lowered board, or nil and at least
// one error diagnostic. It is Evaluate followed by Lower.
func (l *Loader) Load(path string) (*ir.Board, diag.List) {
	e, ds := l.Evaluate(path)
	if e == nil {
		return nil, ds
	}
	return l.Lower(e)
}

// Evaluated is a description loaded, built under the schema and validated,
// ready to be lowered.
type Evaluated struct {
	inst *build.Instance
	v    cue.Value
	pos  *positions
}

// Evaluate loads the CUE package at path (as Load does), builds it under
// the schema and validates the result. It returns nil and at least one
// error diagnostic when any of these fails.
//
// The schema is built into the package itself (see newInjected), so the
// description is evaluated once. When that fails, explain evaluates it
// again the way `cue vet` would, the description alone and then unified
// with the positioned schema, to report each error at the user's position
// with the schema's constraint as a note.
func (l *Loader) Evaluate(path string) (*Evaluated, diag.List) {
	inst, p, ds := l.instance(path)
	if inst == nil {
		return nil, ds
	}
	v, err := l.build(inst)
	if err != nil {
		if ds := l.explain(path); len(ds) > 0 {
			return nil, ds
		}
		return nil, p.fromCUE(err, cue.Value{}, diag.Schema.ID)
	}
	return &Evaluated{inst: inst, v: v, pos: p}, nil
}

// build adds #Board's fields to inst's package, builds it with the
// schema in scope and validates the result: the description is valid
// exactly when it returns no error.
func (l *Loader) build(inst *build.Instance) (cue.Value, error) {
	// schemaName resolves in the scope for every package of the build,
	// the user's and the ones they import: a reference to it from their
	// files is an error, as it is to cue.
	if refersTo(inst, schemaName) {
		return cue.Value{}, fmt.Errorf("reference %q not found", schemaName)
	}
	if err := inst.AddSyntax(l.schema.file(inst.PkgName)); err != nil {
		return cue.Value{}, err
	}
	ctx, scope, err := l.context()
	if err != nil {
		return cue.Value{}, err
	}
	v := ctx.BuildInstance(inst, cue.Scope(scope))
	l.spend(inst)
	if err := v.Err(); err != nil {
		return v, err
	}
	if err := v.Validate(cue.Concrete(true), cue.Final()); err != nil {
		return v, err
	}
	it, err := v.Fields()
	if err != nil {
		return v, err
	}
	for it.Next() {
		if name := it.Selector().Unquoted(); !l.schema.names[name] {
			return v, notAllowed(name)
		}
	}
	return v, nil
}

// refersTo reports whether a file of inst or of a package it imports,
// directly or not, has a reference to name that its package leaves
// unresolved (cue/load resolves a package's files together): a reference
// CUE would resolve in the build's scope.
func refersTo(inst *build.Instance, name string) bool {
	for _, i := range instances(inst) {
		for _, f := range i.Files {
			for _, id := range f.Unresolved {
				if id.Name == name {
					return true
				}
			}
		}
	}
	return false
}

// explain evaluates the description at path as two values, the user's own
// and its unification with the positioned #Board, and returns the errors
// of the first that fails, positioned in the user's files.
func (l *Loader) explain(path string) diag.List {
	inst, p, ds := l.instance(path)
	if inst == nil {
		return ds
	}
	ctx, board, err := l.positioned()
	if err != nil {
		return l.pathError(path, err.Error())
	}
	data := ctx.BuildInstance(inst)
	l.spend(inst)
	if err := data.Err(); err != nil {
		return p.fromCUE(err, cue.Value{}, diag.Parse.ID)
	}
	v := data.Unify(board)
	if err := v.Validate(cue.Concrete(true), cue.Final()); err != nil {
		return p.fromCUE(err, data, diag.Schema.ID)
	}
	return nil
}

// instance loads the CUE package at path. It returns nil and at least one
// error diagnostic when the package cannot be loaded.
func (l *Loader) instance(path string) (*build.Instance, *positions, diag.List) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, nil, l.pathError(path, err.Error())
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, nil, l.pathError(path, describeStatErr(err))
	}
	cfg := &load.Config{Dir: abs, Registry: registry()}
	arg := "."
	if !fi.IsDir() {
		if filepath.Ext(abs) != ".cue" {
			return nil, nil, l.pathError(path, "not a .cue file or a directory")
		}
		cfg.Dir, arg = filepath.Dir(abs), abs
	}
	insts := load.Instances([]string{arg}, cfg)
	if len(insts) != 1 {
		return nil, nil, l.pathError(path, "expected one CUE package")
	}
	inst := insts[0]
	root := inst.Root
	if !fi.IsDir() {
		// A file on its own loads with the file's directory as its root;
		// positions are relative to the module root all the same, so
		// that dir and dir/board.cue give the same bytes.
		if r := moduleRoot(cfg.Dir); r != "" {
			root = r
		}
	}
	p := &positions{wd: l.wd, root: root, dir: cfg.Dir}
	if inst.Err != nil {
		return nil, nil, p.fromCUE(inst.Err, cue.Value{}, diag.Parse.ID)
	}
	return inst, p, nil
}

// moduleRoot returns the nearest directory at or above dir holding a
// cue.mod directory, or "".
func moduleRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(d, "cue.mod")); err == nil && fi.IsDir() {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// Lower turns an evaluated description into the IR, resolving references
// between its parts. It returns nil and at least one error diagnostic when
// a reference is to something the description does not declare. Lowering
// does not change e; it may be lowered again.
func (l *Loader) Lower(e *Evaluated) (*ir.Board, diag.List) {
	p := e.pos
	lw := &lowerer{pos: p}
	b := lw.board(node{v: e.v, pos: p, fallback: p.dirPos()})
	if len(lw.diags) > 0 {
		return nil, lw.diags
	}
	b.Sources = sources(e.inst)
	for _, f := range b.Sources {
		b.SourcesRel = append(b.SourcesRel, p.convert(f, 0, 0).Src)
	}
	sort.Strings(b.SourcesRel)
	return b, nil
}

func (l *Loader) pathError(path, msg string) diag.List {
	return diag.List{{
		Pos:      ir.Pos{File: path, Src: path},
		Severity: diag.Error,
		Code:     diag.Parse.ID,
		Message:  msg,
	}}
}

func describeStatErr(err error) string {
	switch {
	case os.IsNotExist(err):
		return "no such file or directory"
	case os.IsPermission(err):
		return "permission denied"
	}
	return err.Error()
}

// sources lists the CUE files of the instance and of every package it
// imports from the module (not the standard library), sorted, for
// dependency files.
func sources(inst *build.Instance) []string {
	seen := map[string]bool{}
	for _, i := range instances(inst) {
		for _, f := range i.BuildFiles {
			seen[f.Filename] = true
		}
	}
	out := make([]string, 0, len(seen))
	for f := range seen {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// instances returns inst and every package it imports, directly or not,
// each once.
func instances(inst *build.Instance) []*build.Instance {
	var out []*build.Instance
	seen := map[*build.Instance]bool{}
	var walk func(*build.Instance)
	walk = func(i *build.Instance) {
		if seen[i] {
			return
		}
		seen[i] = true
		out = append(out, i)
		for _, imp := range i.Imports {
			walk(imp)
		}
	}
	walk(inst)
	return out
}
