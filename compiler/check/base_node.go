package check

import (
	"fmt"
	"slices"
	"strings"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// BaseNode finds labels and node paths the base tree does not have.
var BaseNode = &Check{
	Needs: FactBuses | FactMasters,
	Code: diag.Code{ID: "BC0601", Name: "base-node", Severity: diag.Error,
		Doc: "A bus's or master's label or node path, or a master's iommu label, is not in the base " +
			"tree (the board's dts: compiled, or --dtb), or the label names another node than the " +
			"path the description gives. The fragment refers to nodes by label (&crypto) or path " +
			"(&{/soc/...}); dtc stops on a reference it cannot resolve (\"Label or path ... not found\"), " +
			"and a label on another node puts the properties on the wrong device. A tree without " +
			"/__symbols__ (a .dtb not built with dtc -@) has no labels to check: that is said once, as info. " +
			"A master described as a PCIe host bridge (bridge kind \"pcie\") must be one in the base tree: " +
			"a node with device_type = \"pci\" (the PCI bus binding, dt-schema pci/pci-bus.yaml) or named " +
			"pcie or pci, as boardc import finds them; elsewhere no PCI device takes its DMA configuration " +
			"from the node, and the bridge's missing width hides a master's. A bridge that states its own " +
			"dma-ranges (bridge.dmaRanges), which the fragment writes in the PCI bus binding's cells (3 " +
			"address, 2 size), must have those cell counts in the base tree. A master described as the DPAA2 " +
			"Management Complex (bridge kind \"fsl-mc\") must be compatible \"fsl,qoriq-mc\" there."},
	NeedsBase: true,
	Run: func(p *Pass) {
		t := p.Base
		labels := t.HasLabels()
		if !labels {
			p.ReportSeverity(diag.Info, ir.RefSoC, p.Board.SoC.Pos,
				fmt.Sprintf("the base tree %s has no labels (/__symbols__): labels are not checked; build it with dtc -@", t.Source))
		}
		node := func(on ir.Ref, what string, n ir.Node) {
			if n.Path == "/" {
				return
			}
			if n.Label != "" && labels {
				lp, ok := t.Label(n.Label)
				switch {
				case !ok:
					msg := fmt.Sprintf("%s: label %s is not in the base tree", what, n.Label)
					if c := diag.Closest(n.Label, t.Labels()); c != "" {
						msg += fmt.Sprintf("; did you mean %s?", c)
					}
					notes := []diag.Note{{Message: "the description gives the node as " + n.Path}}
					if t.Node(n.Path) != nil {
						notes = append(notes, diag.Note{Message: fmt.Sprintf("node %s of the base tree %s has labels %v", n.Path, t.Source, t.LabelsOf(n.Path))})
					}
					p.Report(on, n.LabelPos.Or(n.Pos), msg, notes...)
					return
				case lp != n.Path:
					p.Report(on, n.PathPos.Or(n.Pos),
						fmt.Sprintf("%s: label %s is node %s in the base tree, not %s", what, n.Label, lp, n.Path),
						inTree(t, lp))
					return
				}
			}
			if t.Node(n.Path) == nil {
				p.Report(on, n.PathPos.Or(n.Pos),
					fmt.Sprintf("%s: node %s is not in the base tree %s", what, n.Path, t.Source))
			}
		}
		for _, b := range p.Board.SoC.Buses {
			node(b.Ref(), "bus "+b.Key, b.Node)
		}
		for _, m := range p.Board.SoC.Masters {
			node(m.Ref(), "master "+m.Key, m.Node)
			if b := m.Bridge; b != nil && b.Kind == ir.BridgePCIe {
				if n := baseNode(t, m.Node); n != nil && !pciHost(n) {
					p.Report(m.Ref(), b.Pos, fmt.Sprintf("master %s is described as a PCIe host bridge, but node %s of the base tree is none: no device_type = \"pci\" and not named pcie or pci", m.Key, n.Path),
						inTree(t, n.Path),
						Note(ir.Pos{}, "the PCI bus binding (dt-schema pci/pci-bus.yaml) requires device_type = \"pci\" of a host bridge's node"))
				}
				// The fragment writes bridge.dmaRanges in the PCI bus
				// binding's cells; dtc and of_pci_range_parser_one()
				// read them in the node's.
				if n := baseNode(t, m.Node); n != nil && b.HasDMARanges() && (n.AddressCells() != ir.PCIAddressCells || n.SizeCells() != ir.PCISizeCells) {
					p.Report(m.Ref(), b.DMARangesPos, fmt.Sprintf("master %s: bridge.dmaRanges are written with #address-cells %d and #size-cells %d, the PCI bus binding's, but node %s of the base tree has %d and %d",
						m.Key, ir.PCIAddressCells, ir.PCISizeCells, n.Path, n.AddressCells(), n.SizeCells()),
						inTree(t, n.Path))
				}
			}
			// Bridge kind "fsl-mc" names the node fsl_mc_bus_probe()
			// binds (fsl_mc_bus_match_table, drivers/bus/fsl-mc/
			// fsl-mc-bus.c): elsewhere no fsl-mc object is created below it.
			if d := m.DriverSets; d != nil && d.MC != "" {
				if n := baseNode(t, m.Node); n != nil {
					if cs, _ := n.Strings("compatible"); !slices.Contains(cs, "fsl,qoriq-mc") {
						p.Report(m.Ref(), d.Pos, fmt.Sprintf("master %s is described as the DPAA2 Management Complex (bridge kind \"fsl-mc\"), but node %s of the base tree is not compatible \"fsl,qoriq-mc\"", m.Key, n.Path),
							inTree(t, n.Path))
					}
				}
			}
			if m.IOMMU != "" && labels {
				if _, ok := t.Label(m.IOMMU); !ok {
					msg := fmt.Sprintf("master %s: iommu label %s is not in the base tree", m.Key, m.IOMMU)
					if c := diag.Closest(m.IOMMU, t.Labels()); c != "" {
						msg += fmt.Sprintf("; did you mean %s?", c)
					}
					p.Report(m.Ref(), m.IOMMUPos.Or(m.Pos), msg)
				}
			}
		}
	},
}

// pciHost reports whether n is a PCI(e) host bridge's node: device_type
// "pci" (dt-schema pci/pci-bus.yaml requires it), or the generic name
// "pcie" or "pci" (devicetree specification v0.4, 2.2.2), the rule
// compiler/draft drafts bridges by.
func pciHost(n *basetree.Node) bool {
	if dt, _ := n.String("device_type"); dt == "pci" {
		return true
	}
	name, _, _ := strings.Cut(n.Name, "@")
	return name == "pcie" || name == "pci"
}
