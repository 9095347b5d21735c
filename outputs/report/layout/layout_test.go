package layout

import (
	"bytes"
	"testing"
)

// TestSVG lays out a graph, and refuses text that is not DOT.
func TestSVG(t *testing.T) {
	svg, err := SVG([]byte(`digraph g { a -> b; }`))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", ">a</text>", ">b</text>", `class="edge"`} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("no %s in the SVG:\n%s", want, svg)
		}
	}
	if _, err := SVG([]byte(`digraph g { a -> `)); err == nil {
		t.Error("DOT cut short: no error")
	}
}
