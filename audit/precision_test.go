package audit

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const precisionFile = "testdata/precision.json"

// TestPrecision checks the recorded precision sample: every finding in
// it is still found (the boards it names are audited again), every
// verdict is read, and each class is at least 80 % precise. With
// BOARDC_UPDATE=1 and BOARDC_AUDIT_REPORT naming the JSON report of a
// whole-corpus run (scripts/audit.sh), it draws the sample again from
// that report, keeping the verdicts of the findings it draws again.
func TestPrecision(t *testing.T) {
	var s Sample
	b, err := os.ReadFile(precisionFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("BOARDC_UPDATE") == "1" && os.Getenv("BOARDC_AUDIT_REPORT") != "" {
		redraw(t, &s, os.Getenv("BOARDC_AUDIT_REPORT"))
		return
	}
	if len(s.Findings) < 40 {
		t.Errorf("%d findings in the sample, want at least 40", len(s.Findings))
	}
	for _, v := range s.Findings {
		if v.Verdict != "true" && v.Verdict != "false" && v.Verdict != "cannot tell" || v.Reading == "" {
			t.Errorf("%s %s %s: verdict %q with reading %q: want true, false or cannot tell, and what was read", v.Class, v.Board, v.Path, v.Verdict, v.Reading)
		}
	}
	for c, p := range s.Precision() {
		if p[0]+p[1] > 0 && p[2] < 0.8 {
			t.Errorf("%s: precision %.0f %% (%v true, %v false), below 80 %%", c, 100*p[2], p[0], p[1])
		}
	}

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
	found := map[string]bool{}
	for _, f := range rep.Findings {
		found[f.Key()] = true
	}
	for _, v := range s.Findings {
		k := Finding{Class: v.Class, Board: v.Board, Path: v.Path}.Key()
		if !found[k] {
			t.Errorf("the sample's finding %s is no longer found", k)
		}
	}
}

// redraw draws the sample from the report at path and writes it,
// keeping the verdicts already read.
func redraw(t *testing.T, s *Sample, path string) {
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
	old := map[string]Verdict{}
	for _, v := range s.Findings {
		old[Finding{Class: v.Class, Board: v.Board, Path: v.Path}.Key()] = v
	}
	s.Kernel = rep.Kernel
	s.Findings = nil
	for _, f := range Draw(rep.Findings, s.PerClass, s.Seed) {
		v, ok := old[f.Key()]
		if !ok {
			v = Verdict{Class: f.Class, Board: f.Board, Path: f.Path, Verdict: "cannot tell"}
			for _, e := range f.Evidence {
				// "BOARD, a board of the same SoC (SOC), has RAM up to TOP"
				if b, _, ok := strings.Cut(e.Text, ", a board of the same SoC"); ok && e.Kind == "memory" {
					v.Also = append(v.Also, b)
				}
				if e.Kind == "sibling" {
					// "dma-coherent on PATH of BOARD (SOC)"
					var p, brd, soc string
					if n, _ := sscanSibling(e.Text, &p, &brd, &soc); n == 3 {
						v.Also = append(v.Also, brd)
					}
				}
			}
		}
		s.Findings = append(s.Findings, v)
	}
	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Clean(precisionFile), append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sscanSibling reads a Sibling finding's evidence text, "dma-coherent on
// PATH of BOARD (SOC)".
func sscanSibling(text string, path, board, soc *string) (int, error) {
	return fmt.Sscanf(text, "dma-coherent on %s of %s %s", path, board, soc)
}
