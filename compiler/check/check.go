// Package check runs the semantic checks over a lowered board. It is
// modelled on golang.org/x/tools/go/analysis: each check is a small value,
// its code (diag.Code: a stable ID, a name, a severity, a one-paragraph
// doc) and a run function, one file per check, all registered in All.
package check

import (
	"fmt"
	"sort"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/compiler/kernel"
)

// Check is one semantic check.
type Check struct {
	// Code is what the check's findings carry.
	diag.Code
	// NeedsBase marks a check on the base tree (base*.go): it runs only
	// when the board is checked against one, and Pass.Base is never nil
	// in its Run.
	NeedsBase bool
	// NeedsKernel marks a check against the driver-facts catalogue
	// (driver_*.go): it runs only when the board is checked against
	// one, and Pass.Kernel is never nil in its Run.
	NeedsKernel bool
	// Needs are the kinds of fact the check reads. On a partial board
	// (RunPartial) the check runs only when none of them is missing; a
	// check that declares none is taken to read every fact, so that a
	// check added without thought never sees a partial board.
	Needs Fact
	// Run inspects the board and reports findings through the pass.
	Run func(*Pass)
}

// Pass is one run of one check over one board.
type Pass struct {
	Board *ir.Board
	// Base is the device tree the board's fragment is built on, nil when
	// none was given; the base-tree checks (NeedsBase) do not run then.
	Base *basetree.Tree
	// Kernel is the driver-facts catalogue of the kernel the board runs,
	// nil when there is none; the driver checks (NeedsKernel) do not run
	// then.
	Kernel *kernel.Catalog
	check  *Check
	found  []finding
}

// finding is a diagnostic about one element, which a waiver naming that
// element silences.
type finding struct {
	d diag.Diagnostic
}

// Report records a finding about element on at pos.
func (p *Pass) Report(on ir.Ref, pos ir.Pos, msg string, notes ...diag.Note) {
	p.ReportSeverity(p.check.Severity, on, pos, msg, notes...)
}

// ReportSeverity is Report with a severity other than the check's own,
// for checks whose findings come in two strengths.
func (p *Pass) ReportSeverity(s diag.Severity, on ir.Ref, pos ir.Pos, msg string, notes ...diag.Note) {
	p.found = append(p.found, finding{d: diag.Diagnostic{
		Pos: pos, Severity: s, Code: p.check.ID, Message: msg, Notes: notes, Ref: on,
	}})
}

// Reportf is Report with a formatted message and no notes.
func (p *Pass) Reportf(on ir.Ref, pos ir.Pos, format string, args ...any) {
	p.Report(on, pos, fmt.Sprintf(format, args...))
}

// Note builds a note line.
func Note(pos ir.Pos, format string, args ...any) diag.Note {
	return diag.Note{Pos: pos, Message: fmt.Sprintf(format, args...)}
}

// Codes returns every code a diagnostic can carry, sorted by ID: the
// loader's (diag.Loader), the waivers' and every check's. It is what
// boardc checks explains and SARIF lists as rules.
func Codes() []diag.Code {
	out := append(diag.Loader(), WaiverReason, WaiverUnused, WaiverTarget, KernelSeries)
	for _, c := range All() {
		out = append(out, c.Code)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Lookup returns the code with the given ID or name among Codes, and
// whether there is one.
func Lookup(idOrName string) (diag.Code, bool) {
	for _, c := range Codes() {
		if c.ID == idOrName || c.Name == idOrName {
			return c, true
		}
	}
	return diag.Code{}, false
}

// Result is what running the checks over a board found.
type Result struct {
	// Diagnostics are the findings the waivers left, and the waivers' own,
	// sorted by position.
	Diagnostics diag.List
	// Ran are the checks that ran, sorted by ID: every check but the
	// base-tree ones when there is no base tree, and but the driver ones
	// when there is no driver-facts catalogue.
	Ran []*Check
	// Skipped are the checks that did not run on a partial board because
	// a fact they need is missing, sorted by ID.
	Skipped []*Check
}

// needs returns the kinds of fact c reads.
func (c *Check) needs() Fact {
	if c.Needs == 0 {
		return AllFacts
	}
	return c.Needs
}

// Run runs every check over the board and applies its waivers. A waiver
// without a reason is an error; a waiver that silences nothing is a
// warning.
func Run(b *ir.Board) diag.List { return RunWith(b, nil).Diagnostics }

// RunWith is Run with the board's base tree (nil for none), against which
// the base-tree checks compare the description; it also says which
// checks ran.
func RunWith(b *ir.Board, base *basetree.Tree) Result { return RunPartial(b, base, nil) }

// RunPartial is RunWith on a partial board: missing are the refs of the
// elements that lack a fact (load.Partial.Missing), nil for a whole
// board. Only the checks whose facts are all there run; the others are
// listed in Result.Skipped. Waivers that lack a fact, or whose target
// lacks one, neither silence nor are reported.
func RunPartial(b *ir.Board, base *basetree.Tree, missing []ir.Ref) Result {
	return RunEnv(b, Env{Base: base, Missing: missing})
}

// Env is what a board is checked against besides its description.
type Env struct {
	// Base is the board's upstream device tree, nil for none.
	Base *basetree.Tree
	// Kernel is the driver-facts catalogue of the kernel the board runs
	// (Catalogs.For), nil for none.
	Kernel *kernel.Catalog
	// Missing are the refs of the elements that lack a fact
	// (load.Partial.Missing), nil for a whole board.
	Missing []ir.Ref
}

// RunEnv is RunPartial with a driver-facts catalogue: the checks that
// need a base tree or a catalogue run when env has one.
func RunEnv(b *ir.Board, env Env) Result {
	base, missing := env.Base, env.Missing
	var found []finding
	var ran, skipped []*Check
	lacking := missingFacts(missing)
	for _, c := range All() {
		if c.NeedsBase && base == nil || c.NeedsKernel && env.Kernel == nil {
			continue
		}
		if c.needs()&lacking != 0 {
			skipped = append(skipped, c)
			continue
		}
		p := &Pass{Board: b, Base: base, Kernel: env.Kernel, check: c}
		c.Run(p)
		found = append(found, p.found...)
		ran = append(ran, c)
	}
	out := applyWaivers(b, ran, missing, found)
	out.Sort()
	return Result{Diagnostics: out, Ran: ran, Skipped: skipped}
}

// sortedByID returns checks sorted by ID.
func sortedByID(cs []*Check) []*Check {
	out := append([]*Check(nil), cs...)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
