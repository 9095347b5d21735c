package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// BaseDMAWalk finds masters for which the kernel's dma-ranges walk over
// the built tree ends elsewhere than the description's buses say.
var BaseDMAWalk = &Check{
	Needs: FactBuses | FactMasters,
	Code: diag.Code{ID: "BC0608", Name: "base-dma-walk", Severity: diag.Warning,
		Doc: "of_dma_get_range() (drivers/of/address.c), run over the built tree (the base tree with the " +
			"dma-ranges the description states on its buses, which the fragment writes) from the " +
			"master's DMA parent (__of_get_dma_parent(): its parent node, or a dma-mem interconnect), " +
			"finds another bus_dma_limit than the description's buses give: the DT nodes between the " +
			"master and a translation are not the buses the description lists, or one of them decides " +
			"the walk differently. The DMA width checks, the verifier module and the target test expect " +
			"the description's limit; the kernel applies the tree's. Describe the nodes on the way as " +
			"buses (bus.parent), with their dmaRanges where the tree has them."},
	NeedsBase: true,
	Run: func(p *Pass) {
		t := p.Base
		soc := &p.Board.SoC
		stated := map[string]*ir.Bus{}
		for _, b := range soc.Buses {
			if n := baseNode(t, b.Node); n != nil && b.HasDMARanges {
				stated[n.Path] = b
			}
		}
		over := func(n *basetree.Node) ([][3]uint64, bool, bool) {
			b := stated[n.Path]
			if b == nil {
				return nil, false, false
			}
			rs := make([][3]uint64, len(b.DMARanges))
			for i, r := range b.DMARanges {
				rs[i] = [3]uint64{r.Child, r.Parent, r.Size}
			}
			return rs, true, true
		}
		for _, m := range soc.Masters {
			n := baseNode(t, m.Node)
			if !m.Enabled || n == nil || n.Parent == nil {
				continue
			}
			w := t.DMAWalk(t.DMAParent(n), over)
			if !w.OK {
				continue // undecodable dma-ranges: BC0604 and dtc say so
			}
			limit, bus := m.BusDMALimit()
			at := ""
			if bus != nil {
				at = bus.Node.Path
				if bn := baseNode(t, bus.Node); bn != nil {
					at = bn.Path
				}
			}
			got := ""
			if w.At != nil {
				got = w.At.Path
			}
			if got == at && w.Limit == limit {
				continue
			}
			mine := "no bus_dma_limit (no dma-ranges reached)"
			if bus != nil {
				mine = fmt.Sprintf("bus_dma_limit %#x from the dma-ranges of bus %s", limit, bus.Key)
			}
			built := "none (-ENODEV: no bus_dma_limit)"
			if w.At != nil {
				built = fmt.Sprintf("bus_dma_limit %#x from the dma-ranges of %s", w.Limit, w.At.Path)
			}
			p.Report(m.Ref(), m.Pos,
				fmt.Sprintf("master %s: the description's buses give it %s, but of_dma_get_range() over the built tree finds %s", m.Key, mine, built),
				inTree(t, n.Path),
				Note(m.BusPos, "the walk starts at %s, the node's DMA parent in the tree", t.DMAParent(n).Path))
		}
	},
}
