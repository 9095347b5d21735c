package dts

import (
	"fmt"

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
	var w writer
	w.header(b, "Apply over the dtb built from "+dtsName(b)+" with dtc -@.")
	w.WriteString("\n/dts-v1/;\n/plugin/;\n")
	nodes := plan(b)
	if len(nodes) == 0 {
		w.WriteString("\n/* Nothing to change on this board. */\n/ {\n};\n")
	}
	for _, n := range nodes {
		w.overlayNode(b, n)
	}
	return outputs.File{Path: b.Name + ".dtso", Data: []byte(w.String())}
}

func (w *writer) overlayNode(b *ir.Board, n *dtNode) {
	fmt.Fprintf(w, "\n/* %s: %s */\n%s {\n", n.title, n.path, n.ref)
	if bus := n.bus; bus != nil {
		why := "unchanged, restated for dtc's dma-ranges check, " + bus.CellsPos.Short()
		fmt.Fprintf(w, "\t#address-cells = <%d>; /* %s */\n", bus.AddressCells, why)
		fmt.Fprintf(w, "\t#size-cells = <%d>; /* %s */\n", bus.SizeCells, why)
	}
	for _, p := range n.props {
		fmt.Fprintf(w, "\t%s /* %s */\n", p.text, p.why)
	}
	w.WriteString("};\n")
}
