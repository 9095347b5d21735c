package dts

import (
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// Overlay returns the board's device-tree overlay, <board>.dtso: the nodes
// and properties of the fragment as a /plugin/ source, for a boot loader or
// fdtoverlay to apply over the dtb of the board's upstream .dts (built with
// dtc -@ so that labels resolve). Nodes are targeted as in the fragment,
// &label, or &{/path} (a target-path fragment) where the node has no label.
//
// A node that carries a dma-ranges also restates the bus's #address-cells
// and #size-cells, the values the target already has: dtc checks the
// length of a dma-ranges against the node's cell counts, and an overlay
// node has none of its own (Linux refuses an overlay that changes them,
// and accepts one that restates them). The parent's #address-cells cannot
// be restated in an overlay: dtc assumes 2 for it, so a dma-ranges under a
// parent with other cell counts draws a dma_ranges_format warning from dtc
// although the applied tree is right.
//
// A board with nothing to change yields an overlay with an empty root and
// no fragment, which applies as a no-op.
func Overlay(b *ir.Board) outputs.File {
	p := outputs.NewPrinter(outputs.DTS)
	header(p, b, "Apply over the dtb built from "+dtsName(b)+" with dtc -@.")
	p.P()
	p.P("/dts-v1/;")
	p.P("/plugin/;")
	nodes := plan(b)
	if len(nodes) == 0 {
		p.P()
		p.Comment("", "Nothing to change on this board.")
		p.P("/ {")
		p.P("};")
	}
	for _, n := range nodes {
		node(p, n, true)
	}
	return p.File(b.Name + ".dtso")
}
