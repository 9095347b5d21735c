package load

import (
	"slices"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/token"

	"boardc.dev/boardc/schema"
)

// evaluateInScope evaluates the description inst with #Board's fields in
// its own value (boardScope): a file of inst's package declares each
// field the description sets, and each regular field of #Board, as that
// field of #Board, so that CUE evaluates the description with the schema
// once, where unifying the evaluated description with #Board evaluates it
// again. It reports false for a description whose top level it cannot
// check this way (plainTopLevel) and for one in error or not concrete:
// Evaluate then unifies it with #Board, as cue vet does, which gives the
// diagnostics.
func (l *Loader) evaluateInScope(ctx *cue.Context, inst *build.Instance) (cue.Value, bool) {
	if l.unifyOnly {
		return cue.Value{}, false
	}
	names, ok := plainTopLevel(inst)
	if !ok {
		return cue.Value{}, false
	}
	bs, err := l.boardScope()
	if err != nil {
		return cue.Value{}, false
	}
	refs, fields, ok := bs.refs(names, true)
	if !ok {
		return cue.Value{}, false
	}
	c := *inst
	c.Files = append(slices.Clone(inst.Files), &ast.File{Filename: schema.Filename, Decls: refs})
	v := ctx.BuildInstance(&c, cue.Scope(bs.scope))
	if v.Err() != nil {
		return cue.Value{}, false
	}
	if !concrete(v, fields) {
		return cue.Value{}, false
	}
	return v, true
}

// concrete reports whether each of v's fields names is concrete and
// valid, as the schema's check of a description requires.
func concrete(v cue.Value, names []string) bool {
	for _, f := range names {
		if v.LookupPath(cue.MakePath(cue.Str(f))).Validate(cue.Concrete(true), cue.Final()) != nil {
			return false
		}
	}
	return true
}

// plainTopLevel returns the names of the regular fields the files of
// inst declare at their top level, and whether that is all they declare
// besides imports, let clauses, definitions and hidden fields, which
// #Board's closedness admits: no embedding, comprehension, pattern,
// computed label, optional or required field. #Board's closedness at the
// top level is then that each of those names is a field of #Board
// (boardScope.refs).
func plainTopLevel(inst *build.Instance) ([]string, bool) {
	var names []string
	for _, f := range inst.Files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.Package, *ast.ImportDecl, *ast.CommentGroup, *ast.Attribute, *ast.LetClause:
			case *ast.Field:
				name, isIdent, err := ast.LabelName(d.Label)
				if err != nil || !plainLabel(d.Label) {
					return nil, false
				}
				if isIdent && (strings.HasPrefix(name, "#") || strings.HasPrefix(name, "_")) {
					continue
				}
				if d.Constraint != token.ILLEGAL {
					return nil, false
				}
				if !slices.Contains(names, name) {
					names = append(names, name)
				}
			default:
				return nil, false
			}
		}
	}
	return names, true
}
