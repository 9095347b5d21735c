package load

import (
	"slices"
	"strconv"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/token"
)

// onSoC is the shape of a board that adds to an SoC package without
// changing it: its soc is the SoC package's soc, and what the board says
// of it is only about some of its masters, which nothing else refers to. Such a board's SoC is
// evaluated, validated and lowered once for all the boards prepared with
// it (Loader.Prepare), not again in each: see Loader.loadOnSoC.
type onSoC struct {
	// soc is the SoC package's instance.
	soc *build.Instance
	// masters are the keys of the masters the board sets fields of.
	masters []string
	// enabled holds, for a master the board declares once and sets only
	// enabled of, with a literal (what boardc import --soc writes of a
	// master the board's tree disables), that literal.
	enabled map[string]*ast.BasicLit
	// field is the board's field soc: NAME.soc, in file, whose import
	// of the SoC package is spec.
	field *ast.Field
	file  *ast.File
	spec  *ast.ImportSpec
	// fields are the board's other top-level fields, by name.
	fields []string
}

// importOf is a package a file imports, and the spec importing it.
type importOf struct {
	inst *build.Instance
	spec *ast.ImportSpec
}

// shapeOnSoC returns the shape of the board package inst, and whether it
// is one: every top-level declaration of its files is a package clause,
// an import, a comment or a plain field; exactly one field soc is the
// soc of an imported package of the module, one whose masters nothing
// else of it refers to (sharable); any other field soc sets only fields of masters.KEY, without
// referring to soc or masters; and no other field refers to an
// identifier soc. Anything else (an embedding, a comprehension, a let, a
// pattern, a reference into soc) is evaluated whole, as CUE's
// unification defines it.
func (l *Loader) shapeOnSoC(inst *build.Instance) (onSoC, bool) {
	var shape onSoC
	imported := map[string]*build.Instance{}
	for _, imp := range inst.Imports {
		imported[imp.ImportPath] = imp
	}
	for _, f := range inst.Files {
		names := map[string]importOf{}
		for spec := range f.ImportSpecs() {
			p, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return onSoC{}, false
			}
			imp := imported[p]
			if imp == nil {
				imp = imported[strings.SplitN(p, ":", 2)[0]]
			}
			if imp == nil {
				continue // a standard library package
			}
			name := imp.PkgName
			if spec.Name != nil {
				name = spec.Name.Name
			}
			names[name] = importOf{imp, spec}
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.Package, *ast.ImportDecl, *ast.CommentGroup, *ast.Attribute:
			case *ast.Field:
				name, isIdent, err := ast.LabelName(d.Label)
				if err != nil || d.Constraint != token.ILLEGAL || !plainLabel(d.Label) {
					return onSoC{}, false
				}
				if name == "soc" && !isIdent {
					return onSoC{}, false
				}
				if name != "soc" {
					if refersTo(d.Value, "soc") {
						return onSoC{}, false
					}
					if !slices.Contains(shape.fields, name) {
						shape.fields = append(shape.fields, name)
					}
					continue
				}
				if imp, ok := socOf(d.Value, names); ok {
					if shape.soc != nil {
						return onSoC{}, false
					}
					shape.soc, shape.spec, shape.field, shape.file = imp.inst, imp.spec, d, f
					continue
				}
				ms, ok := mastersOnly(d.Value)
				if !ok {
					return onSoC{}, false
				}
				for _, m := range ms {
					shape.masters = append(shape.masters, m.key)
					if lit := enabledOnly(m.value); lit != nil && !slices.Contains(shape.masters[:len(shape.masters)-1], m.key) {
						if shape.enabled == nil {
							shape.enabled = map[string]*ast.BasicLit{}
						}
						shape.enabled[m.key] = lit
					} else {
						delete(shape.enabled, m.key)
					}
				}
			default:
				return onSoC{}, false
			}
		}
	}
	if shape.soc == nil || len(shape.soc.Files) == 0 || !l.sharable(shape.soc) {
		return onSoC{}, false
	}
	return shape, true
}

// sharable reports whether what a board sets of a master of the SoC
// package inst changes nothing else of the SoC: whether nothing else of it
// refers to the masters. It reads the package's files once per Prepare.
func (l *Loader) sharable(inst *build.Instance) bool {
	ok, done := l.sharableSoCs[inst]
	if done {
		return ok
	}
	ok = true
	for _, f := range inst.Files {
		ok = ok && !refersTo(f, "masters") && !refersTo(f, "soc") && aliasesOneMaster(f)
	}
	if l.sharableSoCs == nil {
		l.sharableSoCs = map[*build.Instance]bool{}
	}
	l.sharableSoCs[inst] = ok
	return ok
}

// aliasesOneMaster reports whether every alias and let of f names at most
// one master: an alias is allowed only on a pattern constraint of a field
// masters ([K=_]: M={...}), where it is the master the pattern applies to
// or its key; any other could name the masters together.
func aliasesOneMaster(f *ast.File) bool {
	ok := true
	var visit func(parent string) func(ast.Node) bool
	visit = func(parent string) func(ast.Node) bool {
		return func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Field:
				name, _, _ := ast.LabelName(n.Label)
				if _, pattern := n.Label.(*ast.ListLit); pattern && parent == "masters" {
					if a, isAlias := n.Value.(*ast.Alias); isAlias {
						ast.Walk(a.Expr, visit(""), nil)
					} else if n.Value != nil {
						ast.Walk(n.Value, visit(""), nil)
					}
					return false
				}
				if !plainLabel(n.Label) {
					ast.Walk(n.Label, visit(name), nil)
				}
				if n.Value != nil && ok {
					ast.Walk(n.Value, visit(name), nil)
				}
				return false
			case *ast.Alias, *ast.LetClause:
				ok = false
			case *ast.IndexExpr:
				if lit, isLit := n.Index.(*ast.BasicLit); isLit && (lit.Value == `"masters"` || lit.Value == `"soc"`) {
					ok = false
				}
			}
			return ok
		}
	}
	ast.Walk(f, visit(""), nil)
	return ok
}

// silentOn reports whether the package inst never names the field name,
// in any form: no identifier, label or string of it, no pattern or
// computed label but the pattern of a field masters, no index but by a
// literal, and no import of a package that could. What a board sets of
// that field of a master then changes nothing else of the SoC, and
// nothing of the SoC constrains it but the schema.
func silentOn(inst *build.Instance, name string) bool {
	if len(inst.Imports) > 0 {
		return false
	}
	quoted := strconv.Quote(name)
	for _, f := range inst.Files {
		silent := true
		var visit func(parent string) func(ast.Node) bool
		visit = func(parent string) func(ast.Node) bool {
			return func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Field:
					label, _, _ := ast.LabelName(n.Label)
					if _, pattern := n.Label.(*ast.ListLit); !plainLabel(n.Label) && !(pattern && parent == "masters") {
						silent = false
					}
					ast.Walk(n.Label, visit(""), nil)
					if n.Value != nil {
						ast.Walk(n.Value, visit(label), nil)
					}
					return false
				case *ast.Ident:
					silent = silent && n.Name != name
				case *ast.BasicLit:
					silent = silent && n.Value != quoted
				case *ast.IndexExpr:
					_, lit := n.Index.(*ast.BasicLit)
					silent = silent && lit
				}
				return silent
			}
		}
		ast.Walk(f, visit(""), nil)
		if !silent {
			return false
		}
	}
	return true
}

// plainLabel reports whether l is an identifier or a string, not an
// alias, a pattern or a computed label.
func plainLabel(l ast.Label) bool {
	switch l := l.(type) {
	case *ast.Ident:
		return true
	case *ast.BasicLit:
		return l.Kind == token.STRING
	}
	return false
}

// socOf returns the import whose soc the expression x is (NAME.soc,
// NAME an import of names), and whether there is one.
func socOf(x ast.Expr, names map[string]importOf) (importOf, bool) {
	sel, ok := x.(*ast.SelectorExpr)
	if !ok {
		return importOf{}, false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return importOf{}, false
	}
	if name, _, err := ast.LabelName(sel.Sel); err != nil || name != "soc" {
		return importOf{}, false
	}
	imp, ok := names[id.Name]
	return imp, ok
}

// masterSet is what a board's field soc says of one master.
type masterSet struct {
	key   string
	value *ast.StructLit
}

// mastersOnly returns the masters x sets, where x is a struct of fields
// masters: KEY: {...} and nothing else, each master's struct referring to
// neither soc nor masters.
func mastersOnly(x ast.Expr) ([]masterSet, bool) {
	var sets []masterSet
	ok := fieldsOnly(x, func(name string, v ast.Expr) bool {
		if name != "masters" {
			return false
		}
		return fieldsOnly(v, func(key string, v ast.Expr) bool {
			s, isStruct := v.(*ast.StructLit)
			sets = append(sets, masterSet{key, s})
			return isStruct && !refersTo(v, "soc") && !refersTo(v, "masters")
		})
	})
	return sets, ok && len(sets) > 0
}

// enabledOnly returns the literal s sets enabled to, when that is all s
// sets ({enabled: false}), or nil.
func enabledOnly(s *ast.StructLit) *ast.BasicLit {
	var lit *ast.BasicLit
	n := 0
	if !fieldsOnly(s, func(name string, v ast.Expr) bool {
		n++
		l, ok := v.(*ast.BasicLit)
		lit = l
		return name == "enabled" && ok && (l.Kind == token.TRUE || l.Kind == token.FALSE)
	}) || n != 1 {
		return nil
	}
	return lit
}

// fieldsOnly reports whether x is a struct literal of plain regular
// fields (comments aside), each accepted by f.
func fieldsOnly(x ast.Expr, f func(name string, v ast.Expr) bool) bool {
	s, ok := x.(*ast.StructLit)
	if !ok {
		return false
	}
	for _, d := range s.Elts {
		switch d := d.(type) {
		case *ast.CommentGroup:
		case *ast.Field:
			name, _, err := ast.LabelName(d.Label)
			if err != nil || d.Constraint != token.ILLEGAL || !plainLabel(d.Label) || !f(name, d.Value) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// refersTo reports whether an identifier name appears in x other than as
// the label of a field: a reference, or a selector (conservatively).
func refersTo(x ast.Node, name string) bool {
	found := false
	var visit func(ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if !plainLabel(n.Label) {
				ast.Walk(n.Label, visit, nil)
			}
			if n.Value != nil {
				ast.Walk(n.Value, visit, nil)
			}
			return false
		case *ast.Ident:
			found = found || n.Name == name
		}
		return !found
	}
	ast.Walk(x, visit, nil)
	return found
}

// mastersOf returns the board package inst of the shape onSoC with its
// field soc: NAME.soc narrowed to the masters keys, some of those the
// board sets fields of: soc: masters: {KEY: NAME.soc.masters["KEY"], ...},
// declared after everything else of the board, as the SoC's fields come
// after the board's own in the whole board, so that each field of a
// master keeps its order and position. Each master of keys is then the
// SoC's master unified with what the board says of it, as in the whole
// board (a pattern's alias of the master sees the board's fields), and
// the board's value no longer holds a copy of every other field of the
// SoC, which CUE would evaluate again for each board. Only the master's
// own position differs, which applyOnSoC takes from the SoC. With no
// keys, the import of the SoC package goes too when nothing else of its
// file names it. The declarations refs (boardScope.refs) come last.
func (shape onSoC) mastersOf(inst *build.Instance, keys []string, refs []ast.Decl) *build.Instance {
	sel := shape.field.Value.(*ast.SelectorExpr)
	var elts []ast.Decl
	seen := map[string]bool{}
	for _, key := range keys {
		if seen[key] {
			continue
		}
		seen[key] = true
		ref := &ast.IndexExpr{X: &ast.SelectorExpr{X: sel, Sel: ast.NewIdent("masters")}, Index: ast.NewString(key)}
		elts = append(elts, &ast.Field{Label: ast.NewString(key), Value: ref})
	}
	c := *inst
	c.Files = make([]*ast.File, len(inst.Files))
	for i, f := range inst.Files {
		nf := *f
		if f == shape.file {
			nf.Decls = slices.DeleteFunc(slices.Clone(f.Decls), func(d ast.Decl) bool { return d == shape.field })
			if len(elts) == 0 {
				nf.Decls = dropImport(nf.Decls, sel.X.(*ast.Ident).Name, shape.spec)
			}
		}
		if i == len(inst.Files)-1 && len(elts) > 0 {
			narrowed := &ast.Field{Label: shape.field.Label, Value: ast.NewStruct(&ast.Field{Label: ast.NewIdent("masters"), Value: &ast.StructLit{Elts: elts}})}
			nf.Decls = append(slices.Clone(nf.Decls), narrowed)
		}
		if i == len(inst.Files)-1 {
			nf.Decls = append(slices.Clone(nf.Decls), refs...)
		}
		c.Files[i] = &nf
	}
	return &c
}

// dropImport returns decls without spec, their import of a package
// named name in them, when nothing else of decls refers to name (CUE
// refuses an import that is not used); decls is a copy it may change.
func dropImport(decls []ast.Decl, name string, spec *ast.ImportSpec) []ast.Decl {
	for _, d := range decls {
		if _, isImport := d.(*ast.ImportDecl); !isImport && refersTo(d, name) {
			return decls
		}
	}
	for i, d := range decls {
		if imp, isImport := d.(*ast.ImportDecl); isImport && slices.Contains(imp.Specs, spec) {
			c := *imp
			c.Specs = slices.DeleteFunc(slices.Clone(imp.Specs), func(s *ast.ImportSpec) bool { return s == spec })
			decls[i] = &c
		}
	}
	return slices.DeleteFunc(decls, func(d ast.Decl) bool {
		imp, isImport := d.(*ast.ImportDecl)
		return isImport && len(imp.Specs) == 0
	})
}
