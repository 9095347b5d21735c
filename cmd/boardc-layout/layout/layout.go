// Package layout lays out a report's DOT and renders it as SVG with
// Graphviz compiled to WebAssembly and run by a pure-Go runtime
// (github.com/goccy/go-graphviz, on wazero): nothing needs installing.
//
// That library compiles its WebAssembly module when the program starts
// (an init function), which costs every process that links it about
// 50 ms with its compilation cache ($TMPDIR/go-graphviz) warm and about
// 1 s cold, and panics when that cache belongs to another user. So that
// boardc's other commands do not pay it, only the boardc-layout program
// links this package; boardc report runs that program with a cache of
// the user's own.
package layout

import (
	"bytes"
	"context"
	"fmt"
	"sync"

	graphviz "github.com/goccy/go-graphviz"
)

// engine serializes the calls into the engine: go-graphviz runs one
// WebAssembly instance for the whole process, whose parser and layout
// keep global state (two graphs parsed at once fail with syntax errors).
var engine sync.Mutex

// SVG lays out dot with Graphviz's dot layout and returns the picture
// as SVG. It is safe for concurrent use; the layouts run one at a time.
func SVG(dot []byte) ([]byte, error) {
	engine.Lock()
	defer engine.Unlock()
	ctx := context.Background()
	g, err := graphviz.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("starting graphviz: %w", err)
	}
	defer g.Close()
	graph, err := graphviz.ParseBytes(dot)
	if err != nil {
		return nil, fmt.Errorf("parsing the DOT: %w", err)
	}
	defer graph.Close()
	var buf bytes.Buffer
	if err := g.Render(ctx, graph, graphviz.SVG, &buf); err != nil {
		return nil, fmt.Errorf("laying out: %w", err)
	}
	return buf.Bytes(), nil
}
