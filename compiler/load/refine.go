package load

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/errors"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/schema"
)

// disjunctionRE matches CUE's error introducing the errors of each branch
// of a disjunction that accepted nothing.
var disjunctionRE = regexp.MustCompile(`^\d+ errors in empty disjunction:?$`)

// isDisjunction reports whether e introduces the errors of a disjunction's
// branches, which follow it with the same path.
func isDisjunction(e errors.Error) bool {
	format, args := e.Msg()
	return disjunctionRE.MatchString(strings.TrimSpace(fmt.Sprintf(format, args...)))
}

// foldBranch adds the error of one branch of a disjunction to the
// disjunction's diagnostic, as a note: one mistake, one diagnostic. The
// branch points at the value itself, which becomes the position.
func foldBranch(d, branch diag.Diagnostic) diag.Diagnostic {
	if len(d.Notes) == 0 && branch.Pos.IsValid() {
		d.Pos = branch.Pos
	}
	msg := branch.Message
	if i := strings.Index(msg, ": "); i >= 0 && d.Ref != "" {
		msg = msg[i+2:]
	}
	n := diag.Note{Message: "this alternative: " + msg}
	for _, bn := range branch.Notes {
		if bn.Pos.File == schema.Filename {
			n.Pos = bn.Pos
			break
		}
	}
	d.Notes = appendNote(d.Notes, n)
	return d
}

// keyDefs names the schema definition the keys of each map of the
// description must match.
var keyDefs = []struct {
	parent *regexp.Regexp
	def    string
}{
	{regexp.MustCompile(`^soc\.(masters|buses)$`), "#Key"},
	{regexp.MustCompile(`^soc\.masters\.[^.]+\.irqs$`), "#Key"},
	{regexp.MustCompile(`^soc\.masters\.[^.]+\.netdev$`), "#IfName"},
	{regexp.MustCompile(`^policy\.net$`), "#IfName"},
	{regexp.MustCompile(`^policy\.sysctls$`), "#SysctlKey"},
}

// refine rewords what CUE says in its own terms where the description's
// terms say more: a key that breaks its map's pattern, a schema version
// this boardc does not read, an empty disjunction.
func refine(d diag.Diagnostic, path []string, data cue.Value) diag.Diagnostic {
	d = rewordFreeText(d, path)
	d.Message = shorten(d.Message)
	full := string(refOf(path))
	switch {
	case d.Code == diag.Unknown.ID && len(path) >= 2:
		parent, key := string(refOf(path[:len(path)-1])), path[len(path)-1]
		for _, k := range keyDefs {
			if k.parent.MatchString(parent) {
				d.Message = fmt.Sprintf("%s: the key %s does not match the pattern of keys of %s", full, key, parent)
				d.Notes = append(d.Notes, diag.Note{Message: fmt.Sprintf("keys of %s must match %s (boardc schema prints it)", parent, k.def)})
				return d
			}
		}
	case d.Code == diag.Schema.ID && full == "schema":
		if v, err := data.LookupPath(cue.ParsePath("schema")).Int64(); err == nil && v != schema.Version {
			d = oldVersion(d, v, data)
		}
	case mastersRE.MatchString(full) && strings.Contains(d.Message, "required but not present"):
		d.Code, d.Message = diag.Missing.ID, full+": "+mastersMissing
		d.Notes = append(d.Notes, diag.Note{Message: mastersWas})
	case full == "soc.cpus.clusters" && strings.Contains(d.Message, "required but not present"):
		// clusters may be empty but must be written. Where an enclosing
		// block is missing, that block is what is reported missing, as
		// before clusters could be empty (the same message for soc is
		// then one diagnostic).
		d.Code = diag.Missing.ID
		for _, at := range []string{"soc", "soc.cpus", full} {
			if !data.LookupPath(cue.ParsePath(at)).Exists() || at == full {
				d.Message = at + ": required field is missing"
				break
			}
		}
	case strings.HasSuffix(strings.TrimSuffix(d.Message, ":"), "errors in empty disjunction"):
		d.Message = full + ": the value matches none of the schema's alternatives"
	}
	return d
}

// mastersRE matches the path of a bus's coherency.masters.
var mastersRE = regexp.MustCompile(`^soc\.buses\.[^.]+\.coherency\.masters$`)

// mastersMissing says what to write on a coherent bus that leaves
// coherency.masters out; mastersWas says what the field meant before.
const (
	mastersMissing = `a coherent bus must say which of its masters are coherent: write masters: "verified" (only masters with a coherency fact of their own are marked dma-coherent) or masters: "all" (every master on the bus is marked)`
	mastersWas     = `schema version 1 read a missing masters as "all"; version 2 requires it (boardc migrate writes masters: "all" where version 1 implied it)`
)

// oldVersion rewords the error of a schema field this boardc does not
// read. For version 1 it says what to change: the version, and
// coherency.masters on each coherent bus that leaves it out (version 1
// defaulted it to "all").
func oldVersion(d diag.Diagnostic, v int64, data cue.Value) diag.Diagnostic {
	d.Message = fmt.Sprintf("schema: this boardc reads schema version %d; the description is written for version %d", schema.Version, v)
	if v != 1 {
		return d
	}
	d.Message += fmt.Sprintf(": write schema: %d", schema.Version)
	buses := implicitAll(data)
	if len(buses) > 0 {
		d.Message += `, and masters: "all" in the coherency of ` + strings.Join(buses, ", ") + ` (what version 1 read when it was left out), or masters: "verified" where only some masters are known coherent`
	}
	d.Notes = append(d.Notes, diag.Note{Message: "boardc migrate makes these changes in place"})
	return d
}

// implicitAll returns, sorted, the paths of the coherent buses of data
// whose coherency leaves masters out.
func implicitAll(data cue.Value) []string {
	var out []string
	it, err := data.LookupPath(cue.ParsePath("soc.buses")).Fields()
	if err != nil {
		return nil
	}
	for it.Next() {
		c := it.Value().LookupPath(cue.ParsePath("coherency"))
		if ok, err := c.LookupPath(cue.ParsePath("coherent")).Bool(); err != nil || !ok {
			continue
		}
		if !c.LookupPath(cue.ParsePath("masters")).Exists() {
			out = append(out, "soc.buses."+it.Selector().String())
		}
	}
	sort.Strings(out)
	return out
}

// freeTextRE matches CUE's message for a value outside the schema's free
// text pattern (#Model, #Source, #Reason: one line, no control, line
// separator or bidi control characters), capturing its length bounds.
var freeTextRE = regexp.MustCompile(`out of bound =~"\^\[\^\\\\p\{Cc\}.*\{(\d+),(\d+)\}\$"\)$`)

// rewordFreeText says in words what a free-text pattern asks for.
func rewordFreeText(d diag.Diagnostic, path []string) diag.Diagnostic {
	m := freeTextRE.FindStringSubmatch(d.Message)
	if d.Code != diag.Schema.ID || m == nil {
		return d
	}
	d.Message = fmt.Sprintf("%s: free text must be one line of %s to %s characters, without control, line separator or bidi control characters",
		refOf(path), m[1], m[2])
	return d
}

// quotedRE matches a double-quoted string in a CUE message.
var quotedRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// maxQuoted is the longest quoted value a message prints whole.
const maxQuoted = 80

// shorten cuts every quoted value in msg longer than maxQuoted down to its
// start and its length: a 10 kB model is not worth a 10 kB line, and the
// position already says where it is.
func shorten(msg string) string {
	return quotedRE.ReplaceAllStringFunc(msg, func(q string) string {
		if len(q) <= maxQuoted {
			return q
		}
		cut := maxQuoted - 20
		for cut > 0 && !utf8.RuneStart(q[cut]) {
			cut--
		}
		return fmt.Sprintf("%s…\" (%d bytes)", q[:cut], len(q)-2)
	})
}

// hasSchemaNote reports whether notes already point at a constraint in the
// schema.
func hasSchemaNote(notes []diag.Note) bool {
	for _, n := range notes {
		if n.Pos.File == schema.Filename {
			return true
		}
	}
	return false
}
