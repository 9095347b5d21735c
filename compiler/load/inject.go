package load

import (
	"fmt"
	"reflect"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/ast/astutil"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"

	"boardc.dev/boardc/schema"
)

// schemaLet names the schema inside the file added to a description's
// package. A let clause is visible only in the file that declares it, so the
// name cannot meet one of the user's.
const schemaLet = "boardcSchema"

// schemaFile returns a file of package pkg that holds the schema and
// declares each field of #Board at the top of the package, with its
// constraint and its optionality, references to the schema's definitions
// going through a let:
//
//	package pkg
//	let boardcSchema = { <the schema's declarations> }
//	name:   boardcSchema.#BoardName
//	model?: string & !=""
//	soc:    boardcSchema.#SoC
//	...
//
// It also returns the names of those fields. A field that is not one of
// them is not caught by CUE (the package's top level stays open: embedding
// #Board would close only this file's own struct), so Evaluate checks the
// top level against the names.
//
// Added to the description's instance, the file makes building the
// instance one evaluation of the description under the schema, rather than
// an evaluation of the description followed by a second one of its
// unification with #Board: less time, and half the memory on a large SoC.
//
// The file carries no positions. A value's position is then always one the
// user wrote (a value the schema alone gives has none), so lowering reads
// positions from the one evaluated value. Schema positions in errors come
// from the positioned schema, on the path that explains a failure.
//
// The file is parsed afresh for every description: building an instance
// resolves identifiers in its files' syntax in place, so the syntax is not
// shared between descriptions, which Loaders in other goroutines may be
// building.
func schemaFile(pkg string) (*ast.File, map[string]bool, error) {
	// Two parses: the let holds one, the top-level fields are taken from
	// the other, so that no syntax node appears twice in the file.
	inLet, err := parser.ParseFile(schema.Filename, schema.Source)
	if err != nil {
		return nil, nil, fmt.Errorf("parsing embedded schema: %v", err)
	}
	top, _ := parser.ParseFile(schema.Filename, schema.Source)

	var decls []ast.Decl
	for _, d := range inLet.Decls {
		switch d.(type) {
		case *ast.Package, *ast.ImportDecl:
			continue
		}
		decls = append(decls, d)
	}
	defs := map[string]bool{}
	var board *ast.StructLit
	for _, d := range top.Decls {
		f, ok := d.(*ast.Field)
		if !ok {
			continue
		}
		name, _, _ := ast.LabelName(f.Label)
		defs[name] = true
		if name == "#Board" {
			board, _ = f.Value.(*ast.StructLit)
		}
	}
	if board == nil {
		return nil, nil, fmt.Errorf("embedded schema: no #Board struct")
	}

	out := &ast.File{Filename: schema.Filename}
	if pkg != "" && pkg != "_" {
		out.Decls = append(out.Decls, &ast.Package{Name: ast.NewIdent(pkg)})
	}
	out.Decls = append(out.Decls, &ast.LetClause{Ident: ast.NewIdent(schemaLet), Expr: &ast.StructLit{Elts: decls}})
	names := map[string]bool{}
	for _, e := range board.Elts {
		f, ok := e.(*ast.Field)
		if !ok {
			continue
		}
		name, isIdent, err := ast.LabelName(f.Label)
		if err != nil || !isIdent {
			return nil, nil, fmt.Errorf("embedded schema: #Board field %v is not an identifier", f.Label)
		}
		names[name] = true
		value := astutil.Apply(f.Value, nil, func(c astutil.Cursor) bool {
			if id, ok := c.Node().(*ast.Ident); ok && defs[id.Name] {
				c.Replace(ast.NewSel(ast.NewIdent(schemaLet), id.Name))
			}
			return true
		}).(ast.Expr)
		out.Decls = append(out.Decls, &ast.Field{Label: ast.NewIdent(name), Constraint: f.Constraint, Value: value})
	}
	ast.Walk(out, func(n ast.Node) bool {
		clearPositions(n)
		return true
	}, nil)
	return out, names, nil
}

var posType = reflect.TypeFor[token.Pos]()

// clearPositions sets every position field of the syntax node n to
// token.NoPos. Position fields differ by node type (Lbrace, NamePos,
// ValuePos, Colon, ...); reflection clears them all, including those of
// node types added to the ast package later.
func clearPositions(n ast.Node) {
	rv := reflect.ValueOf(n)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return
	}
	rv = rv.Elem()
	if rv.Kind() != reflect.Struct {
		return
	}
	for i := range rv.NumField() {
		if f := rv.Field(i); f.Type() == posType && f.CanSet() {
			f.Set(reflect.Zero(posType))
		}
	}
}
