package conform

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/draft"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/compiler/kernel"
	"boardc.dev/boardc/compiler/load"
)

// Stage is one step a vendor takes with a board.
type Stage int

// The stages, in the order a board goes through them.
const (
	// Compile: cpp and dtc build the upstream .dts as kbuild does.
	Compile Stage = iota
	// Import: compiler/draft writes the draft, as boardc import does.
	Import
	// Coherent: the draft's coherent masters are the tree's (the nodes
	// of_dma_is_coherent() answers true for, a dma-coherent on an
	// ancestor covering its children), and every node carrying
	// dma-coherent is such a master.
	Coherent
	// Fill: the facts a tree cannot give are added (Filler).
	Fill
	// Vet: the filled draft compiles with the base-tree checks against
	// the tree, without errors.
	Vet
	// Build: the filled draft compiles without the tree, without errors,
	// and has a fragment.
	Build
	// BSP: with the DMA widths stated in the SoC package, the board
	// built in one call with a second board on its SoC gives what it
	// gives built alone (bsp).
	BSP
	// RoundTrip: the fragment after the unmodified upstream .dts compiles
	// and yields the upstream tree, unchanged.
	RoundTrip
	numStages
)

// Stages lists every stage in order.
func Stages() []Stage {
	s := make([]Stage, numStages)
	for i := range s {
		s[i] = Stage(i)
	}
	return s
}

// String returns the stage's name as CORPUS.md and the baseline spell it.
func (s Stage) String() string {
	return [...]string{"compile", "import", "coherent", "fill", "vet", "build", "bsp", "roundtrip"}[s]
}

// Outcome is how a board fared at one stage.
type Outcome struct {
	// Ran is false when an earlier stage the stage needs failed.
	Ran bool
	// Pass is true when the stage ran and passed.
	Pass bool
	// Causes are the reasons of a failure, each normalised so that the
	// same reason on two boards reads the same (Normalize); the first is
	// the main one. For Fill, the facts it added.
	Causes []string
	// Detail is the first failure as it was, with its board's own paths
	// and names.
	Detail string
}

// Result is one board's outcome at every stage.
type Result struct {
	// Board is the .dts relative to DTSDir.
	Board string
	// Stages holds one Outcome per Stage.
	Stages [numStages]Outcome
	// Seconds is the board's wall time.
	Seconds float64
	// BoardcSeconds is the wall time of boardc's own stages, from import
	// to build (a vendor's import, vet and build; the vet compiles the
	// files build writes), without compiling the tree or the round trip;
	// 0 when build did not pass.
	BoardcSeconds float64
	// Kernel is true when the board's tree reads a file of the arch/arm
	// or arch/riscv device trees the corpus took from a kernel source
	// archive (WithKernel).
	Kernel bool
	// Masters are the compatibles of each DMA master of the board's
	// draft, most specific first, for the driver-facts coverage
	// (CoverageOf); nil when the import failed.
	Masters [][]string
}

// fail records a failure of stage s with the detail and its causes.
func (r *Result) fail(s Stage, detail string, causes ...string) {
	r.Stages[s] = Outcome{Ran: true, Causes: causes, Detail: detail}
}

// pass records that stage s passed.
func (r *Result) pass(s Stage, notes ...string) {
	r.Stages[s] = Outcome{Ran: true, Pass: true, Causes: notes}
}

// Filler is the rule that adds what a tree cannot give, written as one
// more file of the draft's board package. It is a placeholder, not a
// board's facts: 32-bit streaming DMA for every master the driver-facts
// catalogue left without a width (the mask an OF platform device starts
// with; compiler/draft's round-trip facts use the same), but a PCIe host
// bridge, which has no width of its own (bridge: the draft gives it none
// and the schema refuses one), and, where the draft has no memory, one
// region of 1 GiB at 0. Coherency, which the corpus checks, depends on
// neither.
const Filler = "corpus filler: 32-bit DMA widths where the catalogue gives none; memory 1 GiB at 0 where the tree has none"

// fillFile is the text Filler adds to the package pkg: the DMA widths
// when widths is set, the memory when memory is.
func fillFile(pkg string, widths, memory bool) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// %s\npackage %s\n\n", Filler, pkg)
	if widths {
		b.WriteString("soc: masters: [_]: M={if M.bridge == _|_ {dma: streaming: *32 | int}}\n")
	}
	if memory {
		b.WriteString("memory: [{base: 0x0, size: 0x4000_0000}]\n")
	}
	return b.Bytes()
}

// packageRE finds a CUE file's package clause, memoryRE the board's
// memory field as the draft writes it (formatted, at the top level).
var (
	packageRE = regexp.MustCompile(`(?m)^package ([A-Za-z_][A-Za-z0-9_]*)$`)
	memoryRE  = regexp.MustCompile(`(?m)^memory:`)
)

// run takes the board dts (relative to DTSDir) through every stage, in
// the module directory work; c compiles the drafts.
func (cp *Corpus) run(ctx context.Context, c *boardc.Compiler, dts, work string, r *Result, at *progress) {
	rel := DTSDir + "/" + dts
	comp := basetree.Compile{Root: cp.Root, DTS: rel, Annotate: true}
	if cp.Kernel != nil {
		comp.DTCProgram = cp.Kernel.DTC
	}
	tree, err := comp.Build(ctx)
	if err != nil {
		cause := Normalize(err.Error())
		if cp.Kernel != nil && strings.Contains(cause, "(the corpus has no src/") {
			cause = strings.TrimSuffix(cause, ")") + ", nor has " + cp.Kernel.Archive + ")"
		}
		r.fail(Compile, err.Error(), cause)
		return
	}
	r.pass(Compile)
	for _, f := range tree.SourceFiles() {
		if strings.HasPrefix(f, "arch/arm/") || strings.HasPrefix(f, "arch/riscv/") {
			r.Kernel = true
			break
		}
	}
	at.reach(Import, r)
	boardcStart := time.Now()

	var cat *kernel.Catalog
	if s := kernel.Default(); s != "" {
		if cat, err = kernel.Load(s); err != nil {
			r.fail(Import, err.Error(), Normalize(err.Error()))
			return
		}
	}
	d, err := draft.Generate(tree, draft.Options{Source: rel, DTS: rel, Module: "boardc.dev/boards", Kernel: cat})
	if err != nil {
		r.fail(Import, err.Error(), Normalize(err.Error()))
		return
	}
	for _, m := range d.Masters() {
		r.Masters = append(r.Masters, m.Compatible)
	}
	if err := writeFile(filepath.Join(work, "cue.mod", "module.cue"), []byte("module: \"boardc.dev/boards@v0\"\nlanguage: version: \"v0.17.0\"\n")); err != nil {
		r.fail(Import, err.Error(), "writing the draft: "+Normalize(err.Error()))
		return
	}
	var boardText []byte
	for _, f := range d.Files {
		data, err := load.Format(f.Data)
		if err != nil {
			r.fail(Import, f.Path+": "+err.Error(), "the draft is not valid CUE: "+Normalize(err.Error()))
			return
		}
		if f.Path == d.Board+"/board.cue" {
			boardText = data
		}
		if err := writeFile(filepath.Join(work, filepath.FromSlash(f.Path)), data); err != nil {
			r.fail(Import, err.Error(), "writing the draft: "+Normalize(err.Error()))
			return
		}
	}
	r.pass(Import)
	at.reach(Fill, r)

	m := packageRE.FindSubmatch(boardText)
	if m == nil {
		r.fail(Fill, "no package clause in "+d.Board+"/board.cue", "the board file has no package clause")
		return
	}
	memory := !memoryRE.Match(boardText)
	if err := writeFile(filepath.Join(work, d.Board, "corpus_fill.cue"), fillFile(string(m[1]), true, memory)); err != nil {
		r.fail(Fill, err.Error(), "writing the filler: "+Normalize(err.Error()))
		return
	}
	notes := []string{"DMA widths"}
	if memory {
		notes = append(notes, "memory")
	}
	r.pass(Fill, notes...)
	at.reach(Vet, r)

	dir := filepath.Join(work, d.Board)
	vet := c.Compile(dir, boardc.Options{BaseTree: func(*ir.Board) (*basetree.Tree, error) { return tree, nil }})
	if vet.Board == nil {
		detail, causes := errorsOf(vet.Diagnostics)
		r.fail(Coherent, detail, "the draft does not load: "+strings.Join(first(causes, 1), ""))
	} else {
		coherent(r, vet.Board, tree)
	}
	res := vet
	if detail, causes := errorsOf(vet.Diagnostics); causes != nil {
		r.fail(Vet, detail, causes...)
		res = c.Compile(dir, boardc.Options{})
	} else {
		r.pass(Vet)
	}
	var frag []byte
	for _, f := range res.Files {
		if f.Path == d.Board+".dtsi" {
			frag = f.Data
		}
	}
	if detail, causes := errorsOf(res.Diagnostics); causes != nil {
		r.fail(Build, detail, causes...)
		return
	}
	if frag == nil {
		r.fail(Build, "no "+d.Board+".dtsi among the outputs", "no fragment among the outputs")
		return
	}
	r.pass(Build)
	r.BoardcSeconds = time.Since(boardcStart).Seconds()
	at.reach(BSP, r)
	bsp(c, r, dir, filepath.Join(work, filepath.Dir(filepath.FromSlash(d.Files[0].Path))), string(m[1]), memory)
	at.reach(RoundTrip, r)

	pre, err := comp.Preprocess(ctx)
	if err != nil {
		r.fail(RoundTrip, err.Error(), Normalize(err.Error()))
		return
	}
	built, err := comp.DTC(ctx, append(append(pre, '\n'), frag...))
	if err != nil {
		r.fail(RoundTrip, err.Error(), "the fragment does not compile: "+Normalize(err.Error()))
		return
	}
	if changes := Diff(tree, built); len(changes) > 0 {
		var causes []string
		seen := map[string]bool{}
		for _, ch := range changes {
			if c := changesTree + ch.Cause(); !seen[c] {
				seen[c] = true
				causes = append(causes, c)
			}
		}
		r.fail(RoundTrip, fmt.Sprintf("%d change(s), first %s", len(changes), changes[0]), causes...)
		return
	}
	r.pass(RoundTrip)
}

// errorsOf returns the first error of ds as printed, and the normalised
// causes of its errors, each once, codes first: nil when ds has no error.
func errorsOf(ds diag.List) (string, []string) {
	var detail string
	var causes []string
	seen := map[string]bool{}
	for _, d := range ds {
		if d.Severity != diag.Error {
			continue
		}
		if detail == "" {
			detail = d.String()
		}
		c := d.Code + ": " + Normalize(d.Message)
		if !seen[c] {
			seen[c] = true
			causes = append(causes, c)
		}
	}
	return detail, causes
}

// coherent records the Coherent stage: the masters the draft makes
// coherent against the tree's, by the walk of of_dma_is_coherent()
// (drivers/of/address.c, basetree.Node.Coherent), and every node that
// carries dma-coherent itself must be a coherent master of the draft,
// below one, or a bus the draft states coherent.
func coherent(r *Result, b *ir.Board, t *basetree.Tree) {
	mine := map[string]bool{}
	var diffs, causes []string
	seen := map[string]bool{}
	add := func(cause, path string) {
		diffs = append(diffs, cause+": "+path)
		if !seen[cause] {
			seen[cause] = true
			causes = append(causes, cause)
		}
	}
	for _, m := range b.SoC.Masters {
		path := m.Node.Path
		if path == "" {
			path, _ = t.Label(m.Node.Label)
		}
		n := t.Node(path)
		if n == nil {
			add("a master not in the tree", m.Key)
			continue
		}
		mine[path] = m.Coherent()
		up, _ := n.Coherent()
		switch {
		case m.Coherent() && !up:
			add("coherent in the draft, not upstream", path)
		case !m.Coherent() && up && n.Has("dma-coherent"):
			add("dma-coherent upstream, not coherent in the draft", path)
		case !m.Coherent() && up:
			add("coherent upstream by an ancestor's dma-coherent, not in the draft", path)
		}
	}
	// A node that carries dma-coherent and is no master of the draft is
	// covered when it is a bus whose coherency fact the draft states
	// coherent, or the root above the draft's masters (Versal-NET,
	// Elba): those masters were compared above, each by the walk that
	// reaches the root's flag. It is also covered when a coherent
	// master of the draft is above it: the walk reaches that master's
	// dma-coherent (compiler/draft makes no master of a candidate below
	// another).
	coherentBus := map[string]bool{}
	for _, bus := range b.SoC.Buses {
		path := bus.Node.Path
		if path == "" {
			path, _ = t.Label(bus.Node.Label)
		}
		coherentBus[path] = bus.Coherency.Coherent
	}
	for _, p := range t.Paths() {
		n := t.Node(p)
		if _, ok := mine[p]; ok || !n.Has("dma-coherent") || coherentBus[p] || (p == "/" && len(mine) > 0) {
			continue
		}
		covered := false
		for a := n.Parent; a != nil && !covered; a = a.Parent {
			covered = mine[a.Path]
		}
		if !covered {
			add("a node with dma-coherent that is no coherent master of the draft, nor below one", p)
		}
	}
	if len(diffs) > 0 {
		sort.Strings(diffs)
		r.fail(Coherent, fmt.Sprintf("%d difference(s): %s", len(diffs), strings.Join(first(diffs, 3), "; ")), causes...)
		return
	}
	r.pass(Coherent)
}

// first returns at most n elements of s.
func first(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// writeFile writes data to path, creating its directory.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
