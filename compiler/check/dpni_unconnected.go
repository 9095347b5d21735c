package check

import (
	"fmt"
	"strings"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// DPNIUnconnected warns of a DPNI of the data-path layout that no
// interface connects to a DPMAC.
var DPNIUnconnected = &Check{
	Needs: FactMasters | FactDPAA2,
	Code: diag.Code{ID: "BC0311", Name: "dpni-unconnected", Severity: diag.Warning,
		Doc: "A DPNI reaches a port only through a connection to a DPMAC in the data-path layout " +
			"(connections, endpoint1 \"dpni@N\", endpoint2 \"dpmac@M\", as NXP's mc-utils layouts " +
			"write them). dpaa2-eth probes a DPNI without one all the same: dpaa2_eth_connect_mac() " +
			"(Linux 6.12 drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c:4650) finds no endpoint with " +
			"fsl_mc_get_endpoint() and returns 0, leaving the interface without a MAC, so the interface comes up and carries " +
			"no traffic off the board. Each DPNI the layout declares is the fsl-mc master's interface " +
			"of its place in name order; its netdev's dpmac connects it. A layout meant to hold " +
			"unconnected DPNIs (for restool or a DPNI-to-DPNI link made at run time) waives this " +
			"warning on soc.dpaa2."},
	Run: func(p *Pass) {
		d := p.Board.SoC.DPAA2
		if d == nil || d.DPNI == 0 {
			return
		}
		devs := p.Board.SoC.DPNIDevs()
		var ids, names []string
		pos := ir.Pos{}
		for i := 0; i < d.DPNI; i++ {
			switch {
			case i >= len(devs):
				ids, names = append(ids, fmt.Sprint(i)), append(names, "no interface")
				pos = pos.Or(d.DPNIPos.Or(d.Pos))
			case devs[i].DPMAC == 0:
				ids, names = append(ids, fmt.Sprint(i)), append(names, devs[i].Name)
				pos = pos.Or(devs[i].Pos)
			}
		}
		if len(ids) == 0 {
			return
		}
		msg := fmt.Sprintf("the data-path layout leaves DPNIs %s (%s) without a DPMAC", strings.Join(ids, ", "), strings.Join(names, ", "))
		switch {
		case d.DPNI == 1:
			msg = fmt.Sprintf("the data-path layout connects its one DPNI (%s) to no DPMAC", names[0])
		case len(ids) == d.DPNI:
			msg = fmt.Sprintf("the data-path layout connects none of its %d DPNIs (%s) to a DPMAC", d.DPNI, strings.Join(names, ", "))
		case len(ids) == 1:
			msg = fmt.Sprintf("the data-path layout leaves DPNI %s (%s) without a DPMAC", ids[0], names[0])
		}
		p.Report(ir.RefDPAA2, pos,
			msg+": no port, so no traffic off the board",
			Note(ir.Pos{}, "give each interface of the fsl-mc master the DPMAC its port is on, dpmac: N, as the board's device tree names &dpmacN"))
	},
}
