package c

import (
	"fmt"
	"strings"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// VerifyName returns the name of the board's verifier module source.
func VerifyName(b *ir.Board) string { return "boardc_" + b.CIdent() + "_verify.c" }

// verifyKbuild returns the Kbuild file that builds the verifier module out
// of tree: make -C <kernel build dir> M=$PWD modules.
func (g *gen) verifyKbuild() outputs.File {
	w := outputs.NewPrinter(outputs.Conf)
	w.P("# SPDX-License-Identifier: GPL-2.0")
	w.P("# ", outputs.GeneratedNotice)
	w.P("# The runtime verifier of board ", g.b.Name, ": make -C KERNEL_BUILD_DIR M=$PWD modules")
	w.P("obj-m += boardc_", g.b.CIdent(), "_verify.o")
	return w.File("Kbuild")
}

// verify writes the verifier module: loaded on the target, it reports, for
// every enabled master, how the running kernel applied the description.
func (g *gen) verify() outputs.File {
	b := g.b
	w := outputs.NewPrinter(outputs.C)
	w.Grow(10<<10 + 400*len(b.SoC.Masters)) // the in-tree boards' verifiers
	w.P("// SPDX-License-Identifier: GPL-2.0")
	desc := outputs.T(outputs.BoardText(b), ": runtime verifier.")
	w.Comment("", outputs.GeneratedNotice, desc,
		"Load it on the board: for every master the board enables, it finds the device bound to "+
			"the master's node (a platform device, of_find_device_by_node(), or an AMBA primecell, "+
			"bus_find_device_by_of_node(&amba_bustype)) and prints one line comparing what the kernel "+
			"applied with the description: DMA coherency as the DMA layer sees it "+
			"(dev_is_dma_coherent(), <linux/dma-map-ops.h>), the streaming and coherent DMA masks, and "+
			"the bus DMA limit the kernel took from dma-ranges (dev->bus_dma_limit, set by "+
			"of_dma_configure_id(), drivers/of/device.c, from of_dma_get_range(), drivers/of/address.c: "+
			"the highest address of the nearest non-empty dma-ranges above the device, 0 for none) "+
			"against the description's. A mask the description leaves to a driver is checked against "+
			"the widths that driver can set (driverSets widths: it picks one at probe, after "+
			"of_dma_configure_id() narrowed the default), and printed as information (\"any\") where "+
			"the description names none. For a PCI host bridge it also prints the PCI devices behind "+
			"it, bridges aside (pci_is_bridge()): their coherency and bus DMA limit come from the "+
			"bridge's node, their masks from each endpoint's own driver, printed as information. On a "+
			"DPAA2 SoC it also counts the online CPUs that have a DPIO of their own. A closing line "+
			"counts the mismatches. With strict=1 a mismatch, or a master with no bound device, makes "+
			"the load fail. A device's driver and masks are read under its lock (device_lock(), which "+
			"really_probe() in drivers/base/dd.c holds while a driver binds and sets them).")
	if g.bridgeEndpoints() {
		w.P()
		w.Comment("", "A master described as a PCIe host bridge (bridge) does no DMA itself: its own "+
			"device's masks are printed as information, and the PCI devices behind it are checked "+
			"against the widths the description gives its endpoints' drivers (bridge endpoints), "+
			"any of which each driver sets in its probe, after pci_dma_configure() "+
			"(drivers/pci/pci-driver.c) configured the device from the bridge's node.")
	}
	children := g.childMasters()
	if children {
		w.P()
		w.Comment("", "A master whose masks its bus driver sets on the devices it creates below the node's "+
			"device, and not on that device (driverSets children: fsl_mc_device_add(), "+
			"drivers/bus/fsl-mc/fsl-mc-bus.c, on every fsl-mc object but a container), is checked "+
			"there: the node's device for coherency and bus DMA limit (its masks are the OF default "+
			"nobody uses), then every device below it, at any depth, that is bound to a driver and "+
			"has DMA masks, one line each. Those masks were set when the device was created and "+
			"narrowed when a driver bound it: of_dma_configure_id() (drivers/of/device.c), which "+
			"the fsl-mc bus calls from fsl_mc_dma_configure() with the fsl-mc node, ands both with "+
			"DMA_BIT_MASK(ilog2(end) + 1), end the top of the dma-ranges above that node; a driver "+
			"that sets masks of its own in its probe, after that, is listed by object type with "+
			"the widths it sets. Unbound devices (whose masks the kernel may not have narrowed yet) "+
			"and devices without DMA masks (a DPRC: fsl_mc_device_add() sets none, and "+
			"of_dma_configure_id() points its dma_mask at its zero coherent mask) are counted, not "+
			"checked. No device checked below the node (no DPRC scanned yet, no objects, or none "+
			"bound) is reported as NOCHILDREN: not a mismatch, but like an unbound master it makes "+
			"a strict=1 load fail, since nothing was verified.")
	}
	w.P()
	hs := []string{"bits.h", "device.h", "dma-map-ops.h", "dma-mapping.h", "errno.h", "kernel.h", "module.h",
		"moduleparam.h", "of.h", "of_platform.h", "pci.h", "platform_device.h"}
	if b.SoC.DPAA2 != nil {
		hs = append([]string{"cpumask.h"}, hs...)
	}
	if children {
		hs = append(hs, "string.h")
	}
	for _, h := range hs {
		w.P("#include <linux/", h, ">")
	}
	w.P()
	w.Comment("", "amba_bustype: include/linux/amba/bus.h, exported by drivers/amba/bus.c (CONFIG_ARM_AMBA).")
	w.P("#ifdef CONFIG_ARM_AMBA")
	w.P("#include <linux/amba/bus.h>")
	w.P("#endif")
	if b.SoC.DPAA2 != nil {
		w.P()
		w.Comment("", "dpaa2_io_service_select(): "+dpaa2Header+", exported by drivers/soc/fsl/dpio/dpio-service.c (CONFIG_FSL_MC_DPIO).")
		w.P("#if IS_REACHABLE(CONFIG_FSL_MC_DPIO)")
		w.P("#include <soc/fsl/dpaa2-io.h>")
		w.P("#endif")
	}
	w.P()
	w.P("static bool strict;")
	w.P("module_param(strict, bool, 0444);")
	w.P("MODULE_PARM_DESC(strict, \"fail the load on any mismatch or unbound master\");")
	w.P()
	w.Comment("", "struct boardc_verify_widths is what a device's masks may be: bit n - 1 of dma (coherent) "+
		"set when an n-bit streaming (coherent) mask matches, 0 when any does (the mask is printed "+
		"as information); dma_text and coherent_text are the same, as printed.")
	w.P("struct boardc_verify_widths {")
	w.P("\tu64 dma;")
	w.P("\tu64 coherent;")
	w.P("\tconst char *dma_text;")
	w.P("\tconst char *coherent_text;")
	w.P("};")
	w.P()
	if children {
		g.verifyObjectType(w)
	}
	w.P("struct boardc_verify_master {")
	w.P("\tconst char *key;")
	w.P("\tconst char *path;")
	w.P("\tbool coherent;")
	w.P("\tstruct boardc_verify_widths own;\t/* the node's device */")
	w.P("\tstruct boardc_verify_widths below;\t/* the devices below it: PCI devices, children */")
	w.P("\tu64 bus_limit;\t/* the node's device's bus_dma_limit */")
	w.P("\tu64 below_limit;\t/* that of the devices below it */")
	w.P("\tbool children;\t/* the masks are on the devices below the node's */")
	if children {
		w.P("\tconst struct boardc_verify_object *objects;\t/* by object type, ends with { } */")
	}
	w.P("};")
	w.P()
	if children {
		g.verifyObjects(w)
	}
	table := g.p + "_verify_masters"
	w.P(masters(table), "static const struct boardc_verify_master ", table, "[] = {")
	for _, m := range b.SoC.Masters {
		if !m.Enabled {
			continue
		}
		g.verifyRow(w, m, children)
	}
	w.P("\t{ }")
	w.P("};")
	w.P()
	w.Comment("", "width_ok reports whether a mask bits wide is one of set (0: any).")
	w.P("static bool width_ok(u64 set, unsigned int bits)")
	w.P("{")
	w.P("\treturn !set || (bits && (set & BIT_ULL(bits - 1)));")
	w.P("}")
	w.P()
	w.Comment("", "check reports device dev of master m against the widths ok and the bus DMA limit "+
		"limit, and returns whether it matches. The caller holds dev's lock.")
	w.P("static bool check(const struct boardc_verify_master *m, struct device *dev,")
	w.P("\t\t  const struct boardc_verify_widths *ok, u64 limit)")
	w.P("{")
	w.P("\tbool coherent = dev_is_dma_coherent(dev);")
	w.P("\tunsigned int bits = dev->dma_mask ? fls64(*dev->dma_mask) : 0;")
	w.P("\tunsigned int cbits = fls64(dev->coherent_dma_mask);")
	w.P("\tbool match = coherent == m->coherent && width_ok(ok->dma, bits) &&")
	w.P("\t\t     width_ok(ok->coherent, cbits) && dev->bus_dma_limit == limit;")
	w.P()
	w.P("\tpr_info(\"boardc-verify: %s %s %s %s coherent=%d/%d dma_mask=%u/%s coherent_mask=%u/%s bus_dma_limit=%#llx/%#llx\\n\",")
	w.P("\t\tmatch ? \"ok\" : \"MISMATCH\", m->key, m->path, dev_name(dev),")
	w.P("\t\tcoherent, m->coherent, bits, ok->dma_text, cbits, ok->coherent_text,")
	w.P("\t\t(unsigned long long)dev->bus_dma_limit, (unsigned long long)limit);")
	w.P("\treturn match;")
	w.P("}")
	w.P()
	if children {
		g.verifyChildren(w)
	}
	g.verifyPCI(w)
	w.Comment("", "find_device returns the device of node np with a reference held: its platform "+
		"device, else its AMBA primecell device (of_amba_device_create(), drivers/of/platform.c), "+
		"else NULL.")
	w.P("static struct device *find_device(struct device_node *np)")
	w.P("{")
	w.P("\tstruct platform_device *pdev = of_find_device_by_node(np);")
	w.P()
	w.P("\tif (pdev)")
	w.P("\t\treturn &pdev->dev;")
	w.P("#ifdef CONFIG_ARM_AMBA")
	w.P("\treturn bus_find_device_by_of_node(&amba_bustype, np);")
	w.P("#else")
	w.P("\treturn NULL;")
	w.P("#endif")
	w.P("}")
	w.P()
	w.Comment("", "verify checks master m at node np and the devices below it, and returns the "+
		"mismatches; a master without a bound device counts in *unbound.")
	w.P("static int verify(const struct boardc_verify_master *m, struct device_node *np, int *unbound)")
	w.P("{")
	w.P("\tstruct device *dev = find_device(np);")
	w.P("\tbool bound;")
	w.P("\tint bad = 0;")
	w.P()
	w.P("\tif (!dev) {")
	w.P("\t\tpr_info(\"boardc-verify: UNBOUND %s %s: no device\\n\", m->key, m->path);")
	w.P("\t\t(*unbound)++;")
	w.P("\t\treturn 0;")
	w.P("\t}")
	w.P("\tdevice_lock(dev);")
	w.P("\tbound = dev->driver;")
	w.P("\tif (!bound)")
	w.P("\t\tpr_info(\"boardc-verify: UNBOUND %s %s %s: no driver\\n\", m->key, m->path, dev_name(dev));")
	if children {
		w.P("\telse if (m->children)")
		w.P("\t\tbad += !check_node(m, dev);")
	}
	w.P("\telse")
	w.P("\t\tbad += !check(m, dev, &m->own, m->bus_limit);")
	w.P("\tdevice_unlock(dev);")
	w.P("\tif (!bound)")
	w.P("\t\t(*unbound)++;")
	if children {
		w.P("\telse if (m->children)")
		w.P("\t\tbad += verify_below(m, dev);")
	}
	w.P("\telse")
	w.P("\t\tbad += verify_pci(m, np);")
	w.P("\tput_device(dev);")
	w.P("\treturn bad;")
	w.P("}")
	w.P()
	if b.SoC.DPAA2 != nil {
		g.verifyDPIO(w)
	}
	fn := g.p + "_verify_init"
	w.P(named(fn), "static int __init ", fn, "(void)")
	w.P("{")
	w.P("\tconst struct boardc_verify_master *m;")
	w.P("\tstruct device_node *np;")
	w.P("\tint bad = 0, unbound = 0;")
	w.P()
	w.P("\tfor (m = ", table, "; m->key; m++) {")
	w.P("\t\tnp = of_find_node_by_path(m->path);")
	w.P("\t\tif (!np) {")
	w.P("\t\t\tpr_info(\"boardc-verify: UNBOUND %s %s: no node\\n\", m->key, m->path);")
	w.P("\t\t\tunbound++;")
	w.P("\t\t\tcontinue;")
	w.P("\t\t}")
	w.P("\t\tbad += verify(m, np, &unbound);")
	w.P("\t\tof_node_put(np);")
	w.P("\t}")
	if b.SoC.DPAA2 != nil {
		w.P("\tbad += verify_dpio();")
	}
	if children {
		w.P("\tpr_info(\"boardc-verify: board ", b.Name, ": %d mismatch(es), %d master(s) not bound, %d with no device checked below\\n\",")
		w.P("\t\tbad, unbound, below_unchecked);")
		w.P("\treturn strict && (bad || unbound || below_unchecked) ? -EINVAL : 0;")
	} else {
		w.P("\tpr_info(\"boardc-verify: board ", b.Name, ": %d mismatch(es), %d master(s) not bound\\n\", bad, unbound);")
		w.P("\treturn strict && (bad || unbound) ? -EINVAL : 0;")
	}
	w.P("}")
	w.P()
	w.P("static void __exit ", g.p, "_verify_exit(void)")
	w.P("{")
	w.P("}")
	w.P()
	w.P("module_init(", fn, ");")
	w.P("module_exit(", g.p, "_verify_exit);")
	w.P("MODULE_DESCRIPTION(\"boardc runtime verifier of board ", b.Name, "\");")
	w.P("MODULE_LICENSE(\"GPL\");")
	return w.File(VerifyName(b))
}

// verifyRow writes master m's row of the verifier's table, after a comment
// naming where each of its facts comes from; children says whether the
// table has the objects column.
func (g *gen) verifyRow(w *outputs.Printer, m *ir.Master, children bool) {
	o := outputs.From(m.Ref(), m.DMABitsPos)
	title := masterTitle(m)
	limit, from := m.BusDMALimit()
	plimit, pfrom := m.EndpointDMALimit()
	for _, f := range []*ir.Bus{from, pfrom} {
		if f != nil {
			o = o.And(f.Ref(), f.DMARangesPos)
		}
	}
	if br := m.Bridge; br != nil && br.HasDMARanges() {
		o = o.And(m.Ref(), br.DMARangesPos) // the bridge's own dma-ranges give plimit
	}
	if from != nil {
		title = append(title, "; bus limit from the dma-ranges of ", from.Key, ", ", from.DMARangesPos)
	}
	dma, cdma := ownWidths(m)
	bdma, bcdma := belowWidths(m)
	d := m.DriverSets
	switch br := m.Bridge; {
	case br != nil && len(br.Endpoints) > 0:
		o = o.And(m.Ref(), br.Pos, br.EndpointsPos)
		title = append(title, fmt.Sprintf("; its own device does no DMA, its masks are printed as information; the PCI devices behind it are checked for coherency, bus limit and the %s bits their drivers set (%s)", bdma.prose(), br.EndpointsPos.Short()))
	case br != nil:
		o = o.And(m.Ref(), br.Pos)
		title = append(title, "; its own device does no DMA, its masks are printed as information; the PCI devices behind it are checked for coherency and bus limit, their masks printed as information")
	case m.DMADevice != nil:
		o = o.And(m.Ref(), m.DMADevicePos).And(m.DMADevice.Ref())
		title = append(title, fmt.Sprintf("; its DMA is configured from the node of master %s: checked for that node's coherency and bus limit, its masks printed as information", m.DMADevice.Key))
	case d != nil && d.Children:
		o = o.And(m.Ref(), d.ChildrenPos)
		title = append(title, fmt.Sprintf("; masks set on the devices below it (%s), narrowed to %s/%s bits by the bus limit when a driver binds them", d.ChildrenPos.Short(), bdma.prose(), bcdma.prose()))
	case d != nil && len(d.Widths) > 0:
		o = o.And(m.Ref(), d.WidthsPos)
		title = append(title, fmt.Sprintf("; its driver sets %s bits (%s)", dma.prose(), d.WidthsPos.Short()))
	case d != nil:
		o = o.And(m.Ref(), d.Pos)
		title = append(title, fmt.Sprintf("; its driver sets the masks (%s), printed as information", d.Pos.Short()))
	}
	w.Comment("\t", o, title)
	objects := ""
	if children {
		objects = ", NULL"
		if d != nil && d.Children && fslMC(m) {
			objects = ", " + g.p + "_verify_objects"
		}
	}
	w.P(o, "\t{ ", outputs.Str(m.Key), ", ", outputs.Str(m.Node.Path), ", ", m.Coherent(), ",")
	w.P(o, "\t  ", cWidths(dma, cdma), ",")
	w.P(o, "\t  ", cWidths(bdma, bcdma), ",")
	w.P(o, "\t  ", hex(limit), ", ", hex(plimit), ", ", d != nil && d.Children, objects, " },")
}

// verifyPCI writes verify_pci(), which prints the PCI devices behind master
// m when it is a host bridge, bridges aside: a PCI-to-PCI bridge (a root
// port, bound by pcieport) does no DMA of its own. A device's coherency and
// bus DMA limit are set when a driver binds it, by pci_dma_configure()
// (drivers/pci/pci-driver.c), which hands of_dma_configure() the host
// bridge's node: unbound devices are skipped.
func (g *gen) verifyPCI(w *outputs.Printer) {
	w.Comment("", "verify_pci checks the PCI devices behind master m at node np, when it is a host bridge, "+
		"that a driver is bound to and that are not bridges, and returns the mismatches.")
	w.P("static int verify_pci(const struct boardc_verify_master *m, struct device_node *np)")
	w.P("{")
	w.P("\tint bad = 0;")
	w.P("#ifdef CONFIG_PCI")
	w.P("\tstruct pci_dev *pci = NULL;")
	w.P("\tstruct pci_host_bridge *bridge;")
	w.P()
	w.P("\tfor_each_pci_dev(pci) {")
	w.P("\t\tbridge = pci_find_host_bridge(pci->bus);")
	w.P("\t\tif (pci_is_bridge(pci) || !bridge || !bridge->dev.parent ||")
	w.P("\t\t    bridge->dev.parent->of_node != np)")
	w.P("\t\t\tcontinue;")
	w.P("\t\tdevice_lock(&pci->dev);")
	w.P("\t\tif (pci->dev.driver && !check(m, &pci->dev, &m->below, m->below_limit))")
	w.P("\t\t\tbad++;")
	w.P("\t\tdevice_unlock(&pci->dev);")
	w.P("\t}")
	w.P("#endif")
	w.P("\treturn bad;")
	w.P("}")
	w.P()
}

// dpaa2Header declares the DPIO service API.
const dpaa2Header = "include/soc/fsl/dpaa2-io.h"

// verifyDPIO writes verify_dpio(), which checks that the online CPUs
// with a DPIO of their own are those the description gives one:
// dpaa2_io_service_select(cpu) returns the DPIO dpaa2_dpio_probe() gave
// that CPU, NULL for a CPU without one (service_select_by_cpu(),
// drivers/soc/fsl/dpio/dpio-service.c), and dpaa2-eth makes its channels
// on those CPUs only (dpaa2_eth_setup_dpio(),
// drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c). A CPU the
// description gives no DPIO, such as an isolated one, is expected to have
// none.
func (g *gen) verifyDPIO(w *outputs.Printer) {
	d := g.b.SoC.DPAA2
	cpus := g.b.SoC.DPIOCPUs()
	o := outputs.From(ir.RefDPAA2, d.Pos)
	w.Comment("", o, outputs.T(fmt.Sprintf("verify_dpio checks that the online CPUs with a DPIO of their own "+
		"(dpaa2_io_service_select(cpu) not NULL, drivers/soc/fsl/dpio/dpio-service.c) are those the description "+
		"gives one, %s of its %d DPIOs (", ir.CPUText(cpus), len(d.DPIOs)), outputs.At(ir.RefDPAA2.Field("dpios"), d.Pos),
		"), and that any other online CPU has none. It returns 1 on a mismatch, and when the DPIO driver is not built "+
			"(no DPAA2 networking without it)."))
	list := make([]string, len(cpus))
	for i, c := range cpus {
		list[i] = fmt.Sprint(c)
	}
	w.P("static int verify_dpio(void)")
	w.P("{")
	w.P("#if IS_REACHABLE(CONFIG_FSL_MC_DPIO)")
	if len(cpus) > 0 {
		w.P(o, "\tstatic const unsigned int described[] = { ", strings.Join(list, ", "), " };")
	}
	w.P("\tunsigned int cpu, online = num_online_cpus(), with = 0, wrong = 0;")
	w.P()
	w.P("\tfor_each_online_cpu(cpu) {")
	w.P("\t\tbool has = dpaa2_io_service_select(cpu) != NULL, want = false;")
	if len(cpus) > 0 {
		w.P("\t\tunsigned int i;")
		w.P()
		w.P("\t\tfor (i = 0; i < ARRAY_SIZE(described); i++)")
		w.P("\t\t\twant = want || described[i] == cpu;")
	} else {
		w.P()
	}
	w.P("\t\twith += has;")
	w.P("\t\tif (has != want) {")
	w.P("\t\t\twrong++;")
	w.P("\t\t\tpr_info(\"boardc-verify: MISMATCH dpio cpu=%u own_dpio=%d described=%d\\n\", cpu, has, want);")
	w.P("\t\t}")
	w.P("\t}")
	w.P(o, "\tpr_info(\"boardc-verify: %s dpio online_cpus=%u with_own_dpio=%u described=", len(d.DPIOs), "\\n\",")
	w.P("\t\twrong ? \"MISMATCH\" : \"ok\", online, with);")
	w.P("\treturn wrong ? 1 : 0;")
	w.P("#else")
	w.P("\tpr_info(\"boardc-verify: MISMATCH dpio: the DPIO driver (CONFIG_FSL_MC_DPIO) is not built\\n\");")
	w.P("\treturn 1;")
	w.P("#endif")
	w.P("}")
	w.P()
}

// hex prints a 64-bit limit as a C constant.
func hex(v uint64) string { return fmt.Sprintf("%#xULL", v) }

// bridgeEndpoints reports whether an enabled master of the board is a
// bridge whose endpoints' widths the description states: the verifier
// then checks the masks of the PCI devices behind it.
func (g *gen) bridgeEndpoints() bool {
	for _, m := range g.b.SoC.Masters {
		if m.Enabled && m.Bridge != nil && len(m.Bridge.Endpoints) > 0 {
			return true
		}
	}
	return false
}
