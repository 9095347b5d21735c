package audit

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
)

// Verdict is one finding of a precision sample, read against the kernel
// and device-tree sources.
type Verdict struct {
	Class Class  `json:"class"`
	Board string `json:"board"`
	Path  string `json:"path"`
	// Verdict is "true", "false" or "cannot tell".
	Verdict string `json:"verdict"`
	// Reading says what was read and where, and for a false one why the
	// rule went wrong.
	Reading string `json:"reading"`
	// Also are more boards the finding needs audited with it (a
	// Sibling finding's sibling).
	Also []string `json:"also,omitempty"`
}

// Sample is a precision sample: Draw(findings, PerClass, Seed) of a
// whole-corpus run, each finding with its verdict.
type Sample struct {
	Corpus string `json:"corpus"`
	Kernel string `json:"kernel"`
	// Report names the list of the run's findings the sample is drawn
	// from (WriteKeys), Draw says how it was drawn.
	Report   string    `json:"report"`
	Draw     string    `json:"draw"`
	Seed     uint64    `json:"seed"`
	PerClass int       `json:"perClass"`
	Findings []Verdict `json:"findings"`
}

// WriteKeys writes fs, ranked (Sort), one finding a line: class,
// severity, board and node path, after a '#' header line: what a sample
// is drawn from, without the evidence.
func WriteKeys(w io.Writer, header string, fs []Finding) error {
	ranked := slices.Clone(fs)
	Sort(ranked)
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", header)
	for _, f := range ranked {
		fmt.Fprintf(&b, "%s %s %s %s\n", f.Class, f.Severity, f.Board, f.Path)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ReadKeys reads what WriteKeys wrote: findings with their class,
// severity, board and path only.
func ReadKeys(r io.Reader) ([]Finding, error) {
	var out []Finding
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			return nil, fmt.Errorf("line %d: %d fields, want class, severity, board and path", n, len(f))
		}
		out = append(out, Finding{Class: Class(f[0]), Severity: Severity(f[1]), Board: f[2], Path: f[3]})
	}
	return out, sc.Err()
}

// Precision returns, per class, the true and false verdicts of the
// sample and the precision true / (true + false); "cannot tell" counts in
// neither.
func (s *Sample) Precision() map[Class][3]float64 {
	out := map[Class][3]float64{}
	for _, v := range s.Findings {
		p := out[v.Class]
		switch v.Verdict {
		case "true":
			p[0]++
		case "false":
			p[1]++
		}
		if p[0]+p[1] > 0 {
			p[2] = p[0] / (p[0] + p[1])
		}
		out[v.Class] = p
	}
	return out
}

// Draw returns a stratified random sample of fs: for each class, in
// Classes() order, perClass findings (all of them when it has fewer),
// drawn with a PCG generator seeded (seed, seed) from the class's
// findings in ranked order (Sort).
func Draw(fs []Finding, perClass int, seed uint64) []Finding {
	r := rand.New(rand.NewPCG(seed, seed))
	ranked := slices.Clone(fs)
	Sort(ranked)
	var out []Finding
	for _, c := range Classes() {
		var of []Finding
		for _, f := range ranked {
			if f.Class == c {
				of = append(of, f)
			}
		}
		r.Shuffle(len(of), func(i, j int) { of[i], of[j] = of[j], of[i] })
		out = append(out, of[:min(perClass, len(of))]...)
	}
	return out
}
