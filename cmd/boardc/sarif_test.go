package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"boardc.dev/boardc/compiler/check"
	"boardc.dev/boardc/compiler/diag"
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
	rep := sarifReport(nil)
	rep.Runs[0].AddResult(sarif.NewRuleResult(diag.Parse.ID).WithLevel("fatal").WithMessage(sarif.NewTextMessage("x")))
	if err := rep.Validate(); err == nil {
		t.Error("Validate accepted a result of level fatal")
	}
}

// sarifLog is the part of a SARIF log the test reads back.
type sarifLog struct {
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
	var l sarifLog
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
