package audit

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteText writes the findings, ranked, each with its evidence and the
// change to make (Summary is the line that counts them).
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, f := range r.Findings {
		name := f.Path
		if f.Label != "" {
			name += " (&" + f.Label + ")"
		}
		fmt.Fprintf(&b, "%s [%s] %s: %s\n", f.Severity, f.Class, f.Board, name)
		if f.Source != "" {
			fmt.Fprintf(&b, "  %s: %s\n", f.Source, f.Message)
		} else {
			fmt.Fprintf(&b, "  %s\n", f.Message)
		}
		for _, e := range f.Evidence {
			fmt.Fprintf(&b, "    %s: %s", e.Kind, e.Text)
			if e.Source != "" {
				fmt.Fprintf(&b, " [%s]", e.Source)
			}
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "  change: %s\n", f.Suggest)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Summary says how many boards were audited, how many of them are of an
// SoC family the facts know (the others get no coherency finding), and
// how many findings each class has.
func (r *Report) Summary() string {
	var b strings.Builder
	failed, facts := len(r.Failed()), 0
	for _, br := range r.Boards {
		if br.Family != "" {
			facts++
		}
	}
	fmt.Fprintf(&b, "audit: %d board(s), %d not compiled, %d with SoC interconnect facts; %d finding(s)", len(r.Boards), failed, facts, len(r.Findings))
	counts := r.Counts()
	sep := ": "
	for _, c := range Classes() {
		if counts[c] > 0 {
			fmt.Fprintf(&b, "%s%s %d", sep, c, counts[c])
			sep = ", "
		}
	}
	if r.Kernel != "" {
		fmt.Fprintf(&b, "; driver facts of Linux %s", r.Kernel)
	}
	b.WriteByte('\n')
	return b.String()
}

// jsonReport is the JSON form: the findings and, per board, whether it
// was audited; not the masters.
type jsonReport struct {
	Kernel   string        `json:"kernel"`
	Counts   map[Class]int `json:"counts"`
	Boards   []jsonBoard   `json:"boards"`
	Findings []Finding     `json:"findings"`
}

type jsonBoard struct {
	Board    string `json:"board"`
	Family   string `json:"family,omitempty"`
	Findings int    `json:"findings"`
	Err      string `json:"error,omitempty"`
}

// WriteJSON writes the report as JSON: the kernel series, the counts per
// class, each board with its family and finding count or error, and the
// ranked findings.
func (r *Report) WriteJSON(w io.Writer) error {
	jr := jsonReport{Kernel: r.Kernel, Counts: r.Counts(), Boards: []jsonBoard{}, Findings: r.Findings}
	per := map[string]int{}
	for _, f := range r.Findings {
		per[f.Board]++
	}
	for _, b := range r.Boards {
		jr.Boards = append(jr.Boards, jsonBoard{Board: b.Board, Family: b.Family, Findings: per[b.Board], Err: b.Err})
	}
	if jr.Findings == nil {
		jr.Findings = []Finding{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(jr)
}
