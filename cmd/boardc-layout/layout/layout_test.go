package layout

import (
	"bytes"
	"fmt"
	"sync"
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

// TestSVGConcurrent lays out graphs from several goroutines at once.
func TestSVGConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			svg, err := SVG([]byte(fmt.Sprintf(`digraph g%d { n%d -> m; }`, i, i)))
			if err == nil && !bytes.Contains(svg, []byte(fmt.Sprintf(">n%d</text>", i))) {
				err = fmt.Errorf("graph %d: no node n%d", i, i)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}
