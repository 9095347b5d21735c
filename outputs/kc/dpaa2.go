package kc

import (
	"fmt"
	"strings"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// Upstream sources of the DPAA2 facts the generated code relies on.
const (
	dpioDriver  = "drivers/soc/fsl/dpio/dpio-driver.c"
	dpioHeader  = "drivers/soc/fsl/dpio/dpio.h"
	dpaa2Header = "include/soc/fsl/dpaa2-io.h"
)

// Channel is one DPAA2 channel: channel i is served by the i-th DPIO of
// the description (sorted by ID), which serves CPU DPIO.CPU.
type Channel struct {
	DPIO ir.DPIO
	// SDest is the stash destination of the DPIO:
	// StashClusterBase + CPU / StashClusterSize, or -1 when it cannot be
	// computed (no cluster size) or does not fit the u8 sdest argument of
	// dpio_set_stashing_destination().
	SDest int
}

// Channels returns the board's channels in channel order, or nil when the
// SoC has no DPAA2.
func Channels(b *ir.Board) []Channel {
	d := b.SoC.DPAA2
	if d == nil {
		return nil
	}
	out := make([]Channel, len(d.DPIOs))
	for i, p := range d.DPIOs {
		s := -1
		if d.StashClusterSize > 0 {
			if v := d.StashDest(p.CPU); v >= 0 && v <= 255 {
				s = v
			}
		}
		out[i] = Channel{DPIO: p, SDest: s}
	}
	return out
}

// dpaa2 returns the origin of a line that declares or defines the C
// symbol name from the DPAA2 description, after the facts at pos.
func (g *gen) dpaa2(name string, pos ...ir.Pos) outputs.Origin {
	return outputs.From(ir.RefDPAA2, pos...).Named(name)
}

// dpaa2Decls writes the DPAA2 declarations and the call-site snippet of
// the header.
func (g *gen) dpaa2Decls(w *outputs.Printer) {
	d := g.b.SoC.DPAA2
	num := strings.ToUpper(g.p) + "_NUM_CHANNELS"
	w.P()
	w.Comment("", outputs.T("DPAA2 DPIO affinity, ", d.Pos, ". A DPAA2 driver must use the DPIO "+
		"portal of the CPU it runs on, dpaa2_io_service_select(cpu) ("+dpaa2Header+"). "+
		"Channel ch is served by the ch-th DPIO of the description, in DPIO ID order."))
	w.P(g.dpaa2(num, d.Pos), "#define ", num, "\t", len(d.DPIOs))
	w.P()
	w.Comment("", "The CPU that serves channel ch; -ERANGE for ch >= "+num+".")
	w.P(g.dpaa2(g.p+"_channel_cpu", d.Pos), "int ", g.p, "_channel_cpu(unsigned int ch);")
	w.Comment("", "The DPIO service of channel ch's CPU; NULL for ch >= "+num+".")
	w.P(g.dpaa2(g.p+"_channel_io", d.Pos), "struct dpaa2_io *", g.p, "_channel_io(unsigned int ch);")
	w.P()
	w.Comment("", outputs.T(fmt.Sprintf("Stash destination of DPIO dpio.<id>: %d + cpu / %d (", d.StashClusterBase, d.StashClusterSize),
		d.StashSource, "; ", d.StashPos, fmt.Sprintf("). "+
			"%s_dpio_cpu() returns the CPU the description gives the DPIO. Both return -ENOENT "+
			"for a DPIO the board does not describe; %s_dpio_sdest() returns -ERANGE for one "+
			"whose destination does not fit the u8 sdest.", g.p, g.p)))
	w.P(g.dpaa2(g.p+"_dpio_cpu", d.Pos), "int ", g.p, "_dpio_cpu(unsigned int id);")
	w.P(g.dpaa2(g.p+"_dpio_sdest", d.StashPos), "int ", g.p, "_dpio_sdest(unsigned int id);")
	w.P()
	w.Comment("",
		"Call site. dpio_set_stashing_destination() is declared in "+dpioHeader+
			", which is not a public header, so it is shown here rather than called:",
		outputs.Code("\tint dpio_set_stashing_destination(struct fsl_mc_io *mc_io,\n"+
			"\t\t\t\t\t  u32 cmd_flags, u16 token, u8 sdest);"),
		"In dpaa2_dpio_probe() ("+dpioDriver+"), in place of dpaa2_dpio_get_cluster_sdest():",
		outputs.Code("\tsdest = "+g.p+"_dpio_sdest(dpio_dev->obj_desc.id);\n"+
			"\tif (sdest >= 0) {\n"+
			"\t\terr = dpio_set_stashing_destination(dpio_dev->mc_io, 0,\n"+
			"\t\t\t\t\t\t    dpio_dev->mc_handle,\n"+
			"\t\t\t\t\t\t    sdest);\n"+
			"\t\tif (err)\n"+
			"\t\t\tdev_err(dev, \"dpio_set_stashing_destination failed for dpio.%d\\n\",\n"+
			"\t\t\t\tdpio_dev->obj_desc.id);\n"+
			"\t}"),
		"The driver hands out CPUs in probe order (cpumask_first() of the unused CPUs); "+
			"setting desc.cpu = "+g.p+"_dpio_cpu(id) keeps the portal, its IRQ and its "+
			"stash destination on the described CPU.")
}

// dpaa2Defs writes the DPAA2 tables and functions of the source.
func (g *gen) dpaa2Defs(w *outputs.Printer) {
	d := g.b.SoC.DPAA2
	chs := Channels(g.b)
	cpuTable := g.p + "_channel_cpus"
	dpioTable := g.p + "_dpios"

	w.P()
	w.Comment("", outputs.T("Channel -> CPU, after the DPIO affinity of ", d.Pos, "."))
	if len(chs) > 0 {
		w.P(g.dpaa2(cpuTable, d.Pos), "static const int ", cpuTable, "[", len(chs), "] = {")
		for i, c := range chs {
			w.P(outputs.From(c.DPIO.Ref), "\t[", i, "] = ", c.DPIO.CPU, ",\t", outputs.N("dpio.", c.DPIO.ID, ", ", c.DPIO.Pos))
		}
		w.P("};")
		w.P()
	}
	w.P(g.dpaa2(g.p+"_channel_cpu", d.Pos), "int ", g.p, "_channel_cpu(unsigned int ch)")
	w.P("{")
	if len(chs) > 0 {
		w.P("\tif (ch >= ARRAY_SIZE(", cpuTable, "))")
		w.P("\t\treturn -ERANGE;")
		w.P("\treturn ", cpuTable, "[ch];")
	} else {
		w.P("\treturn -ERANGE;")
	}
	w.P("}")
	w.P()
	w.Comment("", "dpaa2_io_service_select(): "+dpaa2Header)
	w.P(g.dpaa2(g.p+"_channel_io", d.Pos), "struct dpaa2_io *", g.p, "_channel_io(unsigned int ch)")
	w.P("{")
	if len(chs) > 0 {
		w.P("\tif (ch >= ARRAY_SIZE(", cpuTable, "))")
		w.P("\t\treturn NULL;")
		w.P("\treturn dpaa2_io_service_select(", cpuTable, "[ch]);")
	} else {
		w.P("\treturn NULL;")
	}
	w.P("}")

	w.P()
	w.Comment("", outputs.T(fmt.Sprintf("DPIO -> CPU and stash destination %d + cpu / %d (", d.StashClusterBase, d.StashClusterSize),
		d.StashSource, "; ", d.StashPos, "), -ERANGE where none fits the u8 sdest."))
	w.P(named("boardc_dpio"), "struct boardc_dpio {")
	w.P("\tunsigned int id;")
	w.P("\tint cpu;")
	w.P("\tint sdest;")
	w.P("};")
	if len(chs) > 0 {
		w.P()
		w.P(g.dpaa2(dpioTable, d.Pos, d.StashPos), "static const struct boardc_dpio ", dpioTable, "[] = {")
		for _, c := range chs {
			w.P(outputs.From(c.DPIO.Ref, d.StashPos), "\t{ .id = ", c.DPIO.ID, ", .cpu = ", c.DPIO.CPU,
				", .sdest = ", sdestC(c.SDest), " },\t", outputs.N(c.DPIO.Pos))
		}
		w.P("};")
	}
	for _, field := range []string{"cpu", "sdest"} {
		w.P()
		w.P(g.dpaa2(g.p+"_dpio_"+field, d.Pos), "int ", g.p, "_dpio_", field, "(unsigned int id)")
		w.P("{")
		if len(chs) > 0 {
			w.P("\tunsigned int i;")
			w.P()
			w.P("\tfor (i = 0; i < ARRAY_SIZE(", dpioTable, "); i++)")
			w.P("\t\tif (", dpioTable, "[i].id == id)")
			w.P("\t\t\treturn ", dpioTable, "[i].", field, ";")
		}
		w.P("\treturn -ENOENT;")
		w.P("}")
	}
}

// sdestC renders a stash destination for the table.
func sdestC(v int) string {
	if v < 0 {
		return "-ERANGE"
	}
	return fmt.Sprint(v)
}
