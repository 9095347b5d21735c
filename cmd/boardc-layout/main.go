// Command boardc-layout lays out a board's topology for boardc report: it
// reads Graphviz DOT on standard input and writes the picture as SVG on
// standard output. It is a program of its own because the layout engine
// it links (Graphviz as WebAssembly) is compiled at every start of a
// program that links it; boardc runs it only to draw. It is a module of
// its own (boardc.dev/boardc/cmd/boardc-layout), so that boardc's module
// does not require the engine: build it with go -C cmd/boardc-layout
// build, or go install boardc.dev/boardc/cmd/boardc-layout@latest.
package main

import (
	"fmt"
	"io"
	"os"

	"boardc.dev/boardc/cmd/boardc-layout/layout"
)

func main() {
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "usage: boardc-layout < topology.dot > topology.svg")
		os.Exit(2)
	}
	os.Exit(run(os.Stdin, os.Stdout, os.Stderr))
}

func run(in io.Reader, out, errw io.Writer) int {
	dot, err := io.ReadAll(in)
	if err == nil {
		var svg []byte
		if svg, err = layout.SVG(dot); err == nil {
			_, err = out.Write(svg)
		}
	}
	if err != nil {
		fmt.Fprintf(errw, "boardc-layout: %v\n", err)
		return 1
	}
	return 0
}
