package load

import (
	"fmt"
	"reflect"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/ast/astutil"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"

	"boardc.dev/boardc/schema"
)

// schemaName is the identifier through which the top-level fields refer
// to the schema's definitions: a field of the scope of every build
// (Loader.build), a let clause in the printed file (SchemaFile).
const schemaName = "boardcSchema"

// injected is the schema in the form boardc builds descriptions with (see
// newInjected).
type injected struct {
	// schema holds the schema's declarations, the value of schemaName.
	schema []ast.Decl
	// fields are #Board's fields, for the top of a description's package.
	fields []ast.Decl
	// names are the fields' names.
	names map[string]bool
}

// file returns a file of package pkg that holds head, then the fields.
// The fields are shared by the files of one Loader: building an instance
// resolves identifiers in its files' syntax in place, always to the same
// result, and a Loader builds one instance at a time.
func (s *injected) file(pkg string, head ...ast.Decl) *ast.File {
	f := &ast.File{Filename: schema.Filename}
	if pkg != "" && pkg != "_" {
		f.Decls = append(f.Decls, &ast.Package{Name: ast.NewIdent(pkg)})
	}
	f.Decls = append(f.Decls, head...)
	f.Decls = append(f.Decls, s.fields...)
	return f
}

// scope compiles, in ctx, the scope a build resolves schemaName in: a file
// that declares it, the schema's declarations its value.
func (s *injected) scope(ctx *cue.Context) (cue.Value, error) {
	v := ctx.BuildFile(&ast.File{Filename: schema.Filename, Decls: []ast.Decl{
		&ast.Field{Label: ast.NewIdent(schemaName), Value: &ast.StructLit{Elts: s.schema}},
	}})
	if err := v.Err(); err != nil {
		return cue.Value{}, fmt.Errorf("compiling embedded schema: %v", err)
	}
	return v, nil
}

// newInjected returns the schema as boardc builds it into a description:
// a file added to the description's package declares each field of #Board
// at the package's top level, with its constraint and its optionality, the
// references to the schema's definitions going through schemaName:
//
//	name:   boardcSchema.#BoardName
//	model?: boardcSchema.#Model
//	soc:    boardcSchema.#SoC
//	...
//
// and schemaName is a field of the build's scope, whose value is the
// schema's declarations, parsed once per Loader. Building the instance
// is then one evaluation of the description under the schema, rather than
// an evaluation of the description followed by a second one of its
// unification with #Board: less time, and half the memory on a large SoC.
//
// A top-level field that is not one of #Board's is not caught by CUE: the
// package's top level stays open (#Board embedded in the added file would
// not close it against the other files' fields), so Loader.build checks
// the top level against the names.
//
// Only a reference that resolves to a top-level declaration of the schema
// goes through schemaName: a definition declared inside #Board's fields
// with the name of a top-level one shadows it there, as in the schema as
// written.
//
// Nothing carries a position. A value's position is then always one the
// user wrote (a value the schema alone gives has none), so lowering reads
// positions from the one evaluated value. Schema positions in errors come
// from the positioned schema, on the path that explains a failure.
//
// Each Loader has its own: the syntax is not shared between goroutines.
func newInjected() (*injected, error) { return parseInjected(schema.Source, false) }

// parseInjected returns the schema of source src as newInjected describes
// it, or, when printable is set, with the schema's positions and comments
// kept (for SchemaFile).
func parseInjected(src []byte, printable bool) (*injected, error) {
	// Two parses: the schema's declarations come from one, the top-level
	// fields from the other, so that no syntax node appears twice.
	var opts []parser.Option
	if printable {
		opts = append(opts, parser.ParseComments)
	}
	decls, err := parser.ParseFile(schema.Filename, src, opts...)
	if err != nil {
		return nil, fmt.Errorf("parsing embedded schema: %v", err)
	}
	top, _ := parser.ParseFile(schema.Filename, src, opts...)

	out := &injected{names: map[string]bool{}}
	for _, d := range decls.Decls {
		switch d.(type) {
		case *ast.Package, *ast.ImportDecl:
			continue
		}
		out.schema = append(out.schema, d)
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
		return nil, fmt.Errorf("embedded schema: no #Board struct")
	}
	for _, e := range board.Elts {
		f, ok := e.(*ast.Field)
		if !ok {
			continue
		}
		name, isIdent, err := ast.LabelName(f.Label)
		if err != nil || !isIdent {
			return nil, fmt.Errorf("embedded schema: #Board field %v is not an identifier", f.Label)
		}
		out.names[name] = true
		// The parser resolved every identifier: one whose scope is the
		// file refers to a top-level declaration, one declared in a struct
		// on the way has that struct as its scope, and a label or a
		// selector has none.
		value := astutil.Apply(f.Value, nil, func(c astutil.Cursor) bool {
			if id, ok := c.Node().(*ast.Ident); ok && id.Scope == ast.Node(top) && defs[id.Name] {
				c.Replace(ast.NewSel(ast.NewIdent(schemaName), id.Name))
			}
			return true
		}).(ast.Expr)
		out.fields = append(out.fields, &ast.Field{Label: ast.NewIdent(name), Constraint: f.Constraint, Value: value})
	}
	if !printable {
		for _, d := range append(out.schema, out.fields...) {
			ast.Walk(d, func(n ast.Node) bool {
				clearPositions(n)
				return true
			}, nil)
		}
	}
	return out, nil
}

// SchemaFile returns the text of a file of package pkg that puts the
// schema on the package's top-level fields as boardc builds it into a
// description (see newInjected), the schema's declarations in a let
// clause. Added to a board's directory, it lets `cue vet` and `cue export`
// check the board against the schema in one process, imports and all.
// Unlike boardc, they do not reject a top-level field the schema does not
// define.
func SchemaFile(pkg string) ([]byte, error) {
	if pkg != "_" && !ast.IsValidIdent(pkg) {
		return nil, fmt.Errorf("%q is not a CUE package name", pkg)
	}
	inj, err := parseInjected(schema.Source, true)
	if err != nil {
		return nil, err
	}
	let := &ast.LetClause{Ident: ast.NewIdent(schemaName), Expr: &ast.StructLit{Elts: inj.schema}}
	text, err := format.Node(inj.file(pkg, let))
	if err != nil {
		return nil, err
	}
	head := "// Code generated by boardc schema --package; DO NOT EDIT.\n\n" +
		"// The boardc schema, version " + fmt.Sprint(schema.Version) + ", on the top-level fields of package " + pkg + ".\n" +
		"// With this file in a board's directory, cue vet -c and cue export check\n" +
		"// the board against the schema. Top-level fields the schema does not\n" +
		"// define are not rejected here; boardc rejects them.\n"
	return append([]byte(head), text...), nil
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
