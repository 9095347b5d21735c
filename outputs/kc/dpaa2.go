package kc

import (
	"fmt"
	"strings"

	"boardc.dev/boardc/compiler/ir"
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

// dpaa2Decls writes the DPAA2 declarations and the call-site snippet of
// the header.
func (g *gen) dpaa2Decls(w *writer) {
	d := g.b.SoC.DPAA2
	num := strings.ToUpper(g.p) + "_NUM_CHANNELS"
	w.blank()
	w.comment("", "DPAA2 DPIO affinity, "+d.Pos.Short()+". A DPAA2 driver must use the DPIO "+
		"portal of the CPU it runs on, dpaa2_io_service_select(cpu) ("+dpaa2Header+"). "+
		"Channel ch is served by the ch-th DPIO of the description, in DPIO ID order.")
	w.f("#define %s\t%d", num, len(d.DPIOs))
	w.blank()
	w.comment("", "The CPU that serves channel ch; -ERANGE for ch >= "+num+".")
	w.f("int %s_channel_cpu(unsigned int ch);", g.p)
	w.comment("", "The DPIO service of channel ch's CPU; NULL for ch >= "+num+".")
	w.f("struct dpaa2_io *%s_channel_io(unsigned int ch);", g.p)
	w.blank()
	w.comment("", fmt.Sprintf("Stash destination of DPIO dpio.<id>: %d + cpu / %d (%s; %s). "+
		"%s_dpio_cpu() returns the CPU the description gives the DPIO. Both return -ENOENT "+
		"for a DPIO the board does not describe; %s_dpio_sdest() returns -ERANGE for one "+
		"whose destination does not fit the u8 sdest.",
		d.StashClusterBase, d.StashClusterSize, d.StashSource, d.StashPos.Short(), g.p, g.p))
	w.f("int %s_dpio_cpu(unsigned int id);", g.p)
	w.f("int %s_dpio_sdest(unsigned int id);", g.p)
	w.blank()
	w.comment("",
		"Call site. dpio_set_stashing_destination() is declared in "+dpioHeader+
			", which is not a public header, so it is shown here rather than called:",
		"\tint dpio_set_stashing_destination(struct fsl_mc_io *mc_io,\n"+
			"\t\t\t\t\t  u32 cmd_flags, u16 token, u8 sdest);",
		"In dpaa2_dpio_probe() ("+dpioDriver+"), in place of dpaa2_dpio_get_cluster_sdest():",
		"\tsdest = "+g.p+"_dpio_sdest(dpio_dev->obj_desc.id);\n"+
			"\tif (sdest >= 0) {\n"+
			"\t\terr = dpio_set_stashing_destination(dpio_dev->mc_io, 0,\n"+
			"\t\t\t\t\t\t    dpio_dev->mc_handle,\n"+
			"\t\t\t\t\t\t    sdest);\n"+
			"\t\tif (err)\n"+
			"\t\t\tdev_err(dev, \"dpio_set_stashing_destination failed for dpio.%d\\n\",\n"+
			"\t\t\t\tdpio_dev->obj_desc.id);\n"+
			"\t}",
		"The driver hands out CPUs in probe order (cpumask_first() of the unused CPUs); "+
			"setting desc.cpu = "+g.p+"_dpio_cpu(id) keeps the portal, its IRQ and its "+
			"stash destination on the described CPU.")
}

// dpaa2Defs writes the DPAA2 tables and functions of the source.
func (g *gen) dpaa2Defs(w *writer) {
	d := g.b.SoC.DPAA2
	chs := Channels(g.b)
	cpuTable := g.p + "_channel_cpus"
	dpioTable := g.p + "_dpios"

	w.blank()
	w.comment("", "Channel -> CPU, after the DPIO affinity of "+d.Pos.Short()+".")
	if len(chs) > 0 {
		w.f("static const int %s[%d] = {", cpuTable, len(chs))
		for i, c := range chs {
			w.f("\t[%d] = %d,\t/* dpio.%d, %s */", i, c.DPIO.CPU, c.DPIO.ID, comment(c.DPIO.Pos.Short()))
		}
		w.f("};")
		w.blank()
	}
	w.f("int %s_channel_cpu(unsigned int ch)", g.p)
	w.f("{")
	if len(chs) > 0 {
		w.f("\tif (ch >= ARRAY_SIZE(%s))", cpuTable)
		w.f("\t\treturn -ERANGE;")
		w.f("\treturn %s[ch];", cpuTable)
	} else {
		w.f("\treturn -ERANGE;")
	}
	w.f("}")
	w.blank()
	w.comment("", "dpaa2_io_service_select(): "+dpaa2Header)
	w.f("struct dpaa2_io *%s_channel_io(unsigned int ch)", g.p)
	w.f("{")
	if len(chs) > 0 {
		w.f("\tif (ch >= ARRAY_SIZE(%s))", cpuTable)
		w.f("\t\treturn NULL;")
		w.f("\treturn dpaa2_io_service_select(%s[ch]);", cpuTable)
	} else {
		w.f("\treturn NULL;")
	}
	w.f("}")

	w.blank()
	w.comment("", fmt.Sprintf("DPIO -> CPU and stash destination %d + cpu / %d (%s; %s), "+
		"-ERANGE where none fits the u8 sdest.",
		d.StashClusterBase, d.StashClusterSize, d.StashSource, d.StashPos.Short()))
	w.f("struct boardc_dpio {")
	w.f("\tunsigned int id;")
	w.f("\tint cpu;")
	w.f("\tint sdest;")
	w.f("};")
	if len(chs) > 0 {
		w.blank()
		w.f("static const struct boardc_dpio %s[] = {", dpioTable)
		for _, c := range chs {
			w.f("\t{ .id = %d, .cpu = %d, .sdest = %s },\t/* %s */",
				c.DPIO.ID, c.DPIO.CPU, sdestC(c.SDest), comment(c.DPIO.Pos.Short()))
		}
		w.f("};")
	}
	for _, field := range []string{"cpu", "sdest"} {
		w.blank()
		w.f("int %s_dpio_%s(unsigned int id)", g.p, field)
		w.f("{")
		if len(chs) > 0 {
			w.f("\tunsigned int i;")
			w.blank()
			w.f("\tfor (i = 0; i < ARRAY_SIZE(%s); i++)", dpioTable)
			w.f("\t\tif (%s[i].id == id)", dpioTable)
			w.f("\t\t\treturn %s[i].%s;", dpioTable, field)
		}
		w.f("\treturn -ENOENT;")
		w.f("}")
	}
}

// sdestC renders a stash destination for the table.
func sdestC(v int) string {
	if v < 0 {
		return "-ERANGE"
	}
	return fmt.Sprint(v)
}
