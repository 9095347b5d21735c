package audit

import (
	"path/filepath"
	"strconv"
	"strings"

	"boardc.dev/boardc/compiler/diag/sarif"
)

// SARIF returns the report as a SARIF 2.1.0 log: one run of the tool
// name (version), one rule per class with its paragraph (Doc), one result
// per finding. A result is located at the node's line in the upstream
// .dts or .dtsi, its URI relative to the kernel tree (uriBaseId
// %SRCROOT%, so that a code-scanning upload of a kernel repository finds
// the line; root, when not "", is where the tree was), or at the .dtb the
// board was read from; its logical location is the board and node path.
// The device-tree evidence are related locations, the driver and SoC
// facts and the change lines of its message.
func (r *Report) SARIF(name, version, root string) *sarif.Log {
	run := sarif.Run{Tool: sarif.Tool{Driver: sarif.ToolComponent{Name: name, Version: version, Rules: []sarif.Rule{}}}, Results: []sarif.Result{}}
	if root != "" {
		if abs, err := filepath.Abs(root); err == nil {
			run.OriginalURIBaseIDs = sarif.RootBaseIDs(abs)
		}
	}
	index := map[Class]int{}
	for _, c := range Classes() {
		index[c] = len(run.Tool.Driver.Rules)
		doc := Doc(c)
		short, _, _ := strings.Cut(doc, ": ")
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarif.Rule{
			ID:                   string(c),
			Name:                 string(c),
			ShortDescription:     &sarif.Text{Text: short},
			FullDescription:      &sarif.Text{Text: doc},
			DefaultConfiguration: &sarif.Configuration{Level: string(Level(c))},
		})
	}
	for _, f := range r.Findings {
		switch f.Severity {
		case Error:
			run.Properties.Errors++
		case Warning:
			run.Properties.Warnings++
		default:
			run.Properties.Infos++
		}
		var text strings.Builder
		text.WriteString(f.Message)
		var related []sarif.Location
		for _, e := range f.Evidence {
			if pl := dtLocation(e.Source); pl != nil && e.Kind != "driver" {
				related = append(related, sarif.Location{PhysicalLocation: pl, Message: &sarif.Message{Text: e.Kind + ": " + e.Text}})
				continue
			}
			text.WriteString("\n" + e.Kind + ": " + e.Text)
			if e.Source != "" {
				text.WriteString(" [" + e.Source + "]")
			}
		}
		text.WriteString("\nchange: " + f.Suggest)
		pl := dtLocation(f.Source)
		if pl == nil {
			abs, err := filepath.Abs(f.Board)
			if err != nil {
				abs = f.Board
			}
			pl = &sarif.PhysicalLocation{ArtifactLocation: sarif.ArtifactLocation{URI: sarif.FileURI(abs)}}
		}
		run.Results = append(run.Results, sarif.Result{
			RuleID:    string(f.Class),
			RuleIndex: index[f.Class],
			Level:     string(f.Severity),
			Message:   sarif.Message{Text: text.String()},
			Locations: []sarif.Location{{
				PhysicalLocation: pl,
				LogicalLocations: []sarif.LogicalLocation{{FullyQualifiedName: f.Board + ":" + f.Path}},
			}},
			RelatedLocations: related,
		})
	}
	return &sarif.Log{Schema: sarif.SchemaURI, Version: "2.1.0", Runs: []sarif.Run{run}}
}

// dtLocation returns the location of a "file:line" position in a
// device-tree source relative to the kernel tree, nil for anything else
// (a kernel source site, a commit).
func dtLocation(pos string) *sarif.PhysicalLocation {
	i := strings.LastIndexByte(pos, ':')
	if i < 0 {
		return nil
	}
	file := pos[:i]
	line, err := strconv.Atoi(pos[i+1:])
	if err != nil || line <= 0 || filepath.IsAbs(file) || !(strings.HasSuffix(file, ".dts") || strings.HasSuffix(file, ".dtsi")) {
		return nil
	}
	return &sarif.PhysicalLocation{
		ArtifactLocation: sarif.ArtifactLocation{URI: sarif.RelURI(file), URIBaseID: sarif.RootBase},
		Region:           &sarif.Region{StartLine: line},
	}
}
