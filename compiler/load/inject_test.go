package load

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/cuecontext"
)

// The schema file carries no position at all, so that a value's position
// is never the schema's.
func TestInjectedHasNoPositions(t *testing.T) {
	inj, err := newInjected()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range append(inj.schema, inj.fields...) {
		ast.Walk(d, func(x ast.Node) bool {
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
	}
	if n < 100 {
		t.Errorf("only %d position fields seen", n)
	}
	for _, name := range []string{"schema", "name", "model", "compatible", "dts", "soc", "memory", "policy", "waivers"} {
		if !inj.names[name] {
			t.Errorf("#Board field %s missing from %v", name, inj.names)
		}
	}
}

// A definition declared inside the schema with the name of a top-level
// one shadows it in its struct: the schema built into a description must
// mean there what the schema as written means, in #Board's own fields as
// in the definitions they refer to. Each description gets the verdict of
// #Board unified with it.
func TestInjectedShadowing(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
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

		inj, err := parseInjected(src, false)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "board.cue")
		if err := os.WriteFile(file, []byte("package board\n\n"+c.desc+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		l := &Loader{schema: inj}
		inst, _, ds := l.instance(file)
		if inst == nil {
			t.Fatalf("%s: %s", c.desc, text(ds))
		}
		if _, err := l.build(inst); (err == nil) != c.ok {
			t.Errorf("%s: the schema built into the description gives %v, #Board as written %v", c.desc, err, ref)
		}
	}
}
