package c

import "boardc.dev/boardc/outputs"

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

// verifyChildren writes verify_below(), which checks a master whose masks
// are set on the devices created below its node's device: that device's
// coherency and bus DMA limit, then every device below it, at any depth
// (device_for_each_child(), include/linux/device.h, whose callback type is
// the same in Linux 6.1 and in mainline's device_iter_t), that is bound to
// a driver and has DMA masks. On the fsl-mc bus the platform device's one
// child is the root container, dprc.N (fsl_mc_bus_probe(),
// drivers/bus/fsl-mc/fsl-mc-bus.c), and the objects are the container's
// children (dprc_add_new_devices(), drivers/bus/fsl-mc/dprc-driver.c):
// the walk has to go below the first level.
func (g *gen) verifyChildren(w *outputs.Printer) {
	w.Comment("", "below_unchecked counts the masters with no device checked below their node's device.")
	w.P("static int below_unchecked;")
	w.P()
	w.Comment("", "struct boardc_verify_walk is the state of a walk below a master's device.")
	w.P("struct boardc_verify_walk {")
	w.P("\tconst struct boardc_verify_master *m;")
	w.P("\tint checked, bad, unbound, nomask;")
	w.P("};")
	w.P()
	w.Comment("", "verify_child checks dev, a device below a master's, if a driver is bound to it and it "+
		"has DMA masks (a DPRC has none: both zero), then the devices below it.")
	w.P("static int verify_child(struct device *dev, void *data)")
	w.P("{")
	w.P("\tstruct boardc_verify_walk *walk = data;")
	w.P()
	w.P("\tif (!dev->driver) {")
	w.P("\t\twalk->unbound++;")
	w.P("\t} else if (!dev->coherent_dma_mask && (!dev->dma_mask || !*dev->dma_mask)) {")
	w.P("\t\twalk->nomask++;")
	w.P("\t} else {")
	w.P("\t\twalk->checked++;")
	w.P("\t\tif (!check(walk->m, dev, walk->m->below_limit))")
	w.P("\t\t\twalk->bad++;")
	w.P("\t}")
	w.P("\treturn device_for_each_child(dev, walk, verify_child);")
	w.P("}")
	w.P()
	w.Comment("", "verify_below checks master m, whose masks are set on the devices below its node's "+
		"device pdev: pdev's coherency and bus DMA limit, then each device below it, and returns "+
		"the mismatches. No device checked below is NOCHILDREN, counted in below_unchecked.")
	w.P("static int verify_below(const struct boardc_verify_master *m, struct platform_device *pdev)")
	w.P("{")
	w.P("\tstruct boardc_verify_walk walk = { .m = m };")
	w.P("\tstruct device *dev = &pdev->dev;")
	w.P("\tbool coherent = dev_is_dma_coherent(dev);")
	w.P("\tbool ok = coherent == m->coherent && dev->bus_dma_limit == m->bus_limit;")
	w.P()
	w.P("\tpr_info(\"boardc-verify: %s %s %s %s coherent=%d/%d bus_dma_limit=%#llx/%#llx masks=below\\n\",")
	w.P("\t\tok ? \"ok\" : \"MISMATCH\", m->key, m->path, dev_name(dev), coherent, m->coherent,")
	w.P("\t\t(unsigned long long)dev->bus_dma_limit, (unsigned long long)m->bus_limit);")
	w.P("\tdevice_for_each_child(dev, &walk, verify_child);")
	w.P("\tif (walk.checked) {")
	w.P("\t\tpr_info(\"boardc-verify: below %s %s %s: %d checked, %d mismatch(es), %d unbound, %d without DMA masks\\n\",")
	w.P("\t\t\tm->key, m->path, dev_name(dev), walk.checked, walk.bad, walk.unbound, walk.nomask);")
	w.P("\t} else {")
	w.P("\t\tpr_info(\"boardc-verify: NOCHILDREN %s %s: no device with a driver and DMA masks below %s (%d unbound, %d without DMA masks)\\n\",")
	w.P("\t\t\tm->key, m->path, dev_name(dev), walk.unbound, walk.nomask);")
	w.P("\t\tbelow_unchecked++;")
	w.P("\t}")
	w.P("\treturn !ok + walk.bad;")
	w.P("}")
	w.P()
}
