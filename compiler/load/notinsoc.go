package load

import (
	"fmt"
	"sort"
	"strings"

	"cuelang.org/go/cue"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// notInSoC returns "masters.KEY" or "buses.KEY" when path is a missing
// field below a master or bus that the description gives no node at all:
// an element the board adds facts to but the SoC does not declare, most
// often a misspelt key. It returns "" otherwise.
func notInSoC(data cue.Value, path []string) string {
	if len(path) < 4 || path[0] != "soc" || (path[1] != "masters" && path[1] != "buses") || !data.Exists() {
		return ""
	}
	elem := data.LookupPath(cue.MakePath(cue.Str("soc"), cue.Str(path[1]), selector(path[2])))
	if !elem.Exists() || elem.LookupPath(cue.ParsePath("node")).Exists() {
		return ""
	}
	return path[1] + "." + path[2]
}

// notInSoCDiag reports the element key ("masters.eht0") that only the
// board declares, at the board's own key, with the closest key that has a
// node.
func (p *positions) notInSoCDiag(data cue.Value, key string) diag.Diagnostic {
	kind, name, _ := strings.Cut(key, ".")
	pos, _ := p.pathPos(data, []string{"soc", kind, name})
	d := diag.Diagnostic{
		Pos: pos, Severity: diag.Error, Code: CodeNotInSoC, Ref: ir.Ref("soc." + kind).Field(name),
		Message: fmt.Sprintf("soc.%s.%s: not declared by the SoC", kind, name),
	}
	var known []string
	if it, err := data.LookupPath(cue.MakePath(cue.Str("soc"), cue.Str(kind))).Fields(); err == nil {
		for it.Next() {
			if it.Value().LookupPath(cue.ParsePath("node")).Exists() {
				known = append(known, it.Selector().Unquoted())
			}
		}
	}
	if best := closest(name, known); best != "" {
		d.Message += fmt.Sprintf("; did you mean %s?", best)
	}
	what, fields := "master", "node, compatible, bus and dmaBits"
	if kind == "buses" {
		what, fields = "bus", "node, cell counts and coherency"
	}
	d.Notes = append(d.Notes, diag.Note{Message: fmt.Sprintf(
		"a board adds facts to a %s its SoC declares (with %s); a new %s belongs in the SoC's soc.%s", what, fields, what, kind)})
	return d
}

// closest returns the element of known nearest to name by edit distance,
// when it is near enough to be a misspelling, or "".
func closest(name string, known []string) string {
	sort.Strings(known)
	best, bestD := "", len(name)/2+2
	for _, k := range known {
		if d := editDistance(name, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
