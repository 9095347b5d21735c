package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// DPNIID checks the DPNI object ids interfaces are found by against the
// data-path layout that creates them.
var DPNIID = &Check{
	Needs: FactMasters | FactDPAA2,
	Code: diag.Code{ID: "BC0308", Name: "dpni-id", Severity: diag.Error,
		Doc: "tune.sh finds a DPAA2 interface by its DPNI object: the netdev whose device is dpni.N " +
			"(dpaa2_eth_probe(), drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c, registers it with " +
			"SET_NETDEV_DEV() on the object's device, which fsl_mc_device_add(), " +
			"drivers/bus/fsl-mc/fsl-mc-bus.c, names \"<type>.<id>\"). The object ids are those of the " +
			"data-path layout boardc generates: DPNI i is the fsl-mc master's i-th interface in name " +
			"order. An interface that states no dpni takes that id; one that states another id would " +
			"tune the netdev of another DPNI, or of none. Only an interface of the fsl-mc bus (the " +
			"master with compatible fsl,qoriq-mc) is a DPNI, and only the first dpni of them, in name " +
			"order, exist: an interface past them is found by nothing (an interface that names a dpmac " +
			"is reported by BC0307 instead). byName leaves an interface out of this check."},
	Run: func(p *Pass) {
		soc := &p.Board.SoC
		for _, m := range soc.Masters {
			mc := m.IsMC()
			for _, d := range m.NetDevs {
				stated := d.HasDPNI && d.DPNIPos.IsValid()
				switch {
				case !mc && stated:
					p.Report(m.Ref(), d.DPNIPos,
						fmt.Sprintf("interface %s of master %s names dpni %d, but only an interface of the fsl-mc bus (compatible %s) is a DPNI", d.Name, m.Key, d.DPNI, ir.MCCompatible))
				case !mc || d.ByName || soc.DPAA2 == nil:
				default:
					dpniIDOf(p, m, d)
				}
			}
		}
	},
}

// dpniIDOf checks the DPNI id of interface d of the fsl-mc master m
// against its place in the layout.
func dpniIDOf(p *Pass, m *ir.Master, d ir.NetDev) {
	soc := &p.Board.SoC
	i, _ := soc.DPNIIndex(d.Name)
	count := soc.DPAA2.DPNI
	countNote := Note(soc.DPAA2.DPNIPos, "the DPNI count; the fsl-mc master's interfaces in name order are DPNIs 0..dpni-1")
	stated := d.HasDPNI && d.DPNIPos.IsValid()
	switch {
	case i >= count && stated:
		p.Report(m.Ref(), d.DPNIPos,
			fmt.Sprintf("interface %s names dpni %d, but it would be DPNI %d and dpni is %d: the data-path layout has no DPNI for it", d.Name, d.DPNI, i, count),
			countNote)
	case i >= count && d.DPMAC == 0:
		p.Report(m.Ref(), d.Pos,
			fmt.Sprintf("interface %s would be DPNI %d, but dpni is %d: the data-path layout has no DPNI for it, so tune.sh has no object to find it by", d.Name, i, count),
			countNote)
	case stated && d.DPNI != i:
		p.Report(m.Ref(), d.DPNIPos,
			fmt.Sprintf("interface %s names dpni %d, but the data-path layout makes it DPNI %d, the fsl-mc master's interfaces being DPNIs in name order", d.Name, d.DPNI, i),
			Note(d.Pos, "write dpni: %d, or leave dpni out: it is then taken from the layout", i))
	}
}
