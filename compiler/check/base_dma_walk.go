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
			"buses (bus.parent), with their dmaRanges where the tree has them. For a PCIe host bridge " +
			"(bridge) the walk of its endpoints is checked too: pci_dma_configure() " +
			"(drivers/pci/pci-driver.c) hands of_dma_configure() the bridge's node, so the walk starts there " +
			"and reads the bridge's own dma-ranges first: where the tree has them and the description states " +
			"no bridge.dmaRanges, the verifier expects another bus_dma_limit of the PCI devices than the " +
			"kernel sets. Stated, they are what the fragment writes and what the verifier expects. For a " +
			"master configured from another master's node (dmaDevice) the walk starts on that node, which " +
			"its driver hands of_dma_configure()."},
	NeedsBase: true,
	Run: func(p *Pass) {
		t := p.Base
		soc := &p.Board.SoC
		// stated are the dma-ranges the fragment writes, by node: a
		// bus's, and a bridge's own (its windows by bus address, the
		// flags cell aside, as of_pci_range_parser_one() reads them).
		stated := map[string][]ir.DMARange{}
		for _, b := range soc.Buses {
			if n := baseNode(t, b.Node); n != nil && b.HasDMARanges {
				stated[n.Path] = b.DMARanges
			}
		}
		for _, m := range soc.Masters {
			if n := baseNode(t, m.Node); n != nil && m.IsBridge() && m.Bridge.HasDMARanges() {
				stated[n.Path] = m.Bridge.DMARanges
			}
		}
		over := func(n *basetree.Node) ([][3]uint64, bool, bool) {
			rs, ok := stated[n.Path]
			if !ok {
				return nil, false, false
			}
			out := make([][3]uint64, len(rs))
			for i, r := range rs {
				out[i] = [3]uint64{r.Child, r.Parent, r.Size}
			}
			return out, true, true
		}
		for _, m := range soc.Masters {
			n := baseNode(t, m.Node)
			if !m.Enabled || n == nil || n.Parent == nil {
				continue
			}
			limit, bus := m.BusDMALimit()
			start, from := t.DMAParent(n), Note(m.BusPos, "the walk starts at %s, the node's DMA parent in the tree", t.DMAParent(n).Path)
			if d := m.DMADevice; d != nil {
				// Its driver hands of_dma_configure() the DMA
				// device's node, where of_dma_configure_id() starts
				// the walk.
				if start = baseNode(t, d.Node); start == nil {
					continue
				}
				from = Note(m.DMADevicePos, "the walk starts at %s, master %s's node, which its driver hands of_dma_configure()", start.Path, d.Key)
			}
			if got, want, ok := walkDiffers(t, t.DMAWalk(start, over), limit, bus); ok {
				p.Report(m.Ref(), m.Pos,
					fmt.Sprintf("master %s: the description's buses give it %s, but of_dma_get_range() over the built tree finds %s", m.Key, want, got),
					inTree(t, n.Path), from)
			}
			if !m.IsBridge() {
				continue
			}
			// The endpoints' walk starts at the bridge's own node:
			// pci_dma_configure() hands of_dma_configure() the
			// bridge's node, not the endpoint's, so
			// of_dma_configure_id() reads it first.
			// The bridge's own dma-ranges, where the description
			// states them, are the fragment's and end the walk on
			// its node; without them upstream's, if any, end it.
			if m.Bridge.HasDMARanges() {
				continue // the walk is the description's: EndpointDMALimit reads the same ranges
			}
			limit, bus = m.EndpointDMALimit()
			w := t.DMAWalk(n, over)
			if top, ok := pciDMATop(n); ok {
				w = basetree.DMAWalk{At: n, Limit: top, OK: true}
			}
			if got, want, ok := walkDiffers(t, w, limit, bus); ok {
				p.Report(m.Ref(), m.Bridge.Pos,
					fmt.Sprintf("master %s: the description's buses give the PCI devices behind it %s, but of_dma_get_range() from the bridge's node over the built tree finds %s", m.Key, want, got),
					inTree(t, n.Path),
					Note(ir.Pos{}, "pci_dma_configure() (drivers/pci/pci-driver.c) configures them from the bridge's node, whose own dma-ranges the walk reads first; where the tree has them, state them as bridge.dmaRanges"))
			}
		}
	},
}

// walkDiffers compares the walk w over the built tree with the limit and
// bus the description's buses give, and says both as the diagnostic
// does; ok is false where they agree or the walk cannot decode a
// dma-ranges (BC0604 and dtc say so).
func walkDiffers(t *basetree.Tree, w basetree.DMAWalk, limit uint64, bus *ir.Bus) (got, want string, ok bool) {
	if !w.OK {
		return "", "", false
	}
	at := ""
	if bus != nil {
		at = bus.Node.Path
		if bn := baseNode(t, bus.Node); bn != nil {
			at = bn.Path
		}
	}
	found := ""
	if w.At != nil {
		found = w.At.Path
	}
	if found == at && w.Limit == limit {
		return "", "", false
	}
	want = "no bus_dma_limit (no dma-ranges reached)"
	if bus != nil {
		want = fmt.Sprintf("bus_dma_limit %#x from the dma-ranges of bus %s", limit, bus.Key)
	}
	got = "none (-ENODEV: no bus_dma_limit)"
	if w.At != nil {
		got = fmt.Sprintf("bus_dma_limit %#x from the dma-ranges of %s", w.Limit, w.At.Path)
	}
	return got, want, true
}

// pciDMATop returns the highest DMA address of a PCI host bridge's own
// non-empty dma-ranges in the base tree, whose child addresses are three
// cells, the first the PCI flags: of_pci_range_parser_one()
// (drivers/of/address.c, Linux 6.12) reads the bus address after the
// bus's flag cells (basetree.Node.PCIDMARanges), and of_dma_get_range()
// ends its walk on this first non-empty dma-ranges with the highest bus
// address + size - 1 (dma_range_map_max()). ok is false for a node
// without such a dma-ranges, or one it cannot decode.
func pciDMATop(n *basetree.Node) (uint64, bool) {
	rs, _, ok := n.PCIDMARanges()
	if !ok || len(rs) == 0 {
		return 0, false
	}
	var top uint64
	for _, r := range rs {
		if r.Size == 0 {
			continue
		}
		top = max(top, r.Bus+(r.Size-1))
	}
	return top, true
}
