package load

import (
	"reflect"
	"testing"

	"cuelang.org/go/cue/ast"
)

// The schema file carries no position at all, so that a value's position
// is never the schema's.
func TestInjectedHasNoPositions(t *testing.T) {
	inj, err := newInjected()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range inj.decls {
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
