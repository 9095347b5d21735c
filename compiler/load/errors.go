package load

import (
	"fmt"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/token"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/schema"
)

// fromCUE converts a CUE error to diagnostics positioned in the user's
// files. Positions inside the embedded schema are never the primary
// position: where an error has only schema positions (a missing field, a
// field not allowed), the position is found from the error's path in the
// user's own value, data. The schema's constraint becomes a note.
func (p *positions) fromCUE(err error, data cue.Value, code string) diag.List {
	var out diag.List
	seen := map[string]bool{}
	for _, e := range errors.Errors(err) {
		d := diag.Diagnostic{Severity: diag.Error, Code: classify(e, code)}
		format, args := e.Msg()
		d.Message = fmt.Sprintf(format, args...)
		if path := e.Path(); len(path) > 0 {
			d.Message = strings.Join(path, ".") + ": " + d.Message
		}
		for _, tp := range append([]token.Pos{e.Position()}, e.InputPositions()...) {
			if !tp.IsValid() {
				continue
			}
			if tp.Filename() == schema.Filename {
				d.Notes = appendNote(d.Notes, diag.Note{
					Pos:     ir.Pos{File: schema.Filename, Src: schema.Filename, Line: tp.Line(), Col: tp.Column()},
					Message: "constraint declared in the schema (boardc schema prints it)",
				})
				continue
			}
			if !d.Pos.IsValid() {
				d.Pos = p.convert(tp.Filename(), tp.Line(), tp.Column())
			}
		}
		if !d.Pos.IsValid() {
			var missing []string
			d.Pos, missing = p.pathPos(data, e.Path())
			if d.Code == CodeMissing && missing != nil {
				d.Message = strings.Join(missing, ".") + ": required field is missing"
			}
		}
		if key := d.String(); !seen[key] {
			seen[key] = true
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		out = append(out, diag.Diagnostic{Pos: p.dirPos(), Severity: diag.Error, Code: code, Message: err.Error()})
	}
	out.Sort()
	return out
}

// pathPos returns the position of the longest prefix of path that the user's
// value defines and, when that prefix is shorter than path, the path of the
// first field the user did not write.
func (p *positions) pathPos(data cue.Value, path []string) (ir.Pos, []string) {
	if !data.Exists() {
		return p.dirPos(), nil
	}
	for n := len(path); n > 0; n-- {
		sels := make([]cue.Selector, 0, n)
		for _, s := range path[:n] {
			sels = append(sels, selector(s))
		}
		v := data.LookupPath(cue.MakePath(sels...))
		if !v.Exists() {
			continue
		}
		var missing []string
		if n < len(path) {
			missing = path[:n+1]
		}
		if tp := v.Pos(); tp.IsValid() && tp.Filename() != schema.Filename {
			return p.convert(tp.Filename(), tp.Line(), tp.Column()), missing
		}
	}
	if tp := data.Pos(); tp.IsValid() {
		return p.convert(tp.Filename(), tp.Line(), tp.Column()), path[:min(1, len(path))]
	}
	return p.dirPos(), nil
}

// selector turns one element of an error path back into a selector.
func selector(s string) cue.Selector {
	if n, ok := index(s); ok {
		return cue.Index(n)
	}
	if strings.HasPrefix(s, "#") {
		return cue.Def(s)
	}
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			return cue.Str(u)
		}
	}
	return cue.Str(s)
}

func index(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// classify picks the diagnostic code of a CUE error from its message.
func classify(e errors.Error, fallback string) string {
	format, _ := e.Msg()
	switch {
	case strings.Contains(format, "not allowed"):
		return CodeUnknown
	case strings.Contains(format, "incomplete") || strings.Contains(format, "non-concrete"):
		return CodeMissing
	case fallback == CodeLoad:
		return CodeLoad
	}
	return CodeSchema
}

func appendNote(notes []diag.Note, n diag.Note) []diag.Note {
	for _, o := range notes {
		if o == n {
			return notes
		}
	}
	return append(notes, n)
}
