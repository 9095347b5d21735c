package main

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"

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
		return "error"
	case diag.Warning:
		return "warning"
	}
	return "note"
}

// sarifReport builds a SARIF 2.1.0 log of l: one run of boardc with one
// rule per code of rs, a rule more per code of l that rs lacks, and one
// result per diagnostic. A diagnostic's position is the result's physical
// location; notes with a position become related locations, the others
// lines of the message.
func sarifReport(rs []rule, l diag.List) *sarifLog {
	run := newSARIFRun()
	index := map[string]int{}
	addRule := func(r rule) {
		index[r.code] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, newSARIFRule(r))
	}
	for _, r := range rs {
		addRule(r)
	}
	for _, d := range l {
		if _, ok := index[d.Code]; !ok {
			addRule(rule{code: d.Code, severity: d.Severity})
		}
		text := d.Message
		related := []sarifLocation{}
		for _, n := range d.Notes {
			if loc := newSARIFLocation(n.Pos); loc != nil {
				loc.ID = len(related)
				loc.Message = &sarifMessage{Text: n.Message}
				related = append(related, *loc)
				continue
			}
			text += "\nnote: " + n.Message
		}
		res := sarifResult{
			Kind:             "fail",
			Level:            sarifLevel(d.Severity),
			Locations:        []sarifLocation{},
			Message:          sarifMessage{Text: text},
			Rank:             -1,
			RelatedLocations: related,
			RuleID:           d.Code,
			RuleIndex:        index[d.Code],
		}
		if loc := newSARIFLocation(d.Pos); loc != nil {
			if d.Ref != "" {
				// The element, as a waiver names it.
				loc.LogicalLocations = append(loc.LogicalLocations, sarifLogicalLocation{
					FullyQualifiedName: string(d.Ref), Index: -1, ParentIndex: -1,
				})
			}
			res.Locations = append(res.Locations, *loc)
		}
		run.Results = append(run.Results, res)
	}
	return &sarifLog{
		Schema:  "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/main/sarif-2.1/schema/sarif-schema-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}
}

// newSARIFLocation returns the physical location of p, or nil when p is
// unknown. The file is a relative URI where the position is relative.
func newSARIFLocation(p ir.Pos) *sarifLocation {
	if !p.IsValid() {
		return nil
	}
	uri := (&url.URL{Path: filepath.ToSlash(p.File)}).String()
	if filepath.IsAbs(p.File) {
		uri = (&url.URL{Scheme: "file", Path: filepath.ToSlash(p.File)}).String()
	}
	loc := &sarifLocation{
		ID:               -1,
		LogicalLocations: []sarifLogicalLocation{},
		PhysicalLocation: sarifPhysicalLocation{ArtifactLocation: sarifArtifactLocation{Index: -1, URI: uri}},
	}
	if p.Line > 0 {
		loc.PhysicalLocation.Region = &sarifRegion{ByteOffset: -1, CharOffset: -1, StartLine: p.Line, StartColumn: p.Col}
	}
	return loc
}

// writeSARIF writes the SARIF log of l, with every code's rule, to w.
func writeSARIF(w io.Writer, l diag.List) error {
	return printSARIF(w, sarifReport(rules(), l))
}

// printSARIF writes log as indented JSON and a newline.
func printSARIF(w io.Writer, log *sarifLog) error {
	b, err := json.MarshalIndent(log, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
