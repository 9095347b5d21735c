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

// onSoCName is the definition a board of the shape onSoC reaches #Board's
// fields through (onSoC.mastersOf): #Board's fields but soc, each
// regular. No CUE source can name it: the dot makes it no identifier.
const onSoCName = "#boardc.board"

// boardScope is #Board's fields but soc, compiled once per context for
// the boards of the shape onSoC: scope holds the definition onSoCName, in
// whose scope such a board is built, and fields lists them, with whether
// #Board's field is regular (a board that leaves it out has it).
type boardScope struct {
	scope  cue.Value
	fields map[string]bool
	// order lists the regular fields in #Board's order.
	order []string
}

// onSoCScope returns the context's boardScope, made on first use.
func (l *Loader) onSoCScope() (*boardScope, error) {
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
			if name == "soc" {
				continue
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
	f.Decls[0].(*ast.Field).Label.(*ast.Ident).Name = onSoCName
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
// names of a board and every regular field of #Board, or false when one of
// names is not #Board's.
func (bs *boardScope) refs(names []string) ([]ast.Decl, []string, bool) {
	all := append([]string(nil), bs.order...)
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
		decls = append(decls, &ast.Field{Label: ast.NewIdent(n), Value: ast.NewSel(&ast.Ident{Name: onSoCName}, n)})
	}
	return decls, all, true
}
