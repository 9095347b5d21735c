// Package load reads a board description written in CUE, unifies it with the
// embedded schema, and lowers it to the IR. It is the only package of boardc
// that imports cuelang.org/go.
package load

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/load"
	"cuelang.org/go/mod/module"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/schema"
)

// Loader loads board descriptions. It prepares the embedded schema once;
// a Loader is not safe for concurrent use (one per goroutine).
type Loader struct {
	wd string
	// schema is the embedded schema's syntax without positions; see
	// unpositioned.
	schema *ast.File

	// The CUE context of the builds, #Board compiled in it from schema,
	// #Board as written if a failed build needed it (see positionedBoard), and
	// how many bytes of CUE source were built in the context; see
	// contextBudget.
	ctx        *cue.Context
	board      cue.Value
	positioned cue.Value
	built      int

	// prepared are the instances Prepare loaded, by directory, and socs
	// the SoC packages their boards are on, lowered (loadOnSoC).
	prepared map[string]*build.Instance
	socs     map[*build.Instance]*socTemplate
	// sharableSoCs caches sharable, by SoC package.
	sharableSoCs map[*build.Instance]bool
	// shared are the templates shared with other Loaders
	// (ShareTemplates), and sums the digests of the files Prepare
	// parsed, by path, which key them.
	shared *Templates
	sums   map[string][sha256.Size]byte
	// socDef and masterDef are #SoC and #Master, compiled with board;
	// schemaValue is the whole schema, and scope #Board's fields to
	// build descriptions with (boardScope), made on first use.
	socDef, masterDef cue.Value
	schemaValue       cue.Value
	scope             *boardScope
	// syntax is what each context's scope is compiled from, made once.
	syntax *boardSyntax
	// unifyOnly, set by tests, makes Evaluate unify every description
	// with #Board, the reference evaluateInScope is checked against.
	unifyOnly bool
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
	f, err := unpositioned()
	if err != nil {
		return nil, err
	}
	wd, _ := os.Getwd()
	l := &Loader{wd: wd, schema: f}
	if _, _, err := l.context(); err != nil {
		return nil, err
	}
	return l, nil
}

// context returns the CUE context of the next build and #Board compiled
// in it without positions, making them if the last build spent the
// budget.
func (l *Loader) context() (*cue.Context, cue.Value, error) {
	if l.ctx == nil {
		ctx := cuecontext.New()
		s := ctx.BuildFile(l.schema)
		if err := s.Err(); err != nil {
			return nil, cue.Value{}, fmt.Errorf("compiling embedded schema: %v", err)
		}
		l.ctx, l.board, l.positioned, l.built = ctx, s.LookupPath(cue.MakePath(cue.Def("Board"))), cue.Value{}, 0
		l.socDef, l.masterDef = s.LookupPath(cue.MakePath(cue.Def("SoC"))), s.LookupPath(cue.MakePath(cue.Def("Master")))
		l.schemaValue, l.scope = s, nil
	}
	return l.ctx, l.board, nil
}

// positionedBoard returns #Board as the schema is written, with its
// positions, compiled in the Loader's context, for explaining a failed
// build. It is compiled on first use: a build that succeeds never needs
// it.
func (l *Loader) positionedBoard() (cue.Value, error) {
	ctx, _, err := l.context()
	if err != nil {
		return cue.Value{}, err
	}
	if !l.positioned.Exists() {
		s := ctx.CompileBytes(schema.Source, cue.Filename(schema.Filename))
		if err := s.Err(); err != nil {
			return cue.Value{}, fmt.Errorf("compiling embedded schema: %v", err)
		}
		l.positioned = s.LookupPath(cue.MakePath(cue.Def("Board")))
	}
	return l.positioned, nil
}

// spend counts the source of inst, and of the packages it imports, as
// built in the Loader's context, and lets the context go once it has
// built contextBudget bytes.
func (l *Loader) spend(inst *build.Instance) {
	for _, i := range instances(inst) {
		l.spendFiles(i)
	}
}

// spendFiles counts the source of inst's own files as built in the
// Loader's context, and lets the context go once it has built
// contextBudget bytes.
func (l *Loader) spendFiles(inst *build.Instance) {
	for _, f := range inst.Files {
		if tf := f.Pos().File(); tf != nil {
			l.built += tf.Size()
		}
	}
	if l.built >= contextBudget {
		l.ctx, l.board, l.positioned = nil, cue.Value{}, cue.Value{}
		l.socDef, l.masterDef, l.schemaValue, l.scope = cue.Value{}, cue.Value{}, cue.Value{}, nil
	}
}

// Load loads the board described by path, a directory holding a CUE package
// or a single .cue file. It returns the lowered board, or nil and at least
// one error diagnostic. It is LoadPartial without the partial board.
func (l *Loader) Load(path string) (*ir.Board, diag.List) {
	p := l.LoadPartial(path)
	if p.Board == nil || p.Diagnostics.HasErrors() {
		return nil, p.Diagnostics
	}
	return p.Board, p.Diagnostics
}

// Partial is a description lowered as far as its errors allow.
type Partial struct {
	// Board is the lowered board, nil when the description could not be
	// lowered at all (it does not parse, an error is not about one
	// element). It lacks the facts Missing names.
	Board *ir.Board
	// Diagnostics are every error found in the one pass: the schema's
	// (every missing, non-concrete, wrong or unknown field at once) and
	// lowering's (every undeclared reference, every master without DMA
	// widths).
	Diagnostics diag.List
	// Missing are the refs of the elements of Board that lack a fact,
	// sorted, each once: "memory" for a board without memory,
	// "soc.masters.eth0.dma" for a master without DMA widths. A check
	// that reads one of these facts must not run on Board.
	Missing []ir.Ref
	// OnSoC is true when the board was loaded on its SoC evaluated and
	// lowered once for every board prepared with it (Prepare, and the
	// board of the shape onSoC); the result is the same either way.
	OnSoC bool
}

// LoadPartial is Evaluate followed by Lower, for a description whose
// errors are confined to some of its elements too: a field missing, not
// concrete, wrong or unknown, a reference to a bus the SoC does not
// declare, a master without DMA widths. Such a description is lowered all the same, the
// elements concerned recorded in Missing, so that the checks that do not
// read those facts can run on the rest. Any other error leaves Board nil.
func (l *Loader) LoadPartial(path string) Partial {
	if p, ok := l.loadOnSoC(path); ok {
		return p
	}
	e, ds := l.Evaluate(path)
	if e == nil {
		return Partial{Diagnostics: ds}
	}
	b, lds, missing := l.lower(e)
	ds = append(ds, lds...)
	ds.Sort()
	return Partial{Board: b, Diagnostics: ds, Missing: missing}
}

// Evaluated is a description loaded, unified with the schema and
// validated, ready to be lowered.
type Evaluated struct {
	inst *build.Instance
	v    cue.Value
	pos  *positions
	// missing are the refs of the elements whose fields are missing,
	// not concrete or wrong, when validation failed with only such
	// errors; data is then the description as written, before the
	// schema, for what an error leaves unreadable in v.
	missing []ir.Ref
	data    cue.Value
}

// Evaluate loads the CUE package at path (as Load does), builds it,
// unifies it with #Board and validates the result, the way `cue vet`
// checks a description against the schema. It returns at least one error
// diagnostic when any of these fails, each error at the user's position
// with the schema's constraint as a note, every such error of the
// description at once. It returns nil then too, unless every error is
// about one element (see confined): that description is returned with
// the errors, for Lower to lower as far as it goes.
//
// #Board carries no position (see unpositioned), so that a value's
// position is always one the user wrote and lowering reads positions from
// the one unified value. When the description fails, it is unified again
// with #Board as written, whose positions the notes name.
func (l *Loader) Evaluate(path string) (*Evaluated, diag.List) {
	inst, p, ds := l.instance(path)
	if inst == nil {
		return nil, ds
	}
	ctx, board, err := l.context()
	if err != nil {
		return nil, l.pathError(path, err.Error())
	}
	// The context is let go after the build, failed or not: explaining
	// a failure unifies in it.
	defer l.spend(inst)
	if v, ok := l.evaluateInScope(ctx, inst); ok {
		return &Evaluated{inst: inst, v: v, pos: p}, nil
	}
	data := ctx.BuildInstance(inst)
	if err := data.Err(); err != nil {
		return nil, p.fromCUE(err, cue.Value{}, diag.Parse.ID)
	}
	v := data.Unify(board)
	if err := v.Validate(cue.Concrete(true), cue.Final()); err != nil {
		if positioned, perr := l.positionedBoard(); perr == nil {
			if perr := data.Unify(positioned).Validate(cue.Concrete(true), cue.Final()); perr != nil {
				err = perr
			}
		}
		p.schema = board
		ds := socAsBoard(p.fromCUE(err, data, diag.Schema.ID), data, p)
		missing, ok := confined(ds)
		if !ok {
			return nil, ds
		}
		return &Evaluated{inst: inst, v: v, data: data, pos: p, missing: missing}, ds
	}
	return &Evaluated{inst: inst, v: v, pos: p}, nil
}

// confined returns the refs of the elements the diagnostics are about,
// and whether every one is confined to an element: a field missing or
// not concrete (BC0004), wrong (BC0002, BC0006) or not allowed (BC0003),
// or an element the SoC does not declare (BC0007), each with the ref of
// the element it is about.
func confined(ds diag.List) ([]ir.Ref, bool) {
	var refs []ir.Ref
	for _, d := range ds {
		if d.Severity != diag.Error {
			continue
		}
		if !partialCodes[d.Code] || d.Ref == "" {
			return nil, false
		}
		refs = append(refs, d.Ref)
	}
	return refs, len(refs) > 0
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
	if fi.IsDir() {
		if why := noCUEFiles(path, abs); why != "" {
			return nil, nil, l.pathError(path, why)
		}
	}
	cfg := &load.Config{Dir: abs, Registry: registry()}
	arg := "."
	if !fi.IsDir() {
		if filepath.Ext(abs) != ".cue" {
			return nil, nil, l.pathError(path, "not a .cue file or a directory")
		}
		cfg.Dir, arg = filepath.Dir(abs), abs
	}
	// A prepared instance's inputs were checked by Prepare, before CUE
	// read them.
	insts := []*build.Instance{l.takePrepared(abs)}
	if insts[0] == nil || !fi.IsDir() {
		if file, why := checkInputs(moduleRoot(cfg.Dir), cfg.Dir); file != "" {
			if rel, err := filepath.Rel(l.wd, file); l.wd != "" && err == nil && filepath.IsLocal(rel) {
				file = rel
			}
			return nil, nil, l.pathError(file, why)
		}
		insts = load.Instances([]string{arg}, cfg)
	}
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
		ds := p.fromCUE(inst.Err, cue.Value{}, diag.Parse.ID)
		if why := packagePathProblem(inst.Root, cfg.Dir); why != "" {
			for i := range ds {
				if strings.Contains(ds[i].Message, "no dependency found") {
					ds[i].Notes = append(ds[i].Notes, diag.Note{Message: why})
				}
			}
		}
		return nil, nil, ds
	}
	return inst, p, nil
}

// packagePathProblem says why the package in dir, in the CUE module
// rooted at root, has no valid import path, which makes CUE fail to
// resolve the module's own imports from it ("no dependency found"): a
// directory name with a space, a "^" or upper case, or a name Windows
// reserves (con, nul...). It returns "" when the path is valid or dir is
// outside the module.
func packagePathProblem(root, dir string) string {
	rel, err := filepath.Rel(root, dir)
	if root == "" || err != nil || rel == "." || !filepath.IsLocal(rel) {
		return ""
	}
	for _, elem := range strings.Split(filepath.ToSlash(rel), "/") {
		if err := module.CheckImportPath("m.example/" + elem); err != nil {
			return fmt.Sprintf("the directory name %q cannot be part of a CUE package path (lower-case letters, digits and single - . _ between them, not a name Windows reserves): rename the directory", elem)
		}
	}
	return ""
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
// a reference is to something the description does not declare, or when
// e is a partial description (see Evaluate). Lowering does not change e;
// it may be lowered again.
func (l *Loader) Lower(e *Evaluated) (*ir.Board, diag.List) {
	b, ds, missing := l.lower(e)
	if len(ds) > 0 || len(missing) > 0 {
		if len(ds) == 0 {
			ds = diag.List{{Pos: e.pos.dirPos(), Severity: diag.Error, Code: diag.Missing.ID,
				Message: "the description is incomplete: " + string(missing[0]) + " is missing"}}
		}
		return nil, ds
	}
	return b, nil
}

// lower lowers e as far as it goes: the board, lowering's own errors, and
// the refs of the elements that lack a fact (those e's validation found,
// and those lowering found), sorted, each once.
func (l *Loader) lower(e *Evaluated) (*ir.Board, diag.List, []ir.Ref) {
	p := e.pos
	lw := &lowerer{pos: p, missing: e.missing, data: e.data}
	b := lw.board(node{v: e.v, pos: p, fallback: p.dirPos()})
	for _, f := range sources(e.inst) {
		b.Sources = append(b.Sources, ir.Source{Path: f, Rel: p.convert(f, 0, 0).Src})
	}
	missing := slices.Clone(lw.missing)
	slices.Sort(missing)
	return b, lw.diags, slices.Compact(missing)
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

// partialCodes are the codes of the loader's errors that are confined to
// the element they are about.
var partialCodes = map[string]bool{
	diag.Missing.ID: true, diag.NotInSoC.ID: true,
	diag.Schema.ID: true, diag.Unknown.ID: true, diag.Conflict.ID: true,
}
