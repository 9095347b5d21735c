package ir_test

import (
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/intree"
)

// TestAllYieldsEveryFact walks the IR of lowered in-tree boards with
// reflect and fails on a fact with a position that All does not yield:
// a fact added to the IR must be added to the walk, or explain, waivers
// and the report never see it.
func TestAllYieldsEveryFact(t *testing.T) {
	for _, name := range []string{"espressobin", "ls2088a-rdb"} {
		t.Run(name, func(t *testing.T) {
			b := intree.Compile(t, filepath.Join("..", "..", "boards", name)).Board
			yielded := map[ir.Pos]bool{}
			refs := map[ir.Ref]bool{}
			for e := range b.All() {
				if refs[e.Ref] {
					t.Errorf("element %s yielded twice", e.Ref)
				}
				refs[e.Ref] = true
				yielded[e.Pos] = true
				for _, f := range e.Facts {
					if !f.Pos.IsValid() || f.Text == "" {
						t.Errorf("%s: fact %+v has no position or no text", e.Ref, f)
					}
					yielded[f.Pos] = true
					for _, p := range f.Parts {
						yielded[p] = true
					}
				}
			}
			n := 0
			positions(reflect.ValueOf(b), "board", map[uintptr]bool{}, func(path string, p ir.Pos) {
				n++
				if !yielded[p] {
					t.Errorf("%s (%s) is a fact All does not yield", path, p)
				}
			})
			if n < 50 {
				t.Errorf("found %d positions in the IR, want the board's facts", n)
			}
		})
	}
}

var posType = reflect.TypeFor[ir.Pos]()

// positions calls fn with every valid ir.Pos reachable from v and the
// path of fields that leads to it, following each pointer once.
func positions(v reflect.Value, path string, seen map[uintptr]bool, fn func(string, ir.Pos)) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		positions(v.Elem(), path, seen, fn)
	case reflect.Struct:
		if v.Type() == posType {
			if p := v.Interface().(ir.Pos); p.IsValid() {
				fn(path, p)
			}
			return
		}
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				positions(v.Field(i), path+"."+f.Name, seen, fn)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			positions(v.Index(i), path+"["+strconv.Itoa(i)+"]", seen, fn)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			positions(v.MapIndex(k), path+"["+k.String()+"]", seen, fn)
		}
	}
}
