package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// DPMACLink checks the DPNI-DPMAC connections of the data-path layout.
var DPMACLink = &Check{
	Needs: FactMasters | FactDPAA2,
	Code: diag.Code{ID: "BC0307", Name: "dpmac-link", Severity: diag.Error,
		Doc: "A netdev's dpmac connects its DPNI to that DPMAC in the Management Complex's data-path " +
			"layout (the connections of a DPL, as NXP's mc-utils configs write them: endpoint1 " +
			"\"dpni@N\", endpoint2 \"dpmac@M\"). Only an interface of the fsl-mc bus (the master with " +
			"compatible fsl,qoriq-mc) is a DPNI, and only the first dpni of them, in name order, exist; " +
			"a dpmac elsewhere names a link the layout cannot make. A DPMAC is one MAC: two DPNIs " +
			"connected to the same one would have the layout connect it twice. A dpmacLinkType " +
			"sets the link type of the interface's DPMAC in the DPC: an interface without a dpmac has none to set."},
	Run: func(p *Pass) {
		soc := &p.Board.SoC
		dpni := 0
		if soc.DPAA2 != nil {
			dpni = soc.DPAA2.DPNI
		}
		for _, m := range soc.Masters {
			for _, d := range m.NetDevs {
				if d.DPMACLinkType != "" && d.DPMAC == 0 {
					p.Report(m.Ref(), d.DPMACLinkTypePos,
						fmt.Sprintf("interface %s of master %s states dpmacLinkType %q but no dpmac: the DPC has no DPMAC to give the link type", d.Name, m.Key, d.DPMACLinkType))
				}
			}
		}
		// Interfaces of other masters cannot be DPNIs.
		for _, m := range soc.Masters {
			if m.IsMC() {
				continue
			}
			for _, d := range m.NetDevs {
				if d.DPMAC != 0 {
					p.Report(m.Ref(), d.DPMACPos,
						fmt.Sprintf("interface %s of master %s names dpmac %d, but only an interface of the fsl-mc bus (compatible %s) is a DPNI", d.Name, m.Key, d.DPMAC, ir.MCCompatible))
				}
			}
		}
		owner := map[int]ir.NetDev{}
		for i, d := range soc.DPNIDevs() {
			if d.DPMAC == 0 {
				continue
			}
			ref := ir.RefDPAA2
			if i >= dpni {
				pos := ir.Pos{}
				if soc.DPAA2 != nil {
					pos = soc.DPAA2.DPNIPos
				}
				p.Report(ref, d.DPMACPos,
					fmt.Sprintf("interface %s names dpmac %d, but it would be DPNI %d and dpni is %d: no DPNI to connect", d.Name, d.DPMAC, i, dpni),
					Note(pos, "the DPNI count; the fsl-mc master's interfaces in name order are DPNIs 0..dpni-1"))
				continue
			}
			if first, ok := owner[d.DPMAC]; ok {
				p.Report(ref, d.DPMACPos,
					fmt.Sprintf("interface %s connects to dpmac %d, which interface %s connects to already", d.Name, d.DPMAC, first.Name),
					Note(first.DPMACPos, "the first connection to dpmac %d", d.DPMAC))
				continue
			}
			owner[d.DPMAC] = d
		}
	},
}
