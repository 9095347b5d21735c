package dpl

import (
	"fmt"
	"slices"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// DPCName returns the name of the board's DPC file.
func DPCName(b *ir.Board) string { return b.Name + "-dpc.dts" }

// linkTypes are the DPC's link_type values of the description's
// dpmacLinkType, as NXP's LS2088A DPCs spell them (mc-utils
// config/ls2088a/RDB/dpc.0x2A_0x41.dts: MAC_LINK_TYPE_PHY;
// config/ls2088a/QDS/custom/dpc-backplane.0x2A_0x49.dts:
// MAC_LINK_TYPE_BACKPLANE).
var linkTypes = map[string]string{
	"phy":       "MAC_LINK_TYPE_PHY",
	"backplane": "MAC_LINK_TYPE_BACKPLANE",
}

// emitDPC returns the Management Complex's DPC (Data Path Configuration)
// the layout l needs, in the format of NXP's mc-utils DPC files
// (config/<soc>/<board>/dpc.<serdes>.dts): the qbman wq_ch_conversion the
// SoC states when the layout has DPCONs, and a board_info ports mac@N
// link_type for each connected DPMAC whose interface states
// dpmacLinkType.
func emitDPC(b *ir.Board, l *Layout) outputs.File {
	d := b.SoC.DPAA2
	w := outputs.NewPrinter(outputs.DTS)
	w.P("// SPDX-License-Identifier: (GPL-2.0-or-later OR MIT)")
	c := w.Block("")
	c.Line(outputs.GeneratedNotice)
	c.Line()
	c.Line(outputs.BoardText(b), ":")
	c.Line("the Management Complex's DPC, the settings the data-path layout")
	c.Line(Name(b), " needs, in the format of NXP's mc-utils DPC files")
	c.Line("(config/<soc>/<board>/dpc.<serdes>.dts). Compile it with dtc -I dts -O dtb")
	c.Line("and start the MC firmware with it. It holds only what the layout needs:")
	c.Line("a board whose DPC sets more (NXP's set icid_pools, log and console) adds")
	c.Line("these settings to it.")
	c.End()
	w.P()
	w.P("/dts-v1/;")
	w.P()
	w.P("/ {")
	switch {
	case l.DPCONs > 0 && d.HasDPC:
		w.P("\tcontrollers {")
		w.P("\t\tqbman {")
		o := outputs.From(ir.RefDPAA2, d.DPCPos)
		comment(w, "\t\t\t",
			outputs.T(fmt.Sprintf("%d DPCONs of 2 priorities (", l.DPCONs), outputs.At(ir.RefDPAA2.Field("dpcon"), d.DPCONPos), "): the MC makes"),
			outputs.T(fmt.Sprintf("%d 8-WQ channels into %d 2-WQ channels for them, as the SoC", d.WQChConversion, 4*d.WQChConversion)),
			outputs.T("states (", outputs.At(ir.RefDPAA2.Field("dpc"), d.DPCPos), "): ", d.DPCSource, "."))
		w.P(o, "\t\t\twq_ch_conversion = <", d.WQChConversion, ">;")
		w.P("\t\t};")
		w.P("\t};")
	case l.DPCONs > 0:
		comment(w, "\t",
			outputs.T(fmt.Sprintf("%d DPCONs of 2 priorities; the SoC states no qbman wq_ch_conversion", l.DPCONs)),
			outputs.T("(soc.dpaa2.dpc), so none is written and the MC firmware's default applies."))
	}
	var ports []DPNI
	for _, p := range l.DPNIs {
		if p.DPMAC != 0 && p.Dev != nil && linkTypes[p.Dev.DPMACLinkType] != "" {
			ports = append(ports, p)
		}
	}
	if len(ports) > 0 {
		if l.DPCONs > 0 { // after the qbman block or its comment
			w.P()
		}
		w.P("\tboard_info {")
		w.P("\t\tports {")
		comment(w, "\t\t\t",
			outputs.T("The link type of each DPMAC whose interface states one; dpaa2-eth"),
			outputs.T("drives a PHY or backplane DPMAC through phylink (dpaa2_mac_is_type_phy(),"),
			outputs.T("drivers/net/ethernet/freescale/dpaa2/dpaa2-mac.h). DPMACs left out keep"),
			outputs.T("the MC firmware's default."))
		slices.SortFunc(ports, func(a, b DPNI) int { return a.DPMAC - b.DPMAC })
		for _, p := range ports {
			ref := netDevRef(b, p.Dev.Name).Field("dpmacLinkType")
			o := outputs.From(ir.RefDPAA2, p.Dev.DPMACLinkTypePos).Named(fmt.Sprintf("mac@%d", p.DPMAC))
			w.P(o, "\t\t\tmac@", p.DPMAC, " {\t", outputs.N(p.Dev.Name, ", ", outputs.At(ref, p.Dev.DPMACLinkTypePos)))
			w.P(o, "\t\t\t\tlink_type = \"", linkTypes[p.Dev.DPMACLinkType], "\";")
			w.P("\t\t\t};")
		}
		w.P("\t\t};")
		w.P("\t};")
	}
	w.P("};")
	return w.File(DPCName(b))
}
