package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// RootBus finds a bus on the root node "/" that says what the root node
// cannot be.
var RootBus = &Check{
	Needs: FactRoot | FactBuses,
	Code: diag.Code{ID: "BC0503", Name: "root-bus", Severity: diag.Error,
		Doc: "A bus whose node is the root \"/\" (masters directly under the root, as on QEMU's virt " +
			"machine) is the root node itself. It has no enclosing bus, so no parent; dtc gives the root " +
			"no label; its #address-cells and #size-cells are the root's (soc.root); and it takes no " +
			"dma-ranges, which translates a bus's addresses into its parent's and the root has none " +
			"(dtc warns \"Root node has a dma-ranges property\"). Any of these would be a fragment that " +
			"dtc refuses or that says two things about one node."},
	Run: func(p *Pass) {
		soc := &p.Board.SoC
		for _, b := range soc.Buses {
			if b.Node.Path != "/" {
				continue
			}
			on := b.Ref()
			if b.Parent != nil {
				p.Report(on, b.ParentPos, fmt.Sprintf("bus %s is the root node and cannot have a parent bus (%s)", b.Key, b.Parent.Key))
			}
			if b.Node.Label != "" {
				p.Report(on, b.Node.Pos, fmt.Sprintf("bus %s is the root node, which has no label (&%s would not resolve)", b.Key, b.Node.Label),
					Note(ir.Pos{}, "dtc takes no label on the root node (a label before \"/ {\" is a syntax error); drop node.label"))
			}
			if b.AddressCells != soc.RootAddressCells || b.SizeCells != soc.RootSizeCells {
				p.Report(on, b.CellsPos,
					fmt.Sprintf("bus %s is the root node, but its cell counts <%d %d> are not the root's <%d %d>",
						b.Key, b.AddressCells, b.SizeCells, soc.RootAddressCells, soc.RootSizeCells),
					Note(soc.Pos, "soc.root gives the root node's cell counts"))
			}
			if b.HasDMARanges {
				p.Report(on, b.DMARangesPos, fmt.Sprintf("bus %s is the root node, which takes no dma-ranges", b.Key),
					Note(ir.Pos{}, "dma-ranges translates a bus's DMA addresses into its parent's; the root has no parent"))
			}
		}
	},
}
