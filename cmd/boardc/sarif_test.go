package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/check"
	"boardc.dev/boardc/compiler/diag/sarif"
	"boardc.dev/boardc/compiler/diag/sarif/sariftest"
	"boardc.dev/boardc/internal/synth"
)

// tinyBoard is a minimal valid standalone board.
const tinyBoard = "package tiny\n" + synth.Tiny

// writePackage writes a board package of files below dir.
func writePackage(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSARIF checks that --format=sarif prints a SARIF 2.1.0 log that the
// SARIF 2.1.0 JSON schema accepts, with boardc's version, a rule with
// help per code and results located in the user's files; infos only
// with -v, and counted either way.
func TestSARIF(t *testing.T) {
	dir := t.TempDir()
	// A master with dmaBits as a string: an error with notes; a path that
	// does not exist: an error without a line.
	bad := filepath.Join(dir, "bad")
	writePackage(t, bad, map[string]string{"board.cue": strings.Replace(tinyBoard, "dmaBits: 32", `dmaBits: "32"`, 1)})
	for _, tc := range []struct {
		args    []string
		exit    int
		results int
		infos   int // in the run's properties; -1: any number above 0
	}{
		{[]string{"vet", "--format=sarif", bad, filepath.Join(dir, "nosuch")}, exitDiags, 2, 0},
		{[]string{"build", "--format=sarif", "-o", filepath.Join(dir, "out"), bad}, exitDiags, 1, 0},
		// A good board: its infos are counted, not listed.
		{[]string{"vet", "--format=sarif", "../../boards/espressobin"}, exitOK, 0, -1},
		// With -v they are results of level note.
		{[]string{"vet", "-v", "--format=sarif", "../../boards/espressobin"}, exitOK, -1, -1},
	} {
		var stdout, stderr bytes.Buffer
		if code := runWith(tc.args, &stdout, &stderr); code != tc.exit {
			t.Fatalf("boardc %v: exit %d, want %d\nstderr:\n%s", tc.args, code, tc.exit, stderr.String())
		}
		if err := sariftest.Validate(stdout.Bytes()); err != nil {
			t.Fatalf("boardc %v: the SARIF 2.1.0 schema rejects the log: %v\n%s", tc.args, err, stdout.String())
		}
		l := checkSARIF(t, stdout.Bytes(), tc.results)
		p := l.Runs[0].Properties
		switch {
		case tc.infos >= 0 && p.Infos != tc.infos, tc.infos < 0 && p.Infos == 0:
			t.Errorf("boardc %v: %d infos counted, want %d", tc.args, p.Infos, tc.infos)
		}
		notes := 0
		for _, r := range l.Runs[0].Results {
			if r.Level == "note" {
				notes++
			}
		}
		if notes != p.Infos-p.HiddenInfos {
			t.Errorf("boardc %v: %d results of level note, %d infos of which %d hidden", tc.args, notes, p.Infos, p.HiddenInfos)
		}
	}
}

// readLog is the part of a SARIF log the tests read back.
type readLog struct {
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name           string `json:"name"`
				Version        string `json:"version"`
				InformationURI string `json:"informationUri"`
				Rules          []struct {
					ID               string `json:"id"`
					Name             string `json:"name"`
					FullDescription  struct{ Text string }
					ShortDescription struct{ Text string }
					Help             struct{ Text, Markdown string }
					HelpURI          string `json:"helpUri"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		OriginalURIBaseIDs map[string]struct {
			URI string `json:"uri"`
		} `json:"originalUriBaseIds"`
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
			PartialFingerprints map[string]string `json:"partialFingerprints"`
		} `json:"results"`
		Properties sarif.Properties `json:"properties"`
	} `json:"runs"`
}

type sarifPhys struct {
	ArtifactLocation struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId"`
	} `json:"artifactLocation"`
	Region *struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
		EndLine     int `json:"endLine"`
		EndColumn   int `json:"endColumn"`
	} `json:"region"`
}

// checkSARIF reads the log back: the driver is boardc at the version
// boardc version prints, every check and loader code is a rule with its
// name, doc, help and help URI, every result names a known rule by id
// and index, has a location and a fingerprint; results pointing into a
// file have a line and column. results < 0 means any number.
func checkSARIF(t *testing.T, data []byte, results int) readLog {
	t.Helper()
	var l readLog
	if err := json.Unmarshal(data, &l); err != nil {
		t.Fatal(err)
	}
	if l.Version != "2.1.0" || len(l.Runs) != 1 {
		t.Fatalf("version %q, %d runs; want 2.1.0, 1 run", l.Version, len(l.Runs))
	}
	run := l.Runs[0]
	if d := run.Tool.Driver; d.Name != "boardc" || d.Version != currentVersion().Boardc || d.InformationURI != homeURL {
		t.Errorf("driver %q version %q at %q, want boardc %q at %q", d.Name, d.Version, d.InformationURI, currentVersion().Boardc, homeURL)
	}
	index := map[string]int{}
	for i, r := range run.Tool.Driver.Rules {
		index[r.ID] = i
		if r.Name == "" || r.FullDescription.Text == "" || r.ShortDescription.Text == "" {
			t.Errorf("rule %s: name %q, no description", r.ID, r.Name)
		}
		if !strings.Contains(r.Help.Text, r.FullDescription.Text) || !strings.Contains(r.Help.Markdown, "**"+r.ID+" "+r.Name+"**") {
			t.Errorf("rule %s: help %q, markdown %q", r.ID, r.Help.Text, r.Help.Markdown)
		}
		if r.HelpURI != homeURL+"/docs/diagnostics.md#"+strings.ToLower(r.ID) {
			t.Errorf("rule %s: help URI %q", r.ID, r.HelpURI)
		}
	}
	for _, c := range check.Codes() {
		if _, ok := index[c.ID]; !ok {
			t.Errorf("no rule %s", c.ID)
		}
	}
	if results >= 0 && len(run.Results) != results {
		t.Errorf("%d results, want %d", len(run.Results), results)
	}
	for _, r := range run.Results {
		if i, ok := index[r.RuleID]; !ok || i != r.RuleIndex {
			t.Errorf("result of rule %q: index %d, want %d", r.RuleID, r.RuleIndex, i)
		}
		if len(r.PartialFingerprints[sarif.FingerprintKey]) == 0 {
			t.Errorf("result %s: no fingerprint", r.RuleID)
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
	return l
}

// TestSARIFBesideText: --sarif FILE writes the log and the text is
// printed as without it; the summary line and the log count the same.
func TestSARIFBesideText(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "ci", "boardc.sarif")
	var plain, stdout, stderr bytes.Buffer
	if code := runWith([]string{"vet", "../../boards/espressobin"}, &stdout, &plain); code != exitOK {
		t.Fatalf("vet: exit %d\n%s", code, plain.String())
	}
	if code := runWith([]string{"vet", "--sarif", file, "../../boards/espressobin"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("vet --sarif: exit %d\n%s", code, stderr.String())
	}
	if stderr.String() != plain.String() || stdout.Len() > 0 {
		t.Errorf("with --sarif: stdout %q, stderr\n%s\nwant nothing and\n%s", stdout.String(), stderr.String(), plain.String())
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := sariftest.Validate(data); err != nil {
		t.Fatalf("the SARIF 2.1.0 schema rejects the log: %v", err)
	}
	p := checkSARIF(t, data, 0).Runs[0].Properties
	m := regexp.MustCompile(`: (\d+) errors, (\d+) warnings, (\d+) infos \(-v lists them\);`).FindStringSubmatch(plain.String())
	if m == nil {
		t.Fatalf("no summary line with hidden infos:\n%s", plain.String())
	}
	if strconv.Itoa(p.Errors) != m[1] || strconv.Itoa(p.Warnings) != m[2] || strconv.Itoa(p.Infos) != m[3] || p.HiddenInfos != p.Infos {
		t.Errorf("the log counts %+v, the summary line %v", p, m[1:])
	}

	// Beside --format=json, and to stdout beside the text.
	stdout.Reset()
	if code := runWith([]string{"vet", "--format=json", "--sarif", file, "../../boards/espressobin"}, &stdout, &stderr); code != exitOK || stdout.String() != "[]\n" {
		t.Errorf("--format=json --sarif: exit %d, stdout %q", code, stdout.String())
	}
	stdout.Reset()
	if code := runWith([]string{"vet", "--sarif", "-", "../../boards/espressobin"}, &stdout, &stderr); code != exitOK || sariftest.Validate(stdout.Bytes()) != nil {
		t.Errorf("--sarif -: exit %d, stdout %q", code, stdout.String())
	}
	stderr.Reset()
	if code := runWith([]string{"vet", "--format=json", "--sarif", "-", "../../boards/espressobin"}, &stdout, &stderr); code != exitUsage ||
		!strings.Contains(stderr.String(), "--sarif -: stdout holds the --format=json output; name a file") {
		t.Errorf("--format=json --sarif -: exit %d, stderr %q", code, stderr.String())
	}
	// A file that cannot be written is an I/O error.
	stderr.Reset()
	blocker := filepath.Join(dir, "blocker")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if code := runWith([]string{"vet", "--sarif", filepath.Join(blocker, "x.sarif"), "../../boards/espressobin"}, &stdout, &stderr); code != exitIO {
		t.Errorf("--sarif into a file: exit %d, want %d\n%s", code, exitIO, stderr.String())
	}
}
