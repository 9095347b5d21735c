package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"boardc.dev/boardc/compiler/check"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/golden"
	"boardc.dev/boardc/internal/synth"
)

// TestSARIF checks that --format=sarif prints a SARIF 2.1.0 log that the
// SARIF 2.1.0 JSON schema accepts (go-sarif's Report.Validate embeds it),
// with one rule per code and results located in the user's files.
func TestSARIF(t *testing.T) {
	dir := t.TempDir()
	// A master with dmaBits as a string: an error with notes; a path that
	// does not exist: an error without a line.
	bad := filepath.Join(dir, "bad")
	if err := os.Mkdir(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(tinyBoard, "dmaBits: 32", `dmaBits: "32"`, 1)
	if err := os.WriteFile(filepath.Join(bad, "board.cue"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args    []string
		exit    int
		results int
	}{
		{[]string{"vet", "--format=sarif", bad, filepath.Join(dir, "nosuch")}, exitDiags, 2},
		{[]string{"build", "--format=sarif", "-o", filepath.Join(dir, "out"), bad}, exitDiags, 1},
		// A good board: info diagnostics become results of level note.
		{[]string{"vet", "--format=sarif", "../../boards/espressobin"}, exitOK, -1},
	} {
		var stdout, stderr bytes.Buffer
		if code := runWith(tc.args, &stdout, &stderr); code != tc.exit {
			t.Fatalf("boardc %v: exit %d, want %d\nstderr:\n%s", tc.args, code, tc.exit, stderr.String())
		}
		rep, err := sarif.FromBytes(stdout.Bytes(), sarif.WithStrictValidation())
		if err != nil {
			t.Fatalf("boardc %v: parsing the SARIF log: %v", tc.args, err)
		}
		if err := rep.Validate(); err != nil {
			t.Fatalf("boardc %v: the SARIF 2.1.0 schema rejects the log: %v\n%s", tc.args, err, stdout.String())
		}
		checkSARIF(t, stdout.Bytes(), tc.results)
	}
	// The validator is not vacuous: a level SARIF does not define fails.
	log := sarifReport(rules(), diag.List{{Pos: ir.Pos{File: "x.cue"}, Severity: diag.Error, Code: diag.Parse.ID, Message: "x"}})
	log.Runs[0].Results[0].Level = "fatal"
	var buf bytes.Buffer
	if err := printSARIF(&buf, log); err != nil {
		t.Fatal(err)
	}
	rep, err := sarif.FromBytes(buf.Bytes(), sarif.WithStrictValidation())
	if err == nil {
		err = rep.Validate()
	}
	if err == nil {
		t.Error("the SARIF 2.1.0 schema accepted a result of level fatal")
	}
}

// readLog is the part of a SARIF log the test reads back.
type readLog struct {
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string `json:"name"`
				Rules []struct {
					ID               string `json:"id"`
					Name             string `json:"name"`
					FullDescription  struct{ Text string }
					ShortDescription struct{ Text string }
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex int    `json:"ruleIndex"`
			Level     string `json:"level"`
			Message   struct{ Text string }
			Locations []struct {
				PhysicalLocation sarifPhys `json:"physicalLocation"`
			} `json:"locations"`
			RelatedLocations []struct {
				PhysicalLocation sarifPhys `json:"physicalLocation"`
				Message          struct{ Text string }
			} `json:"relatedLocations"`
		} `json:"results"`
	} `json:"runs"`
}

type sarifPhys struct {
	ArtifactLocation struct {
		URI string `json:"uri"`
	} `json:"artifactLocation"`
	Region *struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
	} `json:"region"`
}

// checkSARIF reads the log back: every check and loader code is a rule
// with its name and doc, every result names a known rule by id and index
// and has a location; results pointing into a file have a line and
// column. results < 0 means any number.
func checkSARIF(t *testing.T, data []byte, results int) {
	t.Helper()
	var l readLog
	if err := json.Unmarshal(data, &l); err != nil {
		t.Fatal(err)
	}
	if l.Version != "2.1.0" || len(l.Runs) != 1 {
		t.Fatalf("version %q, %d runs; want 2.1.0, 1 run", l.Version, len(l.Runs))
	}
	run := l.Runs[0]
	if run.Tool.Driver.Name != "boardc" {
		t.Errorf("driver %q, want boardc", run.Tool.Driver.Name)
	}
	index := map[string]int{}
	for i, r := range run.Tool.Driver.Rules {
		index[r.ID] = i
		if r.Name == "" || r.FullDescription.Text == "" || r.ShortDescription.Text == "" {
			t.Errorf("rule %s: name %q, no description", r.ID, r.Name)
		}
	}
	codes := []string{diag.Parse.ID, diag.Schema.ID, diag.Unknown.ID, diag.Missing.ID, diag.Reference.ID}
	for _, c := range check.All() {
		codes = append(codes, c.ID)
	}
	for _, c := range codes {
		if _, ok := index[c]; !ok {
			t.Errorf("no rule %s", c)
		}
	}
	if results >= 0 && len(run.Results) != results {
		t.Errorf("%d results, want %d", len(run.Results), results)
	}
	for _, r := range run.Results {
		if i, ok := index[r.RuleID]; !ok || i != r.RuleIndex {
			t.Errorf("result of rule %q: index %d, want %d", r.RuleID, r.RuleIndex, i)
		}
		if r.Message.Text == "" || len(r.Locations) != 1 {
			t.Errorf("result %s: message %q, %d locations", r.RuleID, r.Message.Text, len(r.Locations))
			continue
		}
		p := r.Locations[0].PhysicalLocation
		if p.ArtifactLocation.URI == "" {
			t.Errorf("result %s: no file", r.RuleID)
		}
		if strings.HasSuffix(p.ArtifactLocation.URI, ".cue") && (p.Region == nil || p.Region.StartLine <= 0 || p.Region.StartColumn <= 0) {
			t.Errorf("result %s in %s: no line and column", r.RuleID, p.ArtifactLocation.URI)
		}
		for _, rl := range r.RelatedLocations {
			if rl.Message.Text == "" || rl.PhysicalLocation.Region == nil {
				t.Errorf("result %s: related location without a message or region", r.RuleID)
			}
		}
	}
}

// tinyBoard is a minimal valid standalone board.
const tinyBoard = "package tiny\n" + synth.Tiny

// TestSARIFGolden pins the bytes of a SARIF log, testdata/sarif.json, on
// a fixed set of rules and diagnostics that take every branch: notes with
// and without a position, a diagnostic without a position, one with a
// line and no column, an absolute path (a file URI), a path to escape,
// text with HTML metacharacters, every level and a code no rule lists.
func TestSARIFGolden(t *testing.T) {
	rs := []rule{
		{"BC0001", "parse", "A file could not be read.", diag.Error},
		{"BC0002", "schema", "A value violates the schema.", diag.Error},
		{code: "BC0900", name: "nodoc", severity: diag.Warning},
		{code: "BC0901", name: "info", doc: "An info rule.", severity: diag.Info},
	}
	l := diag.List{
		{
			Pos: ir.Pos{File: "tiny/board.cue", Line: 23, Col: 12}, Severity: diag.Error, Code: "BC0002",
			Message: `soc.masters.dma0.dmaBits: conflicting values "32" and int`, Ref: "soc.masters.dma0.dmaBits",
			Notes: []diag.Note{
				{Pos: ir.Pos{File: "schema/boardc.cue", Line: 436, Col: 15}, Message: "constraint declared in the schema"},
				{Message: "a note without a position"},
				{Pos: ir.Pos{File: "tiny/soc.cue"}, Message: "a note in a file, without a line"},
			},
		},
		{Pos: ir.Pos{File: "nosuch"}, Severity: diag.Error, Code: "BC0001", Message: "nosuch: no such file or directory"},
		{Pos: ir.Pos{File: "dir with space/a#b%c.cue", Line: 4}, Severity: diag.Warning, Code: "BC0900", Message: "<b> & </b>", Ref: "policy.irqs[2]"},
		{Pos: ir.Pos{File: "/abs/board.cue", Line: 1, Col: 1}, Severity: diag.Info, Code: "BC0901", Message: "info"},
		{Severity: diag.Warning, Code: "BC0999", Message: "a code without a rule, and no position",
			Notes: []diag.Note{{Pos: ir.Pos{File: "tiny/board.cue", Line: 2, Col: 1}, Message: "related"}}},
		{Pos: ir.Pos{File: "tiny/board.cue", Line: 7, Col: 3}, Severity: diag.Error, Code: "BC0999", Message: "the same code again"},
	}
	var got bytes.Buffer
	if err := printSARIF(&got, sarifReport(rs, l)); err != nil {
		t.Fatal(err)
	}
	rep, err := sarif.FromBytes(got.Bytes(), sarif.WithStrictValidation())
	if err != nil {
		t.Fatalf("parsing the SARIF log: %v", err)
	}
	if err := rep.Validate(); err != nil {
		t.Fatalf("the SARIF 2.1.0 schema rejects the log: %v\n%s", err, got.String())
	}
	file := filepath.Join("testdata", "sarif.json")
	if golden.Update() {
		if err := os.WriteFile(file, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", file, diff)
	}
}
