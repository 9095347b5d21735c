// Package dpl emits the Management Complex data-path layout of a DPAA2
// board, <board>-dpl.dts: the objects the MC firmware creates at boot and
// puts in the container Linux probes (DPIOs, DPNIs, DPCONs, DPBPs, DPMACs,
// DPRTC, DPMCPs), and the DPNI-DPMAC connections; and beside it the DPC
// the layout needs, <board>-dpc.dts (dpc.go).
//
// The format is that of the DPL sources of NXP's mc-utils
// (github.com/nxp-qoriq/mc-utils, config/*/dpl-eth.*.dts, dpl-version 10):
// a containers node with the root container dprc@1 and the objects it
// holds (obj_set nodes of a type and ids), an objects node with each
// object's attributes, and a connections node of endpoint pairs. It is
// compiled by dtc (mc-utils config/Makefile: dtc -q -I dts -O dtb) into the
// dpl.dtb the bootloader hands the MC firmware.
//
// What the layout holds follows what the kernel takes from the container:
//   - a DPIO per described portal, each "DPIO_LOCAL_CHANNEL" with 8
//     priorities, as mc-utils' LS2088A-RDB layout declares them; the
//     description has one per CPU (dpaa2_dpio_probe(),
//     drivers/soc/fsl/dpio/dpio-driver.c, serves one online CPU per DPIO);
//   - a DPNI per interface of the fsl-mc master, num_queues its rxQueues,
//     one traffic class; with isolated CPUs, at most the CPUs below the
//     lowest isolated one (ir.Board.DPAA2EthReach), where
//     dpaa2_eth_setup_dpio() stops;
//   - the described DPCON count, which check BC0306 holds to one per
//     channel per DPNI (dpaa2_eth_setup_dpcon(),
//     drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c), 2 priorities each
//     as mc-utils declares them;
//   - a DPBP per DPNI: dpaa2_eth_setup_default_dpbp() (dpaa2-eth.c) takes
//     one buffer pool per interface (AF_XDP zero-copy queues take more,
//     dpaa2_xsk_setup_pool(), which the description does not cover);
//   - a DPRTC, the PTP clock dpaa2-ptp binds (dpaa2_ptp_match_id_table,
//     obj_type "dprtc", drivers/net/ethernet/freescale/dpaa2/dpaa2-ptp.c)
//     and dpaa2-eth reports as its PHC (dpaa2_phc_index, dpaa2-ethtool.c);
//   - DPMCPs as the kernel holds them (see DPMCPTerms): one per DPIO, DPNI
//     and DPRTC for as long as its driver is bound, and one for a second
//     restool session;
//   - the DPMACs the interfaces name (netdev dpmac), each connected to its
//     DPNI.
//
// Comments cite description elements by ref (soc.dpaa2.dpcon), not by
// file:line, so that an edit that changes no fact leaves the file as it
// was; the positions are in the file's annotations (manifest.json).
package dpl

import (
	"fmt"
	"sort"
	"strings"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// Emitter is the data-path layout emitter.
var Emitter = outputs.Emitter{Name: "dpl", Emit: Emit}

// Name returns the name of the board's layout file.
func Name(b *ir.Board) string { return b.Name + "-dpl.dts" }

// Layout is the data-path layout of a board, as the file states it.
type Layout struct {
	DPNIs  []DPNI
	DPIOs  []ir.DPIO
	DPCONs int
	DPMACs []int // sorted
	DPMCPs int
	// DPRTCs is the PTP clock count: one.
	DPRTCs int
	// Channels is the DPCON count the kernel takes: one per channel per
	// DPNI.
	Channels int
}

// DPBPs returns the layout's buffer pool count: one per DPNI.
func (l *Layout) DPBPs() int { return len(l.DPNIs) }

// DPNI is one network interface object of the layout.
type DPNI struct {
	// ID is the DPNI's index in Layout.DPNIs.
	ID     int
	Queues int
	// Dev is the interface, when the fsl-mc master names one.
	Dev *ir.NetDev
	// DPMAC is the DPMAC the DPNI connects to, 0 for none: that of its
	// interface, when it is the first DPNI to name it (a second is check
	// BC0307's error, and never reaches the layout).
	DPMAC int
}

// DPMCPTerm is one term of the layout's DPMCP count: the MC portals one
// kind of object's driver holds, and where the kernel takes them.
type DPMCPTerm struct {
	N int
	// What says who holds them, Source the functions that take and give
	// them back (Linux 6.12, file:line function()).
	What, Source string
}

// DPMCPTerms returns the terms of the layout's DPMCP count. Each driver
// that calls fsl_mc_portal_allocate() (drivers/bus/fsl-mc/mc-io.c:165)
// takes a DPMCP from the container's pool (fsl_mc_resource_allocate(),
// FSL_MC_POOL_DPMCP) and, for the drivers below, keeps it until the
// device is unbound. A DPMAC takes none: dpaa2_eth_connect_mac() opens it
// on its DPNI's portal. The containers take none either: the root DPRC
// talks through the MC portal of the fsl-mc node, fsl_mc_bus_probe()
// (drivers/bus/fsl-mc/fsl-mc-bus.c:1130 fsl_create_mc_io() with no
// DPMCP), a child DPRC through its own region (dprc_setup(),
// dprc-driver.c:649). DPSECI (caamalg_qi2.c:5237 dpaa2_caam_probe()),
// DPSW (dpaa2-switch.c:3436 dpaa2_switch_probe()) and DPDMAI
// (dpaa2-qdma.c:673 dpaa2_qdma_probe()) hold one each too; the layout
// declares none of them.
func (l *Layout) DPMCPTerms() []DPMCPTerm {
	return []DPMCPTerm{
		{len(l.DPIOs), "one per DPIO, for as long as it is bound",
			"drivers/soc/fsl/dpio/dpio-driver.c:138 dpaa2_dpio_probe(), freed at :302 dpaa2_dpio_remove()"},
		{len(l.DPNIs), "one per DPNI, shared with its DPMAC (dpaa2-eth.c:4672 dpaa2_eth_connect_mac())",
			"drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c:4889 dpaa2_eth_probe(), freed at :5109 dpaa2_eth_remove()"},
		{l.DPRTCs, "one per DPRTC",
			"drivers/net/ethernet/freescale/dpaa2/dpaa2-ptp.c:140 dpaa2_ptp_probe(), freed at :234 dpaa2_ptp_remove()"},
		{1, "one for a second restool session: the first open of the container's device uses its own portal",
			"drivers/bus/fsl-mc/fsl-mc-uapi.c:493 fsl_mc_uapi_dev_open(), freed at :532 fsl_mc_uapi_dev_release()"},
	}
}

// Plan returns the board's layout, or nil when the SoC has no DPAA2.
func Plan(b *ir.Board) *Layout {
	soc := &b.SoC
	d := soc.DPAA2
	if d == nil {
		return nil
	}
	l := &Layout{DPIOs: d.DPIOs, DPCONs: d.DPCON, DPRTCs: 1}
	devs := soc.DPNIDevs()
	macs := map[int]bool{}
	for i := 0; i < d.DPNI; i++ {
		n := DPNI{ID: i, Queues: b.DPNIQueuesIsolated(i)}
		if i < len(devs) {
			n.Dev = &devs[i]
			if m := devs[i].DPMAC; m != 0 && !macs[m] {
				macs[m] = true
				n.DPMAC = m
				l.DPMACs = append(l.DPMACs, m)
			}
		}
		l.DPNIs = append(l.DPNIs, n)
		l.Channels += min(len(soc.DPIOCPUs()), n.Queues)
	}
	sort.Ints(l.DPMACs)
	for _, t := range l.DPMCPTerms() {
		l.DPMCPs += t.N
	}
	return l
}

// Emit returns the board's layout file and the DPC it needs (emitDPC),
// or nothing for a board without DPAA2.
func Emit(b *ir.Board) []outputs.File {
	l := Plan(b)
	if l == nil {
		return nil
	}
	d := b.SoC.DPAA2
	w := outputs.NewPrinter(outputs.DTS)
	header(w, b, l)
	w.P()
	w.P("/dts-v1/;")
	w.P()
	w.P("/ {")
	w.P("\tdpl-version = <10>;")
	w.P()
	w.P("\tcontainers {")
	w.P("\t\tdprc@1 {")
	w.P("\t\t\tcompatible = \"fsl,dprc\";")
	w.P("\t\t\tparent = \"none\";")
	w.P("\t\t\toptions = \"DPRC_CFG_OPT_SPAWN_ALLOWED\", \"DPRC_CFG_OPT_ALLOC_ALLOWED\", \"DPRC_CFG_OPT_IRQ_CFG_ALLOWED\";")
	w.P("\t\t\tobjects {")
	dpioIDs := make([]int, len(l.DPIOs))
	for i, io := range l.DPIOs {
		dpioIDs[i] = io.ID
	}
	sets := []struct {
		typ string
		ids []int
		o   outputs.Origin
	}{
		{"dpni", seq(0, len(l.DPNIs)), outputs.From(ir.RefDPAA2, d.DPNIPos)},
		{"dpmac", l.DPMACs, outputs.From(ir.RefDPAA2)},
		{"dpbp", seq(0, l.DPBPs()), outputs.From(ir.RefDPAA2, d.DPNIPos)},
		{"dpio", dpioIDs, outputs.From(ir.RefDPAA2, d.Pos)},
		{"dpcon", seq(0, l.DPCONs), outputs.From(ir.RefDPAA2, d.DPCONPos)},
		{"dprtc", seq(0, l.DPRTCs), outputs.From(ir.RefDPAA2)},
		{"dpmcp", seq(1, l.DPMCPs), outputs.From(ir.RefDPAA2)},
	}
	first := true
	for _, s := range sets {
		if len(s.ids) == 0 {
			continue
		}
		if !first {
			w.P()
		}
		first = false
		w.P(s.o, "\t\t\t\tobj_set@", s.typ, " {")
		w.P(s.o, "\t\t\t\t\ttype = \"", s.typ, "\";")
		w.P(s.o, "\t\t\t\t\tids = <", cells(s.ids), ">;")
		w.P("\t\t\t\t};")
	}
	w.P("\t\t\t};")
	w.P("\t\t};")
	w.P("\t};")
	w.P()
	w.P("\tobjects {")
	objects(w, b, l)
	w.P("\t};")
	if len(l.DPMACs) > 0 {
		w.P()
		w.P("\tconnections {")
		n := 0
		for _, p := range l.DPNIs {
			if p.DPMAC == 0 {
				continue
			}
			if n > 0 {
				w.P()
			}
			n++
			c := outputs.From(ir.RefDPAA2, p.Dev.DPMACPos)
			o := c.Named(fmt.Sprintf("dpni@%d", p.ID), fmt.Sprintf("dpmac@%d", p.DPMAC))
			w.Comment("\t\t", c, outputs.T(p.Dev.Name, ": ", outputs.At(netDevRef(b, p.Dev.Name).Field("dpmac"), p.Dev.DPMACPos)))
			w.P(o, "\t\tconnection@", n, " {")
			w.P(o, "\t\t\tendpoint1 = \"dpni@", p.ID, "\";")
			w.P(o, "\t\t\tendpoint2 = \"dpmac@", p.DPMAC, "\";")
			w.P("\t\t};")
		}
		w.P("\t};")
	}
	w.P("};")
	return []outputs.File{w.File(Name(b)), emitDPC(b, l)}
}

// objects writes the objects node's children.
func objects(w *outputs.Printer, b *ir.Board, l *Layout) {
	d := b.SoC.DPAA2
	comment(w, "\t\t",
		outputs.T("DPNIs: the fsl-mc master's interfaces in name order, num_queues"),
		outputs.T("their rxQueues (a queue per CPU with a DPIO where the master names"),
		outputs.T("no interface), one traffic class."))
	if pol := &b.Policy; len(pol.IsolatedCPUs) > 0 {
		o := outputs.From(ir.RefIsolatedCPUs, pol.IsolatedPos)
		comment(w, "\t\t",
			outputs.T(o, fmt.Sprintf("num_queues at most %d, the CPUs below isolated ", b.DPAA2EthReach()), ir.CPUText(ir.SortedCPUs(pol.IsolatedCPUs)), " (", outputs.At(ir.RefIsolatedCPUs, pol.IsolatedPos), "):"),
			outputs.T("dpaa2_eth_setup_dpio() (dpaa2-eth.c) makes a channel on each online CPU in"),
			outputs.T("ascending order until num_queues, and RSS spreads over the queues, so"),
			outputs.T("none reaches an isolated CPU."))
	}
	for _, p := range l.DPNIs {
		o := outputs.From(ir.RefDPAA2, d.DPNIPos).Named(fmt.Sprintf("dpni@%d", p.ID))
		note := outputs.N("no interface described: a queue per CPU with a DPIO")
		if p.Dev != nil {
			o = o.And("", p.Dev.Pos)
			note = outputs.N(p.Dev.Name, ", ", outputs.At(netDevRef(b, p.Dev.Name), p.Dev.Pos))
		}
		w.P(o, "\t\tdpni@", p.ID, " {\t", note)
		w.P(o, "\t\t\toptions = \"\";")
		w.P(o, "\t\t\tnum_queues = <", p.Queues, ">;")
		w.P(o, "\t\t\tnum_tcs = <1>;")
		w.P("\t\t};")
	}
	if len(l.DPMACs) > 0 {
		w.P()
		if b.HasSerDes {
			protos := make([]string, len(b.SerDes))
			for i, p := range b.SerDes {
				protos[i] = fmt.Sprintf("0x%02X", p)
			}
			comment(w, "\t\t",
				outputs.T("DPMACs the interfaces connect to (netdev dpmac), each with a lane under"),
				outputs.T("the board's SerDes protocols ", strings.Join(protos, "_"), " (", outputs.At(ir.RefSerDes, b.SerDesPos), "; check BC0309)."))
		} else {
			w.Comment("\t\t", "DPMACs the interfaces connect to (netdev dpmac)")
		}
		for _, m := range l.DPMACs {
			o := outputs.From(ir.RefDPAA2)
			if b.HasSerDes {
				o = o.And(ir.RefSerDes, b.SerDesPos)
			}
			w.P(o.Named(fmt.Sprintf("dpmac@%d", m)), "\t\tdpmac@", m, " {")
			w.P("\t\t\tcompatible = \"fsl,dpmac\";")
			w.P("\t\t};")
		}
	}
	w.P()
	comment(w, "\t\t",
		outputs.T("DPBPs: a buffer pool per DPNI, dpaa2_eth_setup_default_dpbp()"),
		outputs.T("(drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c)."))
	for i := 0; i < l.DPBPs(); i++ {
		w.P(outputs.From(ir.RefDPAA2, d.DPNIPos).Named(fmt.Sprintf("dpbp@%d", i)), "\t\tdpbp@", i, " {")
		w.P("\t\t\tcompatible = \"fsl,dpbp\";")
		w.P("\t\t};")
	}
	w.P()
	comment(w, "\t\t",
		outputs.T("DPIOs: one per CPU, as described (", outputs.At(ir.RefDPAA2.Field("dpios"), d.Pos), ");"),
		outputs.T("dpaa2_dpio_probe() (drivers/soc/fsl/dpio/dpio-driver.c) gives each"),
		outputs.T("an online CPU."))
	for _, io := range l.DPIOs {
		o := outputs.From(io.Ref(), io.Pos).Named(fmt.Sprintf("dpio@%d", io.ID))
		w.P(o, "\t\tdpio@", io.ID, " {\t", outputs.N("CPU ", io.CPU, ", ", outputs.At(io.Ref(), io.Pos)))
		w.P(o, "\t\t\tcompatible = \"fsl,dpio\";")
		w.P(o, "\t\t\tchannel_mode = \"DPIO_LOCAL_CHANNEL\";")
		w.P(o, "\t\t\tnum_priorities = <8>;")
		w.P("\t\t};")
	}
	w.P()
	comment(w, "\t\t",
		outputs.T(fmt.Sprintf("DPCONs: %d described (", l.DPCONs), outputs.At(ir.RefDPAA2.Field("dpcon"), d.DPCONPos), ");"),
		outputs.T(fmt.Sprintf("dpaa2-eth takes one per channel per DPNI, %d here:", l.Channels)),
		outputs.T("dpaa2_eth_setup_dpio(), dpaa2_eth_setup_dpcon()"),
		outputs.T("(drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c)."))
	for i := 0; i < l.DPCONs; i++ {
		w.P(outputs.From(ir.RefDPAA2, d.DPCONPos).Named(fmt.Sprintf("dpcon@%d", i)), "\t\tdpcon@", i, " {")
		w.P("\t\t\tcompatible = \"fsl,dpcon\";")
		w.P("\t\t\tnum_priorities = <2>;")
		w.P("\t\t};")
	}
	w.P()
	comment(w, "\t\t",
		outputs.T("DPRTC: the PTP clock. dpaa2-ptp binds it (dpaa2_ptp_match_id_table,"),
		outputs.T("drivers/net/ethernet/freescale/dpaa2/dpaa2-ptp.c:240) and registers the"),
		outputs.T("PHC that dpaa2-eth reports (dpaa2_phc_index, dpaa2-ethtool.c:806)."))
	for i := 0; i < l.DPRTCs; i++ {
		w.P(outputs.From(ir.RefDPAA2).Named(fmt.Sprintf("dprtc@%d", i)), "\t\tdprtc@", i, " {")
		w.P("\t\t\tcompatible = \"fsl,dprtc\";")
		w.P("\t\t};")
	}
	w.P()
	lines := []outputs.Text{outputs.T(fmt.Sprintf("DPMCPs: %d, the MC portals the kernel holds (Linux 6.12):", l.DPMCPs))}
	for _, t := range l.DPMCPTerms() {
		lines = append(lines, outputs.T(fmt.Sprintf("  %d: %s;", t.N, t.What)), outputs.T("     ", t.Source))
	}
	comment(w, "\t\t", lines...)
	for i := 1; i <= l.DPMCPs; i++ {
		w.P("\t\tdpmcp@", i, " {")
		w.P("\t\t\tcompatible = \"fsl,dpmcp\";")
		w.P("\t\t};")
	}
}

// header writes the SPDX line and the comment block the file starts with.
func header(w *outputs.Printer, b *ir.Board, l *Layout) {
	w.P("// SPDX-License-Identifier: (GPL-2.0-or-later OR MIT)")
	c := w.Block("")
	c.Line(outputs.GeneratedNotice)
	c.Line()
	c.Line(outputs.BoardText(b), ":")
	c.Line("the Management Complex data-path layout (DPL), in the format of NXP's")
	c.Line("mc-utils layouts (config/<soc>/<board>/dpl-eth.<serdes>.dts, dpl-version 10).")
	c.Line("Compile it as mc-utils does, dtc -I dts -O dtb, and give the dtb to the")
	c.Line("MC firmware as its DPL, with the DPC ", DPCName(b), " beside it. The")
	c.Line("comments name the description elements behind it.")
	c.Line()
	c.Line("Container dprc@1:")
	c.Line(fmt.Sprintf("  %d DPNIs, %d DPMACs, %d DPBPs, %d DPIOs, %d DPRTC, %d DPMCPs,", len(l.DPNIs), len(l.DPMACs), l.DPBPs(), len(l.DPIOs), l.DPRTCs, l.DPMCPs))
	c.Line(fmt.Sprintf("  %d DPCONs; the DPNIs' channels take %d.", l.DPCONs, l.Channels))
	c.End()
}

// netDevRef returns the ref of the fsl-mc master's interface called name.
func netDevRef(b *ir.Board, name string) ir.Ref {
	for _, m := range b.SoC.Masters {
		if !m.IsMC() {
			continue
		}
		for _, d := range m.NetDevs {
			if d.Name == name {
				return m.Ref().Field("netdev").Field(name)
			}
		}
	}
	return ir.RefDPAA2
}

// comment writes a block comment of lines at indent.
func comment(w *outputs.Printer, indent string, lines ...outputs.Text) {
	c := w.Block(indent)
	for _, l := range lines {
		c.Line(l...)
	}
	c.End()
}

// seq returns the n integers from first.
func seq(first, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = first + i
	}
	return out
}

// cells returns ids as the cells of a DTS property.
func cells(ids []int) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return strings.Join(s, " ")
}
