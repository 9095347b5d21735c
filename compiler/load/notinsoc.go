package load

import (
	"fmt"
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
		Pos: pos, Severity: diag.Error, Code: diag.NotInSoC.ID, Ref: ir.Ref("soc." + kind).Field(name),
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
	if best := diag.Closest(name, known); best != "" {
		d.Message += fmt.Sprintf("; did you mean %s?", best)
	}
	what, fields := "master", "node, compatible, bus and dma"
	if kind == "buses" {
		what, fields = "bus", "node, cell counts and coherency"
	}
	d.Notes = append(d.Notes, diag.Note{Message: fmt.Sprintf(
		"a board adds facts to a %s its SoC declares (with %s); a new %s belongs in the SoC's soc.%s", what, fields, what, kind)})
	return d
}
