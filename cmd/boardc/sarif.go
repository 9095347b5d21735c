package main

import (
	"io"
	"net/url"
	"path/filepath"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"boardc.dev/boardc/compiler/check"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// rule describes one diagnostic code as a SARIF rule.
type rule struct {
	code, name, doc string
	severity        diag.Severity
}

// rules returns every rule: every code the registry knows, the loader's
// and the checks', by code.
func rules() []rule {
	var out []rule
	for _, c := range check.Codes() {
		out = append(out, rule{c.ID, c.Name, c.Doc, c.Severity})
	}
	return out
}

// sarifLevel maps a severity to a SARIF result level.
func sarifLevel(s diag.Severity) string {
	switch s {
	case diag.Error:
		return sarif.LevelError
	case diag.Warning:
		return sarif.LevelWarning
	}
	return sarif.LevelNote
}

// sarifReport builds a SARIF 2.1.0 log of l: one run of boardc with one
// rule per code of rs, a rule more per code of l that rs lacks, and one
// result per diagnostic. A diagnostic's position is
// the result's physical location; notes with a position become related
// locations, the others lines of the message.
func sarifReport(rs []rule, l diag.List) *sarif.Report {
	run := sarif.NewRun()
	run.Tool = sarif.NewTool().WithDriver(sarif.NewToolComponent().WithName("boardc"))
	for _, r := range rs {
		addRule(run, r)
	}
	for _, d := range l {
		if run.GetRuleIndex(d.Code) < 0 {
			addRule(run, rule{code: d.Code, severity: d.Severity})
		}
		text := d.Message
		var related []*sarif.Location
		for _, n := range d.Notes {
			if loc := sarifLocation(n.Pos); loc != nil {
				related = append(related, loc.WithID(len(related)).WithMessage(sarif.NewTextMessage(n.Message)))
				continue
			}
			text += "\nnote: " + n.Message
		}
		res := run.CreateResultForRule(d.Code).
			WithLevel(sarifLevel(d.Severity)).
			WithMessage(sarif.NewTextMessage(text))
		if loc := sarifLocation(d.Pos); loc != nil {
			if d.Ref != "" {
				// The element, as a waiver names it.
				loc.AddLogicalLocation(sarif.NewLogicalLocation().WithFullyQualifiedName(string(d.Ref)))
			}
			res.AddLocation(loc)
		}
		if len(related) > 0 {
			res.WithRelatedLocations(related)
		}
	}
	rep := sarif.NewReport()
	rep.AddRun(run)
	return rep
}

func addRule(run *sarif.Run, r rule) {
	rd := run.AddRule(r.code).
		WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(sarifLevel(r.severity)))
	if r.name != "" {
		rd.WithName(r.name).WithShortDescription(sarif.NewMultiformatMessageString().WithText(r.name))
	}
	if r.doc != "" {
		rd.WithFullDescription(sarif.NewMultiformatMessageString().WithText(r.doc))
	}
}

// sarifLocation returns the physical location of p, or nil when p is
// unknown. The file is a relative URI where the position is relative.
func sarifLocation(p ir.Pos) *sarif.Location {
	if !p.IsValid() {
		return nil
	}
	uri := (&url.URL{Path: filepath.ToSlash(p.File)}).String()
	if filepath.IsAbs(p.File) {
		uri = (&url.URL{Scheme: "file", Path: filepath.ToSlash(p.File)}).String()
	}
	phys := sarif.NewPhysicalLocation().WithArtifactLocation(sarif.NewSimpleArtifactLocation(uri))
	if p.Line > 0 {
		reg := sarif.NewRegion().WithStartLine(p.Line)
		if p.Col > 0 {
			reg.WithStartColumn(p.Col)
		}
		phys.WithRegion(reg)
	}
	return sarif.NewLocationWithPhysicalLocation(phys)
}

// writeSARIF writes the SARIF log of l, with every code's rule, to w.
func writeSARIF(w io.Writer, l diag.List) error {
	return printSARIF(w, sarifReport(rules(), l))
}

// printSARIF writes log as indented JSON and a newline.
func printSARIF(w io.Writer, log *sarif.Report) error {
	if err := log.PrettyWrite(w); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
