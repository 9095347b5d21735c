package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

const (
	precisionFile = "testdata/precision.json"
	findingsFile  = "testdata/findings.txt"
	// minDecided is how many findings of each class the sample must
	// decide (true or false), all of a class with fewer.
	minDecided = 8
)

// fileLine finds a file:line in a reading: what was read, and where.
var fileLine = regexp.MustCompile(`[A-Za-z0-9_.-]+\.(c|h|dts|dtsi|yaml):[0-9]+`)

// TestPrecision holds the recorded precision sample to the whole-corpus
// report: the sample is the draw (Draw, its seed and count per class) of
// testdata/findings.txt, the report's findings; every finding drawn is
// still found when its boards are audited again, and every finding those
// boards give is in the report; every verdict is read, with a file:line;
// each class decides at least minDecided findings (all of a class with
// fewer) and is at least 80 % precise.
//
// With BOARDC_AUDIT_REPORT naming the JSON report of a whole-corpus run
// (scripts/audit.sh), it checks that run gives testdata/findings.txt
// exactly; with BOARDC_UPDATE=1 as well, it writes findings.txt from the
// run and draws the sample again, keeping the verdicts of the findings
// it draws again (the others are left unread, and fail until read).
func TestPrecision(t *testing.T) {
	s := readSample(t)
	if p := os.Getenv("BOARDC_AUDIT_REPORT"); p != "" {
		checkReport(t, &s, p, os.Getenv("BOARDC_UPDATE") == "1")
		return
	}
	keys := readFindings(t)

	// The sample is the draw of the report.
	drawn := Draw(keys, s.PerClass, s.Seed)
	if len(drawn) != len(s.Findings) {
		t.Errorf("the sample has %d findings, the draw of %s %d: draw again (BOARDC_UPDATE=1 scripts/audit.sh)", len(s.Findings), findingsFile, len(drawn))
	}
	for i := range min(len(drawn), len(s.Findings)) {
		v := s.Findings[i]
		if got, want := (Finding{Class: v.Class, Board: v.Board, Path: v.Path}).Key(), drawn[i].Key(); got != want {
			t.Errorf("sample finding %d is %s, the draw gives %s", i, got, want)
		}
	}
	if len(s.Findings) < 40 {
		t.Errorf("%d findings in the sample, want at least 40", len(s.Findings))
	}

	// Verdicts, read.
	for _, v := range s.Findings {
		if v.Verdict != "true" && v.Verdict != "false" && v.Verdict != "cannot tell" || v.Reading == "" {
			t.Errorf("%s %s %s: verdict %q with reading %q: want true, false or cannot tell, and what was read", v.Class, v.Board, v.Path, v.Verdict, v.Reading)
		} else if !fileLine.MatchString(v.Reading) {
			t.Errorf("%s %s %s: the reading names no file:line", v.Class, v.Board, v.Path)
		}
	}
	size := map[Class]int{}
	for _, f := range keys {
		size[f.Class]++
	}
	prec := s.Precision()
	for c, n := range size {
		p := prec[c]
		if want := min(minDecided, n); int(p[0]+p[1]) < want {
			t.Errorf("%s: %v findings decided, want at least %d", c, p[0]+p[1], want)
		}
		if p[0]+p[1] > 0 && p[2] < 0.8 {
			t.Errorf("%s: precision %.0f %% (%v true, %v false), below 80 %%", c, 100*p[2], p[0], p[1])
		}
	}

	// The findings drawn are still found; the boards audited again give
	// no finding the report lacks.
	root := corpusRoot(t)
	seen := map[string]bool{}
	var srcs []Source
	for _, v := range s.Findings {
		for _, b := range append([]string{v.Board}, v.Also...) {
			if !seen[b] {
				seen[b] = true
				srcs = append(srcs, Source{Root: root, DTS: b})
			}
		}
	}
	sort.Slice(srcs, func(i, j int) bool { return srcs[i].DTS < srcs[j].DTS })
	rep, err := Run(srcs, Options{Kernel: s.Kernel})
	if err != nil {
		t.Fatal(err)
	}
	inReport := map[string]bool{}
	for _, f := range keys {
		inReport[f.Key()] = true
	}
	found := map[string]bool{}
	for _, f := range rep.Findings {
		found[f.Key()] = true
		if !inReport[f.Key()] {
			t.Errorf("%s is found, but %s lacks it: run scripts/audit.sh again", f.Key(), findingsFile)
		}
	}
	for _, v := range s.Findings {
		k := Finding{Class: v.Class, Board: v.Board, Path: v.Path}.Key()
		if !found[k] {
			t.Errorf("the sample's finding %s is no longer found", k)
		}
	}
}

func readSample(t *testing.T) Sample {
	t.Helper()
	var s Sample
	b, err := os.ReadFile(precisionFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func readFindings(t *testing.T) []Finding {
	t.Helper()
	f, err := os.Open(findingsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	keys, err := ReadKeys(f)
	if err != nil {
		t.Fatalf("%s: %v", findingsFile, err)
	}
	return keys
}

// checkReport compares the whole-corpus report at path with
// findings.txt, or with update writes findings.txt from it and draws the
// sample again.
func checkReport(t *testing.T, s *Sample, path string, update bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Kernel   string    `json:"kernel"`
		Findings []Finding `json:"findings"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	var run bytes.Buffer
	header := fmt.Sprintf("boardc audit of %s, driver facts of Linux %s: every finding (class, severity, board, node), ranked", s.Corpus, rep.Kernel)
	if err := WriteKeys(&run, header, rep.Findings); err != nil {
		t.Fatal(err)
	}
	if !update {
		old, err := os.ReadFile(findingsFile)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(old, run.Bytes()) {
			t.Errorf("the run at %s differs from %s: read the difference, then BOARDC_UPDATE=1 scripts/audit.sh and read the new findings drawn", path, findingsFile)
		}
		return
	}
	if err := os.WriteFile(findingsFile, run.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	old := map[string]Verdict{}
	for _, v := range s.Findings {
		old[Finding{Class: v.Class, Board: v.Board, Path: v.Path}.Key()] = v
	}
	s.Kernel = rep.Kernel
	s.Report = findingsFile
	s.Findings = nil
	for _, f := range Draw(rep.Findings, s.PerClass, s.Seed) {
		v, ok := old[f.Key()]
		if !ok {
			v = Verdict{Class: f.Class, Board: f.Board, Path: f.Path, Verdict: "cannot tell"}
			v.Also = also(f)
		}
		s.Findings = append(s.Findings, v)
	}
	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(precisionFile, append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// also returns the other boards a finding needs audited with it: the
// board of the same SoC a bounce note names, a Sibling finding's
// siblings.
func also(f Finding) []string {
	var out []string
	for _, e := range f.Evidence {
		// "BOARD, a board of the same SoC (SOC), has RAM up to TOP"
		if b, _, ok := strings.Cut(e.Text, ", a board of the same SoC"); ok && e.Kind == "memory" {
			out = append(out, b)
		}
		if e.Kind == "sibling" {
			// "dma-coherent on PATH of BOARD (SOC)"
			var p, brd, soc string
			if n, _ := fmt.Sscanf(e.Text, "dma-coherent on %s of %s %s", &p, &brd, &soc); n == 3 {
				out = append(out, brd)
			}
		}
	}
	return out
}
