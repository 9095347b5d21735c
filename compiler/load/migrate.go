package load

import (
	"fmt"
	"os"
	"strconv"

	"cuelang.org/go/cue"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/schema"
)

// Migration is what Migrate changed in one file.
type Migration struct {
	// Data is the file's new content, cue fmt-formatted; nil when nothing
	// changed.
	Data []byte
	// Changes say what changed, one line each, as file:line: text.
	Changes []string
}

// Migrate rewrites the description at path (a board directory or .cue
// file), written for schema version 1, to the current version. It
// evaluates the description without the schema to find what version 1
// left implicit, then edits the syntax of the files that state it:
//
//   - the struct that states coherent: true for a coherent bus without a
//     masters field gets masters: "all", what version 1 read when masters
//     was left out (in an SoC package the board imports, too, and once for
//     a struct that several buses share);
//   - a schema: 1 becomes the current version.
//
// It returns the migration of each file that changes, by file name,
// formatted as cue fmt formats it; nothing is written. A description that
// does not evaluate comes back with its diagnostics.
func (l *Loader) Migrate(path string) (map[string]*Migration, diag.List) {
	inst, p, ds := l.instance(path)
	if inst == nil {
		return nil, ds
	}
	ctx, _, err := l.context()
	if err != nil {
		return nil, l.pathError(path, err.Error())
	}
	data := ctx.BuildInstance(inst)
	l.spend(inst)
	if err := data.Err(); err != nil {
		return nil, p.fromCUE(err, cue.Value{}, diag.Parse.ID)
	}
	// Where the edits go: the position of each coherent: true to complete,
	// and of a schema: 1.
	edits := map[string][]token.Pos{}
	for _, bus := range implicitAll(data) {
		v := data.LookupPath(cue.ParsePath(bus + ".coherency.coherent"))
		for _, c := range conjuncts(v) {
			if pos := c.Pos(); pos.IsValid() {
				edits[pos.Filename()] = append(edits[pos.Filename()], pos)
			}
		}
	}
	var version token.Pos
	if v := data.LookupPath(cue.ParsePath("schema")); v.Exists() {
		if n, err := v.Int64(); err == nil && n == 1 {
			version = v.Pos()
		}
	}
	files := map[string]bool{}
	for f := range edits {
		files[f] = true
	}
	if version.IsValid() {
		files[version.Filename()] = true
	}
	out := map[string]*Migration{}
	for file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, l.pathError(file, describeStatErr(err))
		}
		m, err := migrateFile(p.convert(file, 0, 0).File, src, edits[file], version)
		if err != nil {
			return nil, l.pathError(file, err.Error())
		}
		if m.Data != nil {
			out[file] = m
		}
	}
	return out, nil
}

// conjuncts returns the values v is the unification of, or v itself.
func conjuncts(v cue.Value) []cue.Value {
	if op, args := v.Expr(); op == cue.AndOp {
		return args
	}
	return []cue.Value{v}
}

// migrateFile edits one file: masters: "all" into each struct holding a
// field at one of coherent, the current version at version.
func migrateFile(name string, src []byte, coherent []token.Pos, version token.Pos) (*Migration, error) {
	f, err := parser.ParseFile(name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	m := &Migration{}
	// at reports whether p, the position of a value the evaluation
	// found, lies within n, however the file lays n out (a field's value
	// may stand on the lines after its label).
	at := func(n ast.Node, p token.Pos) bool {
		return p.IsValid() && n.Pos().Offset() <= p.Offset() && p.Offset() <= n.End().Offset()
	}
	ast.Walk(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if lit, ok := n.Value.(*ast.BasicLit); ok && labelName(n.Label) == "schema" && at(n, version) {
				lit.Value = strconv.Itoa(schema.Version)
				m.Changes = append(m.Changes, fmt.Sprintf("%s:%d: schema: %d", name, lit.Pos().Line(), schema.Version))
			}
		case *ast.StructLit:
			if !needsMasters(n, coherent, at) {
				return true
			}
			field := &ast.Field{Label: ast.NewIdent("masters"), Value: ast.NewString("all")}
			if n.Lbrace.Line() == n.Rbrace.Line() {
				ast.SetRelPos(field, token.Blank) // {coherent: true, ..., masters: "all"}
			} else {
				ast.SetRelPos(field, token.Newline)
			}
			n.Elts = append(n.Elts, field)
			m.Changes = append(m.Changes, fmt.Sprintf(`%s:%d: masters: "all"`, name, n.Pos().Line()))
		}
		return true
	}, nil)
	if len(m.Changes) == 0 {
		return m, nil
	}
	out, err := format.Node(f)
	if err != nil {
		return nil, err
	}
	m.Data = out
	return m, nil
}

// needsMasters reports whether s has a field coherent whose value is at
// one of the positions and no field masters.
func needsMasters(s *ast.StructLit, coherent []token.Pos, at func(ast.Node, token.Pos) bool) bool {
	found, masters := false, false
	for _, e := range s.Elts {
		fd, ok := e.(*ast.Field)
		if !ok {
			continue
		}
		switch labelName(fd.Label) {
		case "coherent":
			for _, p := range coherent {
				if at(fd, p) {
					found = true
				}
			}
		case "masters":
			masters = true
		}
	}
	return found && !masters
}

// labelName returns a field label's name, or "" for a label that is not a
// plain identifier or string.
func labelName(l ast.Label) string {
	name, _, err := ast.LabelName(l)
	if err != nil {
		return ""
	}
	return name
}

// Format formats CUE source as cue fmt does (boardc import writes its
// drafts through it).
func Format(src []byte) ([]byte, error) {
	return format.Source(src)
}
