package load

import (
	"reflect"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/parser"

	"boardc.dev/boardc/schema"
)

// The schema a description is unified with carries no position at all,
// so that a value's position is never the schema's.
func TestUnpositionedSchema(t *testing.T) {
	f, err := unpositioned()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ast.Walk(f, func(x ast.Node) bool {
		rv := reflect.ValueOf(x).Elem()
		for i := range rv.NumField() {
			if f := rv.Field(i); f.Type() == posType {
				n++
				if p := f.Interface().(interface{ IsValid() bool }); p.IsValid() {
					t.Errorf("%T.%s has a position", x, rv.Type().Field(i).Name)
				}
			}
		}
		return true
	}, nil)
	if n < 100 {
		t.Errorf("only %d position fields seen", n)
	}
}

// A definition declared inside the schema with the name of a top-level
// one shadows it in its struct: the schema SchemaFile prints on a
// package's top-level fields must mean there what the schema as written
// means, in #Board's own fields as in the definitions they refer to. Each
// description gets the verdict of #Board unified with it.
func TestSchemaFileShadowing(t *testing.T) {
	src := []byte(`package schema

#Board: {
	name: #Name
	soc:  #SoC
	policy?: {
		#Name: int
		n?:    #Name
		m?:    [...#Name]
	}
}

#Name: =~"^[a-z]+$"

#SoC: {
	#Name: int & >=0
	id?:   #Name
	ids?:  [...#Name]
	outer?: {
		n?: #Name
	}
}
`)
	for _, c := range []struct {
		desc string
		ok   bool
	}{
		{`name: "abc", soc: {}`, true},
		{`name: "ABC", soc: {}`, false},
		{`name: "abc", soc: id: 3`, true},
		{`name: "abc", soc: ids: [1, 2]`, true},
		{`name: "abc", soc: outer: n: 4`, true},
		{`name: "abc", soc: id: "x"`, false},
		{`name: "abc", soc: id: -1`, false},
		{`name: "abc", soc: {}, policy: n: 3`, true},
		{`name: "abc", soc: {}, policy: m: [3]`, true},
		{`name: "abc", soc: {}, policy: n: "x"`, false},
	} {
		ctx := cuecontext.New()
		board := ctx.CompileBytes(src).LookupPath(cue.MakePath(cue.Def("Board")))
		ref := ctx.CompileString(c.desc).Unify(board).Validate(cue.Concrete(true), cue.Final())
		if (ref == nil) != c.ok {
			t.Fatalf("%s: #Board as written gives %v, the test expects ok=%v", c.desc, ref, c.ok)
		}
		text, err := schemaFile(src, "board")
		if err != nil {
			t.Fatal(err)
		}
		v := ctx.CompileString(string(text) + "\n" + c.desc + "\n")
		if err := v.Validate(cue.Concrete(true), cue.Final()); (err == nil) != c.ok {
			t.Errorf("%s: the printed schema gives %v, #Board as written %v", c.desc, err, ref)
		}
	}
}

// A board that only enables or disables a master takes the SoC's lowered
// master with enabled changed (socTemplate.split), which holds only while
// the schema's enabled is a plain optional bool that nothing else of the
// schema reads: no reference to it, no pattern over #Master's fields.
func TestSchemaEnabledPlain(t *testing.T) {
	f, err := parser.ParseFile(schema.Filename, schema.Source)
	if err != nil {
		t.Fatal(err)
	}
	var patterns int
	for _, d := range f.Decls {
		fd, ok := d.(*ast.Field)
		if !ok {
			continue
		}
		if name, _, _ := ast.LabelName(fd.Label); name != "#Master" {
			continue
		}
		for _, e := range fd.Value.(*ast.StructLit).Elts {
			if mf, ok := e.(*ast.Field); ok && !plainLabel(mf.Label) {
				patterns++
			}
		}
	}
	if patterns > 0 {
		t.Errorf("#Master has %d pattern or computed labels", patterns)
	}
	if refersTo(f, "enabled") {
		t.Error("the schema refers to enabled other than as a field's label")
	}
	v := cuecontext.New().CompileBytes(schema.Source).LookupPath(cue.MakePath(cue.Def("#Master"), cue.Str("enabled").Optional()))
	if _, hasDefault := v.Default(); v.IncompleteKind() != cue.BoolKind || hasDefault || v.IsConcrete() {
		t.Errorf("#Master.enabled is %v, want bool with no default", v)
	}
}
