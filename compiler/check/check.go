// Package check runs the semantic checks over a lowered board. It is
// modelled on golang.org/x/tools/go/analysis: each check is a small value
// with a stable code, a name, a severity, a one-paragraph doc and a run
// function, one file per check, all registered in All.
package check

import (
	"fmt"
	"sort"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// Check is one semantic check.
type Check struct {
	// Code is the stable code printed in diagnostics, e.g. "BC0101".
	Code string
	// Name is a short kebab-case name.
	Name string
	// Severity is the severity of the check's findings.
	Severity diag.Severity
	// Doc is one paragraph: what the check finds and what it costs.
	Doc string
	// NeedsBase marks a check on the base tree (base*.go): it runs only
	// when the board is checked against one, and Pass.Base is never nil
	// in its Run.
	NeedsBase bool
	// Run inspects the board and reports findings through the pass.
	Run func(*Pass)
}

// Pass is one run of one check over one board.
type Pass struct {
	Board *ir.Board
	// Base is the device tree the board's fragment is built on, nil when
	// none was given; the base-tree checks (NeedsBase) do not run then.
	Base  *basetree.Tree
	check *Check
	found []finding
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
		Pos: pos, Severity: s, Code: p.check.Code, Message: msg, Notes: notes, Ref: on,
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

// Lookup returns the check with the given code or name, or nil.
func Lookup(codeOrName string) *Check {
	for _, c := range All() {
		if c.Code == codeOrName || c.Name == codeOrName {
			return c
		}
	}
	return nil
}

// Run runs every check over the board and applies its waivers. A waiver
// without a reason is an error; a waiver that silences nothing is a
// warning.
func Run(b *ir.Board) diag.List { return RunWith(b, nil) }

// RunWith is Run with the board's base tree (nil for none), against which
// the base-tree checks compare the description.
func RunWith(b *ir.Board, base *basetree.Tree) diag.List {
	var found []finding
	for _, c := range All() {
		if c.NeedsBase && base == nil {
			continue
		}
		p := &Pass{Board: b, Base: base, check: c}
		c.Run(p)
		found = append(found, p.found...)
	}
	out := applyWaivers(b, base, found)
	out.Sort()
	return out
}

// sortedCodes returns the codes of checks, sorted, for listing.
func sortedCodes(cs []*Check) []*Check {
	out := append([]*Check(nil), cs...)
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}
