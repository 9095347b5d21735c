package c

import (
	"slices"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// childMasters reports whether the board enables a master whose masks its
// bus driver sets on the devices below the master's (driverSets
// children): only then does the verifier carry the code that walks them.
func (g *gen) childMasters() bool {
	for _, m := range g.b.SoC.Masters {
		if m.Enabled && m.DriverSets != nil && m.DriverSets.Children {
			return true
		}
	}
	return false
}

// fslMC reports whether m is an fsl-mc bus (compatible "fsl,qoriq-mc",
// drivers/bus/fsl-mc/fsl-mc-bus.c fsl_mc_bus_match_table), whose objects
// the verifier checks by type (fslMCObjects).
func fslMC(m *ir.Master) bool { return slices.Contains(m.Compatible, "fsl,qoriq-mc") }

// objectMasks is what a driver of an fsl-mc object type does to the
// object's masks in its probe, after fsl_mc_dma_configure() narrowed the
// 64-bit masks fsl_mc_device_add() gave it.
type objectMasks struct {
	// Type is the object type, the start of the device's name:
	// fsl_mc_device_add() names it "%s.%d", obj_desc->type and id
	// (drivers/bus/fsl-mc/fsl-mc-bus.c, Linux 6.12:812, 6.1:843).
	Type string
	// Driver is the driver's name (struct device_driver name): with
	// another driver bound (vfio-fsl-mc, by driver_override), the masks
	// stay as the bus narrowed them.
	Driver string
	// Bits is the width of both masks the driver sets.
	Bits int
	// Source is where the driver sets them.
	Source string
}

// fslMCObjects lists the fsl-mc object types whose driver sets masks of
// its own, read from every fsl_mc_driver of Linux 6.12 and 6.1
// (grep -l 'struct fsl_mc_driver' drivers/): only dpaa2-caam does.
//
// The others set none, so the object keeps the 64-bit masks of
// fsl_mc_device_add() (fsl-mc-bus.c, 6.12:855-857, 6.1:886-888) as
// of_dma_configure_id() narrowed them at bind:
//   - dpni: dpaa2_eth_probe(), drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c (6.12:4846, 6.1:4623);
//   - dpio: dpaa2_dpio_probe(), drivers/soc/fsl/dpio/dpio-driver.c (6.12:122, 6.1:122);
//   - dprtc: dpaa2_ptp_probe(), drivers/net/ethernet/freescale/dpaa2/dpaa2-ptp.c (6.12:128, 6.1:129);
//   - dpsw: dpaa2_switch_probe(), drivers/net/ethernet/freescale/dpaa2/dpaa2-switch.c (6.12:3420, 6.1:3386);
//   - dpdmai: dpaa2_qdma_probe(), drivers/dma/fsl-dpaa2-qdma/dpaa2-qdma.c (6.12:655, 6.1:655);
//   - dpbp, dpmcp, dpcon: fsl_mc_allocator_probe(), drivers/bus/fsl-mc/fsl-mc-allocator.c (6.12:583, 6.1:580);
//   - dprc: dprc_probe(), drivers/bus/fsl-mc/dprc-driver.c (6.12:738, 6.1:739), on a
//     device without masks (fsl_mc_device_add() sets none on a container): counted, not checked;
//   - dpmac: no driver binds it (dpaa2-mac.c opens it for dpaa2-eth through
//     fsl_mc_get_endpoint()): unbound, counted, not checked.
var fslMCObjects = []objectMasks{{
	Type:   "dpseci",
	Driver: "dpaa2_caam", // KBUILD_MODNAME: dpaa2_caam-y := caamalg_qi2.o, drivers/crypto/caam/Makefile:36
	Bits:   49,
	Source: "drivers/crypto/caam/caamalg_qi2.c dpaa2_caam_probe(): dma_set_mask_and_coherent(dev, DMA_BIT_MASK(49)) (6.12:5230, 6.1:5183)",
}}

// verifyObjectType writes the declaration of the table of object types.
func (g *gen) verifyObjectType(w *outputs.Printer) {
	w.Comment("", "struct boardc_verify_object is an object type whose driver sets masks of its own: "+
		"a device named \"type.N\" bound to driver has ok's widths instead of the master's below.")
	w.P("struct boardc_verify_object {")
	w.P("\tconst char *type;")
	w.P("\tconst char *driver;")
	w.P("\tstruct boardc_verify_widths ok;")
	w.P("};")
	w.P()
}

// verifyObjects writes the table of fsl-mc object types, when the board
// enables an fsl-mc master.
func (g *gen) verifyObjects(w *outputs.Printer) {
	var mc *ir.Master
	for _, m := range g.b.SoC.Masters {
		if m.Enabled && m.DriverSets != nil && m.DriverSets.Children && fslMC(m) {
			mc = m
			break
		}
	}
	if mc == nil {
		return
	}
	table := g.p + "_verify_objects"
	o := outputs.From(mc.Ref(), mc.DriverSets.ChildrenPos)
	w.Comment("", o, "The fsl-mc object types whose driver sets masks of its own in its probe, after "+
		"fsl_mc_dma_configure() narrowed the bus's: every other type keeps the narrowed masks.")
	w.P(o.Named(table), "static const struct boardc_verify_object ", table, "[] = {")
	for _, t := range fslMCObjects {
		w.Comment("\t", o, t.Source)
		ws := widthSet{t.Bits}
		w.P(o, "\t{ ", outputs.Str(t.Type), ", ", outputs.Str(t.Driver), ", ", cWidths(ws, ws), " },")
	}
	w.P("\t{ }")
	w.P("};")
	w.P()
}

// verifyChildren writes verify_below(), which checks a master whose masks
// are set on the devices created below its node's device: that device's
// coherency and bus DMA limit (check_node()), then every device below it,
// at any depth (device_for_each_child(), include/linux/device.h, whose
// callback type is the same in Linux 6.1 and 6.12), that is bound to a
// driver and has DMA masks. On the fsl-mc bus the platform device's one
// child is the root container, dprc.N (fsl_mc_bus_probe(),
// drivers/bus/fsl-mc/fsl-mc-bus.c), and the objects are the container's
// children (dprc_add_new_devices(), drivers/bus/fsl-mc/dprc-driver.c):
// the walk has to go below the first level.
func (g *gen) verifyChildren(w *outputs.Printer) {
	w.Comment("", "below_unchecked counts the masters with no device checked below their node's device.")
	w.P("static int below_unchecked;")
	w.P()
	w.Comment("", "check_node reports the node's device dev of master m, whose masks are set on the "+
		"devices below it: its coherency and bus DMA limit. The caller holds dev's lock.")
	w.P("static bool check_node(const struct boardc_verify_master *m, struct device *dev)")
	w.P("{")
	w.P("\tbool coherent = dev_is_dma_coherent(dev);")
	w.P("\tbool match = coherent == m->coherent && dev->bus_dma_limit == m->bus_limit;")
	w.P()
	w.P("\tpr_info(\"boardc-verify: %s %s %s %s coherent=%d/%d bus_dma_limit=%#llx/%#llx masks=below\\n\",")
	w.P("\t\tmatch ? \"ok\" : \"MISMATCH\", m->key, m->path, dev_name(dev), coherent, m->coherent,")
	w.P("\t\t(unsigned long long)dev->bus_dma_limit, (unsigned long long)m->bus_limit);")
	w.P("\treturn match;")
	w.P("}")
	w.P()
	w.Comment("", "struct boardc_verify_walk is the state of a walk below a master's device.")
	w.P("struct boardc_verify_walk {")
	w.P("\tconst struct boardc_verify_master *m;")
	w.P("\tint checked, bad, unbound, nomask;")
	w.P("};")
	w.P()
	w.Comment("", "child_widths returns the widths a device below master m may have: those of its "+
		"object type when the driver bound to it sets masks of its own, else the master's below. "+
		"The caller holds dev's lock.")
	w.P("static const struct boardc_verify_widths *child_widths(const struct boardc_verify_master *m,")
	w.P("\t\t\t\t\t\t\t struct device *dev)")
	w.P("{")
	w.P("\tconst struct boardc_verify_object *o;")
	w.P("\tsize_t n;")
	w.P()
	w.P("\tfor (o = m->objects; o && o->type; o++) {")
	w.P("\t\tn = strlen(o->type);")
	w.P("\t\tif (!strncmp(dev_name(dev), o->type, n) && dev_name(dev)[n] == '.' &&")
	w.P("\t\t    !strcmp(dev->driver->name, o->driver))")
	w.P("\t\t\treturn &o->ok;")
	w.P("\t}")
	w.P("\treturn &m->below;")
	w.P("}")
	w.P()
	w.Comment("", "verify_child checks dev, a device below a master's, if a driver is bound to it and it "+
		"has DMA masks (a DPRC has none: both zero), then the devices below it.")
	w.P("static int verify_child(struct device *dev, void *data)")
	w.P("{")
	w.P("\tstruct boardc_verify_walk *walk = data;")
	w.P()
	w.P("\tdevice_lock(dev);")
	w.P("\tif (!dev->driver) {")
	w.P("\t\twalk->unbound++;")
	w.P("\t} else if (!dev->coherent_dma_mask && (!dev->dma_mask || !*dev->dma_mask)) {")
	w.P("\t\twalk->nomask++;")
	w.P("\t} else {")
	w.P("\t\twalk->checked++;")
	w.P("\t\tif (!check(walk->m, dev, child_widths(walk->m, dev), walk->m->below_limit))")
	w.P("\t\t\twalk->bad++;")
	w.P("\t}")
	w.P("\tdevice_unlock(dev);")
	w.P("\treturn device_for_each_child(dev, walk, verify_child);")
	w.P("}")
	w.P()
	w.Comment("", "verify_below checks the devices below dev, the node's device of master m, and "+
		"returns the mismatches. No device checked below is NOCHILDREN, counted in below_unchecked.")
	w.P("static int verify_below(const struct boardc_verify_master *m, struct device *dev)")
	w.P("{")
	w.P("\tstruct boardc_verify_walk walk = { .m = m };")
	w.P()
	w.P("\tdevice_for_each_child(dev, &walk, verify_child);")
	w.P("\tif (walk.checked) {")
	w.P("\t\tpr_info(\"boardc-verify: below %s %s %s: %d checked, %d mismatch(es), %d unbound, %d without DMA masks\\n\",")
	w.P("\t\t\tm->key, m->path, dev_name(dev), walk.checked, walk.bad, walk.unbound, walk.nomask);")
	w.P("\t} else {")
	w.P("\t\tpr_info(\"boardc-verify: NOCHILDREN %s %s: no device with a driver and DMA masks below %s (%d unbound, %d without DMA masks)\\n\",")
	w.P("\t\t\tm->key, m->path, dev_name(dev), walk.unbound, walk.nomask);")
	w.P("\t\tbelow_unchecked++;")
	w.P("\t}")
	w.P("\treturn walk.bad;")
	w.P("}")
	w.P()
}
