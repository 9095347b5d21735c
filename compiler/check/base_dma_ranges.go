package check

import (
	"fmt"
	"slices"
	"strings"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/diag"
)

// BaseDMARanges finds a bus whose dma-ranges differ from the base tree's.
var BaseDMARanges = &Check{
	Needs: FactBuses | FactMasters,
	Code: diag.Code{ID: "BC0604", Name: "base-dma-ranges", Severity: diag.Warning,
		Doc: "A bus's dmaRanges differ from the dma-ranges of its node in the base tree, or one of the two " +
			"has them and the other does not. The fragment writes the description's dma-ranges over " +
			"upstream's, so the built tree has the description's where it states them and upstream's " +
			"where it does not; either way the DMA width checks and the running kernel may not see the " +
			"same translation. Upstream's are decoded with the base tree's cell counts " +
			"(devicetree specification 2.3.9: child address, parent address, size). The same holds for a PCI " +
			"host bridge's own dma-ranges (bridge.dmaRanges), flags included, decoded in the PCI bus " +
			"binding's cells."},
	NeedsBase: true,
	Run: func(p *Pass) {
		t := p.Base
		for _, b := range p.Board.SoC.Buses {
			n := baseNode(t, b.Node)
			if n == nil || b.Node.Path == "/" {
				continue
			}
			up, has, ok := n.DMARanges()
			if !ok {
				continue // cells wider than 64 bits: not compared
			}
			mine := make([][3]uint64, len(b.DMARanges))
			for i, r := range b.DMARanges {
				mine[i] = [3]uint64{r.Child, r.Parent, r.Size}
			}
			switch {
			case b.HasDMARanges && has && !slices.Equal(mine, up):
				p.Report(b.Ref(), b.DMARangesPos.Or(b.Pos),
					fmt.Sprintf("bus %s: dmaRanges %s differ from the base tree's dma-ranges %s; the built tree has the description's",
						b.Key, rangesText(mine), rangesText(up)), inTree(t, n.Path))
			case b.HasDMARanges && !has:
				p.Report(b.Ref(), b.DMARangesPos.Or(b.Pos),
					fmt.Sprintf("bus %s: the base tree's node has no dma-ranges; the built tree has the description's %s", b.Key, rangesText(mine)),
					inTree(t, n.Path))
			case !b.HasDMARanges && has:
				p.Report(b.Ref(), b.Pos,
					fmt.Sprintf("bus %s: the base tree's node has dma-ranges %s and the description states none; the built tree keeps upstream's, which the DMA width checks do not see (add dmaRanges)",
						b.Key, rangesText(up)), inTree(t, n.Path))
			}
		}
		// A bridge's own dma-ranges, where the description states them
		// (where it does not, BC0608 says what upstream's do to the
		// endpoints' walk).
		for _, m := range p.Board.SoC.Masters {
			br := m.Bridge
			n := baseNode(t, m.Node)
			if br == nil || !br.HasDMARanges() || n == nil {
				continue
			}
			mine := make([]basetree.PCIRange, len(br.DMARanges))
			for i, r := range br.DMARanges {
				mine[i] = basetree.PCIRange{Flags: r.Flags, Bus: r.Child, Parent: r.Parent, Size: r.Size}
			}
			switch up, has, ok := n.PCIDMARanges(); {
			case !ok:
				continue // other cell counts: BC0601 says so
			case has && !slices.Equal(mine, up):
				p.Report(m.Ref(), br.DMARangesPos,
					fmt.Sprintf("master %s: bridge.dmaRanges %s differ from the base tree's dma-ranges %s; the built tree has the description's",
						m.Key, pciRangesText(mine), pciRangesText(up)), inTree(t, n.Path))
			case !has:
				p.Report(m.Ref(), br.DMARangesPos,
					fmt.Sprintf("master %s: the base tree's node has no dma-ranges; the built tree has the description's bridge.dmaRanges %s", m.Key, pciRangesText(mine)),
					inTree(t, n.Path))
			}
		}
	},
}

// pciRangesText prints a bridge's windows as the description spells them.
func pciRangesText(rs []basetree.PCIRange) string {
	if len(rs) == 0 {
		return "[] (identity)"
	}
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("{flags: %#x, child: %#x, parent: %#x, size: %#x}", r.Flags, r.Bus, r.Parent, r.Size)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// rangesText prints triplets as the description spells them.
func rangesText(rs [][3]uint64) string {
	if len(rs) == 0 {
		return "[] (identity)"
	}
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("{child: %#x, parent: %#x, size: %#x}", r[0], r[1], r[2])
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
