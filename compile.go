// Package boardc compiles board descriptions: it loads a description and
// unifies it with the schema (compiler/load), lowers it to the IR
// (compiler/ir), runs the checks (compiler/check) and hands the IR to the
// emitters (outputs/...). The result is data, as esbuild's BuildResult is:
// the board, the diagnostics, the files and their manifest. Compiling does
// no disk I/O besides reading the description; writing a set of outputs
// atomically is internal/outset's, and commands are cmd/boardc's.
package boardc

import (
	"sync"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/check"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/compiler/kernel"
	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/outputs"
	"boardc.dev/boardc/outputs/c"
	"boardc.dev/boardc/outputs/dpl"
	"boardc.dev/boardc/outputs/dts"
	"boardc.dev/boardc/outputs/tune"
)

// Emitters returns the emitters every build runs, in order.
func Emitters() []outputs.Emitter {
	return []outputs.Emitter{dts.Emitter, dpl.Emitter, c.Emitter, tune.Emitter}
}

// Result is the outcome of compiling one board.
type Result struct {
	// Board is the lowered board; nil when loading failed, and when the
	// description has errors confined to some elements (a missing field,
	// a master without DMA widths): the checks then ran on what could be
	// lowered, but a board lacking facts is not one to emit or explain.
	Board *ir.Board
	// Name is the board's name as its description gives it, "" when it
	// gives none that loaded.
	Name string
	// Diagnostics are every finding, sorted by position.
	Diagnostics diag.List
	// Checks are the codes of the checks that ran, sorted by ID; none
	// when loading failed. On a description with errors confined to
	// some elements, the checks whose facts are all there ran.
	Checks []diag.Code
	// Skipped are the codes of the checks that did not run because the
	// description lacks a fact they need (a board without memory skips
	// the check of DMA widths against RAM), sorted by ID.
	Skipped []diag.Code
	// Files are the generated files, sorted by path, manifest.json among
	// them; empty when any diagnostic is an error.
	Files []outputs.File
	// Manifest is what Files holds as manifest.json: every other file
	// with its digest and the origins of its lines; nil when any
	// diagnostic is an error.
	Manifest *outputs.Manifest
	// Kernel is the driver-facts catalogue the board was checked
	// against (its kernel's, or the default series'), nil for none.
	Kernel *kernel.Catalog
	// OnSoC is true when the board was loaded on its SoC lowered once
	// for the boards prepared with it (Prepare, load.Partial.OnSoC); the
	// result is the same either way.
	OnSoC bool
}

// Options change how a board is compiled.
type Options struct {
	// WarningsAsErrors turns every warning into an error.
	WarningsAsErrors bool
	// BaseTree returns the device tree the board's fragment is built on
	// (its dts: compiled, or a .dtb), nil for none; the base-tree checks
	// compare the description with it. An error is reported as a BC0600
	// diagnostic at the board's dts.
	BaseTree func(*ir.Board) (*basetree.Tree, error)
	// Kernel are the driver-facts catalogues a board is checked against:
	// its kernel's, or Default's when it names none. nil: the catalogues
	// boardc ships (check.Shipped); &check.Catalogs{}: none. A kernel
	// with none is a BC0700 warning at its position, and the driver
	// checks (BC07xx) do not run.
	Kernel *check.Catalogs
}

// Compiler compiles boards, one after the other. It prepares the schema
// once, and what it keeps of the boards it has compiled is bounded (see
// load.Loader). It is not safe for concurrent use.
type Compiler struct {
	loader *load.Loader
}

// New returns a Compiler.
func New() (*Compiler, error) {
	l, err := load.New()
	if err != nil {
		return nil, err
	}
	return &Compiler{loader: l}, nil
}

// Shared is what the Compilers of one build, one per goroutine, share:
// each SoC package validated and lowered once for the boards of all of
// them (load.Templates). The zero value is ready; it is safe for
// concurrent use.
type Shared struct {
	templates load.Templates
}

// Share makes c share with the other Compilers given s. Results are the
// same as without it.
func (c *Compiler) Share(s *Shared) { c.loader.ShareTemplates(&s.templates) }

// Compile compiles the board at path (a directory or a .cue file) with a
// Compiler of its own. A program that compiles several boards should keep
// one Compiler: it prepares the schema once.
func Compile(path string, opts Options) (*Result, error) {
	c, err := New()
	if err != nil {
		return nil, err
	}
	return c.Compile(path, opts), nil
}

// Prepare readies the Compiler for the boards at paths, to be compiled
// next in any order: boards of one CUE module are loaded together, so that
// the packages they import (their SoC) are read and built once for all of
// them (load.Loader.Prepare). Results are the same as without it.
func (c *Compiler) Prepare(paths []string) {
	c.loader.Prepare(paths)
}

// Compile compiles the board at path (a directory or a .cue file).
func (c *Compiler) Compile(path string, opts Options) *Result {
	p := c.loader.LoadPartial(path)
	b, ds := p.Board, p.Diagnostics
	if b == nil {
		return &Result{Diagnostics: ds}
	}
	var base *basetree.Tree
	if opts.BaseTree != nil {
		t, err := opts.BaseTree(b)
		if err != nil {
			ds = append(ds, diag.Diagnostic{
				Pos: b.DTSPos.Or(b.Pos), Severity: diag.Error, Code: diag.BaseTree.ID, Ref: ir.RefDTS,
				Message: "the base tree could not be read: " + err.Error(),
			})
		}
		base = t
	}
	cats := opts.Kernel
	if cats == nil {
		shipped := check.Shipped()
		cats = &shipped
	}
	cat, kd := cats.For(b)
	ds = append(ds, kd...)
	cr := check.RunEnv(b, check.Env{Base: base, Kernel: cat, Missing: p.Missing})
	r := &Result{Board: b, Name: b.Name, Diagnostics: append(ds, cr.Diagnostics...), Kernel: cat, OnSoC: p.OnSoC}
	for _, c := range cr.Ran {
		r.Checks = append(r.Checks, c.Code)
	}
	for _, c := range cr.Skipped {
		r.Skipped = append(r.Skipped, c.Code)
	}
	if len(p.Missing) > 0 {
		// Errors confined to some elements: the checks ran on the
		// rest; nothing is emitted from a board lacking facts.
		r.Board = nil
	}
	if opts.WarningsAsErrors {
		for i := range r.Diagnostics {
			if r.Diagnostics[i].Severity == diag.Warning {
				r.Diagnostics[i].Severity = diag.Error
			}
		}
	}
	r.Diagnostics.Sort()
	if r.Diagnostics.HasErrors() {
		return r
	}
	// The emitters only read the IR; each runs on a goroutine of its own,
	// and makes the manifest's entries of its files there.
	es := Emitters()
	emitted := make([][]outputs.File, len(es))
	entries := make([][]outputs.ManifestFile, len(es))
	var wg sync.WaitGroup
	for i, e := range es {
		wg.Go(func() {
			emitted[i] = e.Emit(b)
			for _, f := range emitted[i] {
				entries[i] = append(entries[i], outputs.ManifestEntry(f))
			}
		})
	}
	wg.Wait()
	var all []outputs.ManifestFile
	for i, fs := range emitted {
		r.Files = append(r.Files, fs...)
		all = append(all, entries[i]...)
	}
	r.Manifest = outputs.NewManifest(b, es, all)
	r.Files = append(r.Files, r.Manifest.File())
	outputs.SortFiles(r.Files)
	return r
}
