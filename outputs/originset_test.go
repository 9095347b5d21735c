package outputs_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// TestOriginSet: entries once each, in the order first added, invalid
// ones left out; positions told apart by src:line only, as they print;
// the same origin as merging pairwise with With.
func TestOriginSet(t *testing.T) {
	var s outputs.OriginSet
	var pairwise outputs.Origin
	add := func(o outputs.Origin) {
		s.Add(o)
		pairwise = pairwise.With(o)
	}
	// Past the length from which the set indexes its entries in a map.
	for i := range 20 {
		add(outputs.From(ir.MasterRef(fmt.Sprint("m", i%12)), at(i%15), ir.Pos{}).Named(fmt.Sprint("n", i%3), ""))
	}
	add(outputs.Origin{Refs: []ir.Ref{"", "x"}, Pos: []ir.Pos{{File: "/elsewhere/b.cue", Src: "b.cue", Line: 4}}})
	s.AddRef("y", at(30), at(30))
	pairwise = pairwise.And("y", at(30), at(30))
	got := s.Origin()
	if diff := cmp.Diff(pairwise, got); diff != "" {
		t.Errorf("OriginSet against With (-pairwise +set):\n%s", diff)
	}
	if len(got.Refs) != 14 || got.Refs[0] != "soc.masters.m0" || got.Refs[12] != "x" || len(got.Pos) != 16 || len(got.Names) != 3 {
		t.Errorf("got %d refs %v, %d positions, names %v", len(got.Refs), got.Refs, len(got.Pos), got.Names)
	}
	if got.Pos[4].File != "/x/b.cue" {
		t.Errorf("b.cue:4 is the first position added at that src:line, got %v", got.Pos[4])
	}
	// Adding afterwards leaves what Origin returned as it was.
	s.AddRef("z", at(40))
	if len(got.Refs) != 14 || len(s.Origin().Refs) != 15 {
		t.Errorf("adding changed an origin returned before: %v", got.Refs)
	}
}

// TestOriginSetShares: a set of one origin whose entries are valid and
// distinct returns that origin's slices, so that the lines sharing it
// compare in constant time; appending to the set then copies them.
func TestOriginSetShares(t *testing.T) {
	var refs []ir.Ref
	var pos []ir.Pos
	for i := range 50 {
		refs = append(refs, ir.MasterRef(fmt.Sprint("m", i)))
		pos = append(pos, at(i+1))
	}
	o := outputs.Origin{Refs: refs[:40:50], Pos: pos}
	var s outputs.OriginSet
	s.Add(o)
	s.Add(outputs.Origin{Refs: refs[:3]})
	got := s.Origin()
	if &got.Refs[0] != &refs[0] || &got.Pos[0] != &pos[0] {
		t.Error("the set of one origin copied its slices")
	}
	s.AddRef("extra")
	if refs[40] != ir.MasterRef("m40") {
		t.Errorf("the set wrote into the added origin's array: %v", refs[40])
	}
	if r := s.Origin().Refs; len(r) != 41 || &r[0] == &refs[0] || r[40] != "extra" {
		t.Errorf("after an append: %d refs, shared %t", len(r), &r[0] == &refs[0])
	}
	// Duplicates are not borrowed: the set holds each entry once.
	var d outputs.OriginSet
	d.Add(outputs.Origin{Refs: []ir.Ref{"a", "b", "a"}})
	if got := d.Origin().Refs; !cmp.Equal(got, []ir.Ref{"a", "b"}) {
		t.Errorf("duplicates: %v", got)
	}
}
