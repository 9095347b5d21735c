package kernel

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// accuracy is a fixture of catalogue entries checked by reading the
// kernel source: testdata/accuracy-SERIES.json.
type accuracy struct {
	Series string `json:"series"`
	// Method says how the entries were chosen and read.
	Method  string          `json:"method"`
	Entries []accuracyEntry `json:"entries"`
}

// accuracyEntry is one catalogue entry as it was read.
type accuracyEntry struct {
	// Compatible is the compatible looked up; Driver and Probe what the
	// catalogue answered.
	Compatible string `json:"compatible"`
	Driver     string `json:"driver"`
	Probe      string `json:"probe"`
	// Kind and Widths are the catalogue's DMA fact when it was read.
	Kind   DMAKind `json:"kind"`
	Widths []int   `json:"widths,omitempty"`
	// Verdict is "exact" (the fact is what the source does), "partial"
	// (right behaviour, a detail missing or off: a width of a choice, a
	// site) or "contradicted" (the source does otherwise).
	Verdict string `json:"verdict"`
	// Reading is what the reader found, with file:line.
	Reading string `json:"reading"`
}

// The readings of a fixed sample of at least 60 entries hold for the
// shipped catalogue: an entry whose fact the catalogue no longer states as
// it was read fails the test, and the new fact must be read again. The
// test logs the share of exact entries and the contradicted ones; the
// goal is 95 % exact and none contradicted (docs/kernel-facts.md says
// where each series stands).
func TestAccuracy(t *testing.T) {
	files, _ := filepath.Glob("testdata/accuracy-*.json")
	if len(files) == 0 {
		t.Fatal("no accuracy fixture in testdata")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var a accuracy
			if err := json.Unmarshal(data, &a); err != nil {
				t.Fatal(err)
			}
			c, err := Load(a.Series)
			if err != nil {
				t.Fatal(err)
			}
			exact, seen := 0, map[string]bool{}
			var contradicted []string
			for _, e := range a.Entries {
				if seen[e.Compatible] {
					t.Errorf("%s: listed twice", e.Compatible)
				}
				seen[e.Compatible] = true
				if got := e.check(c); got != "" {
					t.Errorf("%s: %s: read it again", e.Compatible, got)
				}
				switch e.Verdict {
				case "exact":
					exact++
				case "partial":
				case "contradicted":
					contradicted = append(contradicted, e.Compatible)
				default:
					t.Errorf("%s: verdict %q, want exact, partial or contradicted", e.Compatible, e.Verdict)
				}
				if !strings.Contains(e.Reading, ":") {
					t.Errorf("%s: the reading cites no file:line", e.Compatible)
				}
			}
			n := len(a.Entries)
			if n < 60 {
				t.Errorf("%d entries read, want at least 60", n)
			}
			t.Logf("kernel %s: %d of %d entries exact (%.1f %%), %d contradicted: %s",
				a.Series, exact, n, 100*float64(exact)/float64(max(n, 1)), len(contradicted), strings.Join(contradicted, ", "))
		})
	}
}

// check returns how the catalogue's current fact differs from the one
// that was read, "" when it does not.
func (e accuracyEntry) check(c *Catalog) string {
	d, _ := c.Lookup([]string{e.Compatible})
	if d == nil {
		return "no longer in the catalogue"
	}
	if d.Name != e.Driver || d.Probe.String() != e.Probe {
		return fmt.Sprintf("now driver %s, probe %s (read: %s, %s)", d.Name, d.Probe, e.Driver, e.Probe)
	}
	w := d.WidthFor(e.Compatible)
	if d.DMA.Kind != e.Kind || !slices.Equal(w, e.Widths) {
		return fmt.Sprintf("now %s %v (read: %s %v)", d.DMA.Kind, w, e.Kind, e.Widths)
	}
	return ""
}
