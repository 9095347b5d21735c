package main

import (
	"io"
	"strconv"
	"strings"

	"boardc.dev/boardc/audit"
	"boardc.dev/boardc/compiler/ir"
)

// auditSARIF builds the SARIF 2.1.0 log of an audit: one rule per class,
// one result per finding, located at the node's line in the upstream
// .dts or .dtsi (the .dtb itself where the tree came from one), the board
// and node path as its logical location, the device-tree evidence as
// related locations and the rest of the evidence and the change in its
// message.
func auditSARIF(rep *audit.Report) *sarifLog {
	run := newSARIFRun()
	index := map[audit.Class]int{}
	for _, c := range audit.Classes() {
		index[c] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			DefaultConfiguration: sarifConfiguration{Enabled: true, Level: string(audit.Level(c)), Rank: -1},
			ID:                   string(c),
			Name:                 string(c),
			ShortDescription:     &sarifText{Text: string(c)},
			FullDescription:      &sarifText{Text: audit.Doc(c)},
		})
	}
	for _, f := range rep.Findings {
		var text strings.Builder
		text.WriteString(f.Message)
		related := []sarifLocation{}
		for _, e := range f.Evidence {
			if loc := dtLocation(e.Source); loc != nil && e.Kind != "driver" {
				loc.ID = len(related)
				loc.Message = &sarifMessage{Text: e.Kind + ": " + e.Text}
				related = append(related, *loc)
				continue
			}
			text.WriteString("\n" + e.Kind + ": " + e.Text)
			if e.Source != "" {
				text.WriteString(" [" + e.Source + "]")
			}
		}
		text.WriteString("\nchange: " + f.Suggest)
		res := sarifResult{
			Kind:             "fail",
			Level:            string(f.Severity),
			Locations:        []sarifLocation{},
			Message:          sarifMessage{Text: text.String()},
			Rank:             -1,
			RelatedLocations: related,
			RuleID:           string(f.Class),
			RuleIndex:        index[f.Class],
		}
		loc := dtLocation(f.Source)
		if loc == nil {
			loc = newSARIFLocation(ir.Pos{File: f.Board})
		}
		loc.LogicalLocations = append(loc.LogicalLocations, sarifLogicalLocation{
			FullyQualifiedName: f.Board + ":" + f.Path, Index: -1, ParentIndex: -1,
		})
		res.Locations = append(res.Locations, *loc)
		run.Results = append(run.Results, res)
	}
	return &sarifLog{
		Schema:  "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/main/sarif-2.1/schema/sarif-schema-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}
}

// dtLocation returns the location of a "file:line" position in a
// device-tree source, nil for anything else (a kernel source site, a
// commit).
func dtLocation(pos string) *sarifLocation {
	i := strings.LastIndexByte(pos, ':')
	if i < 0 {
		return nil
	}
	file := pos[:i]
	line, err := strconv.Atoi(pos[i+1:])
	if err != nil || line <= 0 || !(strings.HasSuffix(file, ".dts") || strings.HasSuffix(file, ".dtsi")) {
		return nil
	}
	return newSARIFLocation(ir.Pos{File: file, Line: line})
}

// writeAuditSARIF writes the SARIF log of rep to w.
func writeAuditSARIF(w io.Writer, rep *audit.Report) error {
	return printSARIF(w, auditSARIF(rep))
}
