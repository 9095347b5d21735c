package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// BridgeDMARanges finds malformed windows of a PCI host bridge's own
// dma-ranges (bridge.dmaRanges).
var BridgeDMARanges = &Check{
	Needs: FactBuses | FactMasters,
	Code: diag.Code{ID: "BC0211", Name: "bridge-dma-ranges", Severity: diag.Error,
		Doc: "A window of a PCI host bridge's own dma-ranges (bridge.dmaRanges) is malformed. Its flags " +
			"name another space than memory (space code, phys.hi bits 24-25 of the PCI bus binding, 2 or " +
			"3): devm_of_pci_get_host_bridge_resources() (drivers/pci/of.c) skips such a window, so the " +
			"host bridge's driver programs no inbound window for it, while of_dma_get_range() " +
			"(drivers/of/address.c) counts it in the endpoints' bus_dma_limit. Or, as for a bus's " +
			"dma-ranges (BC0203, BC0204, BC0209): its parent address does not fit the #address-cells of the " +
			"bridge's bus, two windows overlap in PCI bus addresses, a window ends past what the bus can " +
			"address, or its bus or parent address plus its size wraps past 2^64."},
	Run: func(p *Pass) {
		for _, st := range bridgeRanges(&p.Board.SoC) {
			for _, r := range st.rs {
				if sp := ir.PCISpace(r.Flags); sp != 2 && sp != 3 {
					p.Report(st.ref, r.Pos,
						fmt.Sprintf("dma-ranges window of %s has flags %#x, space code %d (%s), not memory (2 or 3): the host bridge driver programs no inbound window for it (devm_of_pci_get_host_bridge_resources(), drivers/pci/of.c), yet of_dma_get_range() counts it in its endpoints' bus_dma_limit",
							st.what, r.Flags, sp, pciSpaceNames[sp]))
				}
			}
			rangesCells(p, st)
			rangesOverlap(p, st)
			rangesWrap(p, st)
		}
	},
}

// pciSpaceNames name the space codes of a PCI address (PCI bus binding,
// phys.hi ss).
var pciSpaceNames = [4]string{"configuration", "I/O", "32-bit memory", "64-bit memory"}
