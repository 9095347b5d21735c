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

// boardScope returns the context's boardScope, made on first use from
// the Loader's boardSyntax; an error when the schema's #Board is not
// plain fields that refer to no other of its fields, which every
// description is then unified with.
func (l *Loader) boardScope() (*boardScope, error) {
	if l.scope != nil {
		return l.scope, nil
	}
	ctx, _, err := l.context()
	if err != nil {
		return nil, err
	}
	if l.syntax == nil {
		syn, err := parseBoardSyntax(l.schema)
		l.syntax = &syn
		l.syntax.err = err
	}
	if l.syntax.err != nil {
		return nil, l.syntax.err
	}
	v := ctx.BuildFile(l.syntax.file, cue.Scope(l.schemaValue))
	if err := v.Err(); err != nil {
		return nil, err
	}
	l.scope = &boardScope{scope: v, fields: l.syntax.fields, order: l.syntax.order}
	return l.scope, nil
}

// boardSyntax is the file a boardScope is compiled from, the definition
// scopeName, with the names of #Board's fields: made once per Loader,
// compiled in each of its contexts. err is why it could not be made.
type boardSyntax struct {
	file   *ast.File
	fields map[string]bool
	order  []string
	err    error
}

// parseBoardSyntax makes the boardSyntax of the schema schemaFile: a
// regular field of #Board is #Board's (#Board.name), the value the
// schema already evaluated; an optional one, which CUE does not let a
// reference select, its expression, made regular.
func parseBoardSyntax(schemaFile *ast.File) (boardSyntax, error) {
	syn := boardSyntax{fields: map[string]bool{}}
	var elts []ast.Decl
	for _, d := range schemaFile.Decls {
		f, ok := d.(*ast.Field)
		if !ok {
			continue
		}
		if name, _, _ := ast.LabelName(f.Label); name != "#Board" {
			continue
		}
		s, ok := f.Value.(*ast.StructLit)
		if !ok {
			return syn, fmt.Errorf("embedded schema: #Board is not a struct")
		}
		for _, e := range s.Elts {
			bf, ok := e.(*ast.Field)
			if !ok {
				return syn, fmt.Errorf("embedded schema: #Board holds a %T", e)
			}
			name, _, err := ast.LabelName(bf.Label)
			if err != nil {
				return syn, err
			}
			if refersWithin(bf.Value, s) {
				// In a description built with the scope, it would see
				// #Board's field, not the description's.
				return syn, fmt.Errorf("embedded schema: #Board's field %s refers to another of its fields", name)
			}
			// A required field (name!) is referenced as a regular one:
			// a board that leaves it out is then not concrete there.
			regular := bf.Constraint != token.OPTION
			if regular && !syn.fields[name] {
				syn.order = append(syn.order, name)
			}
			syn.fields[name] = syn.fields[name] || regular
			value := bf.Value
			if regular {
				value = ast.NewSel(ast.NewIdent("#Board"), name)
			}
			elts = append(elts, &ast.Field{Label: ast.NewIdent(name), Value: value})
		}
	}
	// Printed and parsed again: the schema's identifiers are resolved in
	// its own file, these in the schema's scope (cue.Scope).
	text, err := format.Node(&ast.File{Decls: []ast.Decl{&ast.Field{Label: ast.NewIdent("#B"), Value: &ast.StructLit{Elts: elts}}}})
	if err != nil {
		return syn, err
	}
	file, err := parser.ParseFile(schema.Filename, text)
	if err != nil {
		return syn, err
	}
	ast.Walk(file, func(n ast.Node) bool {
		clearPositions(n)
		return true
	}, nil)
	file.Decls[0].(*ast.Field).Label.(*ast.Ident).Name = scopeName
	syn.file = file
	return syn, nil
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
