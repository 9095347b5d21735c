package audit

import (
	"slices"
	"strings"
	"testing"
)

// TestDraw: the sample is the same for one seed, another for another,
// and takes at most perClass findings of each class.
func TestDraw(t *testing.T) {
	var fs []Finding
	for i := range 30 {
		fs = append(fs, Finding{Class: Bounce, Severity: Warning, Board: string(rune('a'+i%26)) + ".dts", Path: "/n" + string(rune('a'+i%26)) + strings.Repeat("x", i/26)})
	}
	fs = append(fs, Finding{Class: Coherency, Severity: Error, Board: "z.dts", Path: "/c"})
	a, b := Draw(fs, 10, 1), Draw(slices.Clone(fs), 10, 1)
	if !slices.EqualFunc(a, b, func(x, y Finding) bool { return x.Key() == y.Key() }) {
		t.Error("two draws with one seed differ")
	}
	if len(a) != 11 || a[0].Class != Coherency {
		t.Errorf("draw = %d findings, first %s; want the coherency one and ten bounce", len(a), a[0].Class)
	}
	if c := Draw(fs, 10, 2); slices.EqualFunc(a, c, func(x, y Finding) bool { return x.Key() == y.Key() }) {
		t.Error("seeds 1 and 2 draw the same sample")
	}
}
