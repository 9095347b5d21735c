package load

import (
	"fmt"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"

	"boardc.dev/boardc/schema"
)

// scopeName is the definition through which a description built in the
// boardScope reaches #Board's fields (boardScope.refs). No CUE source can
// name it: the dot makes it no identifier.
const scopeName = "#boardc.board"

// boardScope is #Board's fields, each regular, compiled once per context
// as the definition scopeName of scope, in whose scope a description is
// built with a reference to each of them among its declarations: CUE
// then evaluates the description with the schema once, where unifying
// the evaluated description with #Board evaluates it again (Evaluate,
// Loader.loadOnSoC). fields lists them, with whether #Board's field is
// regular (a board that leaves it out has it).
type boardScope struct {
	scope  cue.Value
	fields map[string]bool
	// order lists the regular fields in #Board's order.
	order []string
}

// boardScope returns the context's boardScope, made on first use; an
// error when the schema's #Board is not plain fields that refer to no
// other of its fields, which every description is then unified with.
func (l *Loader) boardScope() (*boardScope, error) {
	if l.scope != nil {
		return l.scope, nil
	}
	ctx, _, err := l.context()
	if err != nil {
		return nil, err
	}
	bs := &boardScope{fields: map[string]bool{}}
	var elts []ast.Decl
	for _, d := range l.schema.Decls {
		f, ok := d.(*ast.Field)
		if !ok {
			continue
		}
		if name, _, _ := ast.LabelName(f.Label); name != "#Board" {
			continue
		}
		s, ok := f.Value.(*ast.StructLit)
		if !ok {
			return nil, fmt.Errorf("embedded schema: #Board is not a struct")
		}
		for _, e := range s.Elts {
			bf, ok := e.(*ast.Field)
			if !ok {
				return nil, fmt.Errorf("embedded schema: #Board holds a %T", e)
			}
			name, _, err := ast.LabelName(bf.Label)
			if err != nil {
				return nil, err
			}
			if refersWithin(bf.Value, s) {
				// Apart from the board's value, it would see #Board's
				// field, not the board's.
				return nil, fmt.Errorf("embedded schema: #Board's field %s refers to another of its fields", name)
			}
			// A required field (name!) is referenced as a regular one:
			// a board that leaves it out is then not concrete there.
			regular := bf.Constraint != token.OPTION
			if regular && !bs.fields[name] {
				bs.order = append(bs.order, name)
			}
			bs.fields[name] = bs.fields[name] || regular
			elts = append(elts, &ast.Field{Label: ast.NewIdent(name), Value: bf.Value})
		}
	}
	// Printed and parsed again: the schema's identifiers are resolved in
	// its own file, these in the schema's scope (cue.Scope).
	text, err := format.Node(&ast.File{Decls: []ast.Decl{&ast.Field{Label: ast.NewIdent("#B"), Value: &ast.StructLit{Elts: elts}}}})
	if err != nil {
		return nil, err
	}
	f, err := parser.ParseFile(schema.Filename, text)
	if err != nil {
		return nil, err
	}
	ast.Walk(f, func(n ast.Node) bool {
		clearPositions(n)
		return true
	}, nil)
	f.Decls[0].(*ast.Field).Label.(*ast.Ident).Name = scopeName
	bs.scope = ctx.BuildFile(f, cue.Scope(l.schemaValue))
	if err := bs.scope.Err(); err != nil {
		return nil, err
	}
	l.scope = bs
	return bs, nil
}

// refersWithin reports whether x refers to a field of the struct s (the
// parser resolved every identifier to the scope declaring it).
func refersWithin(x ast.Node, s *ast.StructLit) bool {
	found := false
	ast.Walk(x, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Scope == ast.Node(s) {
			found = true
		}
		return !found
	}, nil)
	return found
}

// refs returns the declarations name: #boardc.board.name for the fields
// names of a description and every regular field of #Board, soc aside
// unless withSoC, and the names of those fields; false when one of names
// is not #Board's.
func (bs *boardScope) refs(names []string, withSoC bool) ([]ast.Decl, []string, bool) {
	var all []string
	for _, n := range bs.order {
		if n != "soc" || withSoC {
			all = append(all, n)
		}
	}
	for _, n := range names {
		regular, ok := bs.fields[n]
		if !ok {
			return nil, nil, false
		}
		if !regular {
			all = append(all, n)
		}
	}
	var decls []ast.Decl
	for _, n := range all {
		decls = append(decls, &ast.Field{Label: ast.NewIdent(n), Value: ast.NewSel(&ast.Ident{Name: scopeName}, n)})
	}
	return decls, all, true
}
