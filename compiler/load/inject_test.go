package load

import (
	"reflect"
	"strings"
	"testing"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/ast/astutil"
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

// The evaluated schema names no scalar definition: each reference is
// replaced by the constraint, and the printed schema keeps the names.
func TestScalarDefinitionsInlined(t *testing.T) {
	inj, err := newInjected()
	if err != nil {
		t.Fatal(err)
	}
	refs := map[string]int{}
	for _, d := range append(inj.schema, inj.fields...) {
		astutil.Apply(d, func(c astutil.Cursor) bool {
			id, ok := c.Node().(*ast.Ident)
			if !ok {
				return true
			}
			if f, ok := c.Parent().Node().(*ast.Field); ok && f.Label == ast.Label(id) {
				return true
			}
			refs[id.Name]++
			return true
		}, nil)
	}
	for _, name := range []string{"#Key", "#CPU", "#DMABits", "#NodePath", "#IRQName", "#U64", "#SysctlValue"} {
		if refs[name] != 0 {
			t.Errorf("%s referenced %d times", name, refs[name])
		}
	}
	for _, name := range []string{"#Master", "#SoC", "#Node"} {
		if refs[name] == 0 {
			t.Errorf("struct definition %s no longer referenced", name)
		}
	}
	text, err := SchemaFile("p")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "bus: #Key") {
		t.Error("the printed schema does not name #Key")
	}
}

// inlineScalars replaces references, not labels, and only definitions
// that mean the same wherever they are written.
func TestInlineScalarsText(t *testing.T) {
	src := `package p

#A: =~"^a$" // a comment
#B: int & >=0 &
	<=3
#C: {x: #A}
#D: #A | #B
#E: string
#E: !=""
#F: =~pattern
pattern: "^f$"
x: #A
y: [...#B]
z: {#A: 1, #B?: 2, #C!: 3}
w: #E
v: #F
`
	want := `package p

#A: =~"^a$" // a comment
#B: int & >=0 &
	<=3
#C: {x: (=~"^a$")}
#D: (=~"^a$") | (int & >=0 &
	<=3)
#E: string
#E: !=""
#F: =~pattern
pattern: "^f$"
x: (=~"^a$")
y: [...(int & >=0 &
	<=3)]
z: {#A: 1, #B?: 2, #C!: 3}
w: #E
v: #F
`
	got, err := inlineScalars([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if _, err := inlineScalars([]byte("#A: \"unterminated\n")); err == nil {
		t.Error("a scanning error is not reported")
	}
}
