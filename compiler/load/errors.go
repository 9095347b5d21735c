package load

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/load"
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
	undeclared := map[string]bool{}
	disj := map[string]int{} // path -> index in out of its empty disjunction
	for _, e := range errors.Errors(err) {
		d := diag.Diagnostic{Severity: diag.Error, Code: classify(e, code), Message: message(e)}
		path := e.Path()
		// CUE reports a field not allowed at every value below it; the
		// field itself, where the user wrote it, is the finding.
		below := false
		if d.Code == diag.Unknown.ID {
			if f := unknownField(p.schema, path); len(f) < len(path) {
				path, below = f, true
				d.Message = "field not allowed"
				d.Pos, _ = p.pathPos(data, path)
			}
		}
		switch {
		case len(path) > 0 && d.Code == diag.Parse.ID:
			// A package's import path, not a place in the description.
			d.Message = strings.Join(path, ".") + ": " + d.Message
		case len(path) > 0:
			d.Ref = refOf(path)
			d.Message = string(d.Ref) + ": " + d.Message
		}
		if d.Code == diag.Missing.ID {
			if key := notInSoC(data, path); key != "" {
				undeclared[key] = true
				continue
			}
		}
		for _, tp := range append([]token.Pos{e.Position()}, e.InputPositions()...) {
			if !tp.IsValid() || below {
				continue
			}
			if tp.Filename() == schema.Filename {
				if hasSchemaNote(d.Notes) {
					// The first is the constraint itself; the others
					// are the fields enclosing it.
					continue
				}
				d.Notes = appendNote(d.Notes, diag.Note{
					Pos:     ir.Pos{File: schema.Filename, Src: schema.Filename, Line: tp.Line(), Col: tp.Column()},
					Message: "constraint declared in the schema (boardc schema prints it)",
				})
				continue
			}
			at := p.convert(tp.Filename(), tp.Line(), tp.Column())
			switch {
			case !d.Pos.IsValid():
				d.Pos = at
			case d.Code == diag.Conflict.ID && at != d.Pos:
				// Both sides of a conflict, each where the user wrote it.
				d.Notes = appendNote(d.Notes, diag.Note{Pos: at, Message: "the other value is given here"})
			}
		}
		if !d.Pos.IsValid() && code == diag.Parse.ID {
			d.Pos, d.Message = p.filePos(e, d.Message)
		}
		if !d.Pos.IsValid() {
			var missing []string
			d.Pos, missing = p.pathPos(data, e.Path())
			if d.Code == diag.Missing.ID && missing != nil {
				d.Message = strings.Join(missing, ".") + ": required field is missing"
			}
		}
		d = refine(d, path, data)
		if tp := e.Position(); tp.IsValid() {
			d = noModule(d, tp.Filename())
		}
		if d.Code == diag.Unknown.ID {
			d = suggest(d, p.schema, path)
		}
		if i, ok := disj[strings.Join(path, ".")]; ok && !isDisjunction(e) {
			out[i] = foldBranch(out[i], d)
			continue
		}
		if isDisjunction(e) {
			disj[strings.Join(path, ".")] = len(out)
		}
		if key := d.String(); !seen[key] {
			seen[key] = true
			out = append(out, d)
		}
	}
	for key := range undeclared {
		out = append(out, p.notInSoCDiag(data, key))
	}
	if len(out) == 0 {
		out = append(out, diag.Diagnostic{Pos: p.dirPos(), Severity: diag.Error, Code: code, Message: err.Error()})
	}
	out.Sort()
	return out
}

// message formats e's message on one line, with the message of the error
// it wraps, if any (an import that failed says why).
func message(e errors.Error) string {
	format, args := e.Msg()
	msg := fmt.Sprintf(format, args...)
	if u := errors.Unwrap(e); u != nil {
		inner := u.Error()
		if ue, ok := u.(errors.Error); ok {
			inner = message(ue)
		}
		switch {
		case msg == "":
			msg = inner
		case inner != "" && !strings.Contains(msg, inner):
			msg += ": " + inner
		}
	}
	// "2 errors in empty disjunction:" introduces the errors that follow.
	return strings.TrimSuffix(newlines.ReplaceAllString(strings.TrimSpace(msg), " "), ":")
}

var newlines = regexp.MustCompile(`\s*\n\s*`)

// filePos places a load error that CUE reports without a position at line
// 1 of the file it is about: a file excluded from the package (no package
// clause), the second of two packages in one directory, the module file.
func (p *positions) filePos(e errors.Error, msg string) (ir.Pos, string) {
	var nf *load.NoFilesError
	var mp *load.MultiplePackageError
	var pe *fs.PathError
	switch {
	case errors.As(e, &pe):
		return p.convert(pe.Path, 0, 0), fmt.Sprintf("cannot %s the file: %v", pe.Op, pe.Err)
	case errors.As(e, &nf) && nf.Package != nil:
		for _, f := range nf.Package.IgnoredFiles {
			if f.ExcludeReason != nil {
				return p.convert(f.Filename, 1, 1), fmt.Sprintf("the file is not part of the package: %v", f.ExcludeReason)
			}
		}
	case errors.As(e, &mp) && len(mp.Files) > 1:
		return p.convert(filepath.Join(p.dir, mp.Files[1]), 1, 1), msg
	case strings.Contains(msg, "module.cue"):
		if r := moduleRoot(p.dir); r != "" {
			f := filepath.Join(r, "cue.mod", "module.cue")
			if _, err := os.Stat(f); err == nil {
				return p.convert(f, 1, 1), msg
			}
		}
	}
	return ir.Pos{}, msg
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

// refOf spells an error path as a ref: soc.masters.crypto.dmaBits,
// policy.irqs[2].cpus.
func refOf(path []string) ir.Ref {
	var r ir.Ref
	for _, s := range path {
		if n, ok := index(s); ok && r != "" {
			r = r.Index(n)
			continue
		}
		if u, err := strconv.Unquote(s); err == nil {
			s = u
		}
		if r == "" {
			r = ir.TopRef(s)
		} else {
			r = r.Field(s)
		}
	}
	return r
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
		return diag.Unknown.ID
	case strings.Contains(format, "incomplete") || strings.Contains(format, "non-concrete"):
		return diag.Missing.ID
	case fallback == diag.Parse.ID && strings.Contains(format, "conflicting values"):
		// The user's own value fails before the schema is applied: two
		// of its declarations disagree.
		return diag.Conflict.ID
	case fallback == diag.Parse.ID:
		return diag.Parse.ID
	}
	return diag.Schema.ID
}

func appendNote(notes []diag.Note, n diag.Note) []diag.Note {
	for _, o := range notes {
		if o == n {
			return notes
		}
	}
	return append(notes, n)
}
