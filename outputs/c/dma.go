package c

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// dmaHowto is where the kernel teaches DMA mask setup.
const dmaHowto = "Documentation/core-api/dma-api-howto.rst"

// ofDefaultBits is the width of both DMA masks of a platform device the
// kernel creates from the device tree, before a driver binds:
// of_platform_device_create_pdata() (drivers/of/platform.c, Linux 6.12
// lines 179-181, 6.1 lines 183-185) sets coherent_dma_mask to
// DMA_BIT_MASK(32), and platform_device_alloc() gave dma_mask a
// platform_dma_mask of its own, also DMA_BIT_MASK(32)
// (setup_pdev_dma_masks(), drivers/base/platform.c, 6.12 lines 530-539,
// 6.1 lines 529-538). An AMBA device gets one DMA_BIT_MASK(32) for both
// (of_amba_device_create(), drivers/of/platform.c, 6.12 lines 235-236).
const ofDefaultBits = 32

// Covered returns the masters whose masks the C output speaks for: those
// the board enables and whose driver does not set its own masks
// (driverSets), bridges aside (their endpoints' drivers set theirs), and
// masters configured from another master's node (dmaDevice). Only
// those among them whose described masks differ from what the kernel
// gives them (Changes) get an entry.
func Covered(b *ir.Board) []*ir.Master {
	var out []*ir.Master
	for _, m := range b.SoC.Masters {
		if m.Enabled && m.DriverSets == nil && m.HasOwnWidth() {
			out = append(out, m)
		}
	}
	return out
}

// KernelDefault returns the width of the streaming and coherent masks the
// kernel gives the master's device when no driver sets them: 32 bits
// (ofDefaultBits), narrowed when a driver binds by of_dma_configure_id()
// (drivers/of/device.c, Linux 6.12 lines 134-145, 6.1 lines 182-194;
// called with force_dma by platform_dma_configure(),
// drivers/base/platform.c), which ands both masks with
// DMA_BIT_MASK(ilog2(end) + 1), end the top of the dma-ranges above the
// device (Master.BusDMALimit), and with none leaves them as they are.
func KernelDefault(m *ir.Master) int {
	limit, _ := m.BusDMALimit()
	return ir.NarrowedWidth(ofDefaultBits, limit)
}

// Changes reports whether setting a streaming mask of streaming bits and a
// coherent mask of coherent bits on master m's device changes what the
// kernel gave it (KernelDefault): only then is an entry worth applying.
func Changes(m *ir.Master, streaming, coherent int) bool {
	d := KernelDefault(m)
	return streaming != d || coherent != d
}

// Caps is one entry of the table of DMA capabilities by compatible string.
type Caps struct {
	Compatible string
	// Symbol is the name of the entry's static struct boardc_dma_caps.
	Symbol string
	// Bits and CoherentBits are the narrowest streaming and coherent
	// widths of the masters with this compatible: a mask narrower than a
	// device can drive is always safe.
	Bits, CoherentBits int
	// Masters are the masters that carry the compatible, sorted by key.
	Masters []*ir.Master
}

// CapsTable returns the name of the board's of_device_id table.
func CapsTable(b *ir.Board) string { return "boardc_" + b.CIdent() + "_dma_caps_of_match" }

// LookupFunc returns the name of the header's function that returns the
// capabilities of a device-tree node.
func LookupFunc(b *ir.Board) string { return "boardc_" + b.CIdent() + "_dma_caps_lookup" }

// SetupFunc returns the name of the header's function that applies the
// capabilities of a device's node to the device.
func SetupFunc(b *ir.Board) string { return "boardc_" + b.CIdent() + "_dma_setup" }

// Capabilities returns the DMA capabilities of the masters the C output
// covers (Covered) by compatible string, sorted by compatible, keeping
// only the entries that change the masks of at least one of their
// masters (Changes). A compatible shared by masters of different widths
// gets the narrowest of them, and an entry whenever applying that changes
// one of them. Each entry's symbol is boardc_<board>_dma_caps_<compatible>,
// the compatible as a C identifier, with a number after it where two
// compatibles give the same identifier.
func Capabilities(b *ir.Board) []Caps {
	by := map[string]*Caps{}
	for _, m := range Covered(b) {
		for _, c := range m.Compatible {
			e := by[c]
			if e == nil {
				e = &Caps{Compatible: c, Bits: m.DMABits, CoherentBits: m.CoherentWidth()}
				by[c] = e
			}
			e.Bits = min(e.Bits, m.DMABits)
			e.CoherentBits = min(e.CoherentBits, m.CoherentWidth())
			if n := len(e.Masters); n == 0 || e.Masters[n-1] != m {
				e.Masters = append(e.Masters, m)
			}
		}
	}
	out := make([]Caps, 0, len(by))
	for _, e := range by {
		if e.changes() {
			out = append(out, *e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Compatible < out[j].Compatible })
	used := map[string]bool{}
	for i := range out {
		base := "boardc_" + b.CIdent() + "_dma_caps_" + ir.CIdent(out[i].Compatible)
		name := base
		for n := 2; used[name]; n++ {
			name = base + "_" + strconv.Itoa(n)
		}
		used[name] = true
		out[i].Symbol = name
	}
	return out
}

// changes reports whether applying the entry changes the masks of one of
// its masters.
func (e *Caps) changes() bool {
	for _, m := range e.Masters {
		if Changes(m, e.Bits, e.CoherentBits) {
			return true
		}
	}
	return false
}

// Kept returns the masters the C output covers (Covered) that no entry
// changes: each keeps what the kernel gives it.
func Kept(b *ir.Board, caps []Caps) []*ir.Master {
	in := map[*ir.Master]bool{}
	for _, e := range caps {
		for _, m := range e.Masters {
			in[m] = true
		}
	}
	var out []*ir.Master
	for _, m := range Covered(b) {
		if !in[m] {
			out = append(out, m)
		}
	}
	return out
}

// source returns the provenance of the entry, as comment text: the
// masters with the compatible and the positions of their widths, and each
// master's widths when they disagree.
func (e Caps) source() outputs.Text {
	mixed := false
	for _, m := range e.Masters {
		if m.DMABits != e.Bits || m.CoherentWidth() != e.CoherentBits {
			mixed = true
		}
	}
	var t outputs.Text
	if mixed {
		t = append(t, "narrowest of ")
	}
	for i, m := range e.Masters {
		if i > 0 {
			t = append(t, ", ")
		}
		t = append(t, m.Key)
		if mixed {
			t = append(t, " "+widths(m.DMABits, m.CoherentWidth()))
		}
	}
	seen := map[ir.Pos]bool{}
	for _, m := range e.Masters {
		for _, p := range []ir.Pos{m.DMABitsPos, m.CoherentBitsPos} {
			if p.IsValid() && !seen[p] {
				seen[p] = true
				t = append(t, "; ", p)
			}
		}
	}
	return t
}

// origin returns the origin of the entry's lines: every master with the
// compatible and the positions of their widths.
func (e Caps) origin() outputs.Origin {
	var o outputs.OriginSet
	for _, m := range e.Masters {
		o.AddRef(m.Ref(), m.DMABitsPos, m.CoherentBitsPos)
	}
	return o.Origin()
}

// capsEntry is an entry of the capability table with the origin of its
// lines, which the header and the source share.
type capsEntry struct {
	Caps
	o outputs.Origin
}

// capsEntries returns the board's capabilities (Capabilities) with their
// origins.
func capsEntries(b *ir.Board) []capsEntry {
	caps := Capabilities(b)
	out := make([]capsEntry, len(caps))
	for i, e := range caps {
		out[i] = capsEntry{e, e.origin()}
	}
	return out
}

// masterTitle describes a master, as comment text: key, node, driver,
// width and the position of the width.
func masterTitle(m *ir.Master) outputs.Text {
	s := m.Key + ": " + m.Node.Path
	if m.Driver != "" {
		s += " (" + m.Driver + ")"
	}
	if b := m.Bridge; b != nil {
		return outputs.T(s, ", a "+b.KindText()+", ", b.Pos)
	}
	if m.DMADeviceKey != "" {
		return outputs.T(s, ", DMA through master "+m.DMADeviceKey+", ", m.DMADevicePos)
	}
	return outputs.T(s, ", "+widths(m.DMABits, m.CoherentWidth())+", ", m.DMABitsPos)
}

// widths says streaming and coherent DMA widths: "32-bit DMA", or
// "40-bit streaming and 32-bit coherent DMA".
func widths(bits, coherent int) string {
	if coherent == bits {
		return fmt.Sprintf("%d-bit DMA", bits)
	}
	return fmt.Sprintf("%d-bit streaming and %d-bit coherent DMA", bits, coherent)
}

// capsGuard guards the definition of struct boardc_dma_caps and its
// helper, which the headers of several boards share.
const capsGuard = "BOARDC_DMA_CAPS"

// dmaCommon writes what every board's header shares, once per unit: the
// capability structure and boardc_dma_caps_apply().
func (g *gen) dmaCommon(w *outputs.Printer) {
	w.P()
	w.P("#ifndef ", capsGuard)
	w.P("#define ", capsGuard)
	w.P()
	w.Comment("", "The DMA capabilities of a device: the widths of its streaming mask (dma_map_*()) and "+
		"of its coherent mask (dma_alloc_coherent()), which a driver may narrow apart ("+dmaHowto+").")
	w.P(named("boardc_dma_caps"), "struct boardc_dma_caps {")
	w.P("\tu8 streaming_bits;")
	w.P("\tu8 coherent_bits;")
	w.P("};")
	w.P()
	w.Comment("", "boardc_dma_caps_apply() sets dev's streaming and coherent masks from caps, "+
		"dma_set_mask() then dma_set_coherent_mask() (include/linux/dma-mapping.h), and returns the "+
		"error; -ENODEV for no caps. Call it in probe, before the first mapping or allocation. A "+
		"mask above 32 bits never fails, so there is no fallback to 32 bits; a narrower one fails "+
		"only where the platform cannot serve it.")
	w.P(named("boardc_dma_caps_apply"), "static inline int boardc_dma_caps_apply(struct device *dev,")
	w.P(align("static inline int boardc_dma_caps_apply("), "const struct boardc_dma_caps *caps)")
	w.P("{")
	w.P("\tint err;")
	w.P()
	w.P("\tif (!caps)")
	w.P("\t\treturn -ENODEV;")
	w.P("\terr = dma_set_mask(dev, DMA_BIT_MASK(caps->streaming_bits));")
	w.P("\tif (err)")
	w.P("\t\treturn err;")
	w.P("\treturn dma_set_coherent_mask(dev, DMA_BIT_MASK(caps->coherent_bits));")
	w.P("}")
	w.P()
	w.P("#endif /* ", capsGuard, " */")
}

// kernelDefault says what the kernel gives a master's device, as comment
// text: "32 bits" or "30 bits (32 narrowed by the dma-ranges of BUS, POS)".
func kernelDefault(m *ir.Master) outputs.Text {
	d := KernelDefault(m)
	limit, from := m.BusDMALimit()
	if from == nil || d == ofDefaultBits {
		return outputs.T(fmt.Sprintf("%d bits", d))
	}
	return outputs.T(fmt.Sprintf("%d bits (%d narrowed by the dma-ranges of %s, up to %#x, ", d, ofDefaultBits, from.Key, limit),
		from.DMARangesPos, ")")
}

// dmaDefs writes the board's part of the header: the entries, each a
// static const struct boardc_dma_caps, the static of_device_id table of
// them, and the functions that look a node up in it and apply its entry.
// Static, and marked __maybe_unused, they define no symbol a second
// module of the board could clash with, and cost nothing in a unit that
// does not use them.
func (g *gen) dmaDefs(w *outputs.Printer) {
	kept := Kept(g.b, capsOnly(g.caps))
	w.P()
	intro := "A device created from the device tree starts with 32-bit streaming and coherent " +
		"masks (of_platform_device_create_pdata(), drivers/of/platform.c), which of_dma_configure_id() " +
		"(drivers/of/device.c) narrows to the dma-ranges above it. "
	none := ": nothing to apply. " + LookupFunc(g.b) + "() returns NULL and " + SetupFunc(g.b) +
		"() does nothing; a driver can call them on every board."
	switch {
	case len(Covered(g.b)) == 0:
		w.Comment("", intro+"No master the board enables leaves its masks to the kernel (each one's "+
			"driver sets its own)"+none)
	case len(g.caps) == 0:
		w.Comment("", intro+"Every master of the board whose driver leaves its masks keeps what the "+
			"kernel already gives it"+none)
	default:
		w.Comment("", intro+"The entries below are the masters, by compatible string, whose described masks "+
			"differ from that; masters the board disables, masters whose driver sets its own masks, and "+
			"masters that keep what the kernel gives them have none.")
	}
	if len(kept) > 0 {
		w.P()
		c := w.Block("")
		c.Line("Masters that keep what the kernel gives them:")
		for _, m := range kept {
			o := outputs.From(m.Ref(), m.DMABitsPos, m.CoherentBitsPos)
			c.Line(o, "  ", m.Key, ": ", widths(m.DMABits, m.CoherentWidth()), " (", m.DMABitsPos, "), the kernel's ", kernelDefault(m))
		}
		c.End()
	}
	for _, e := range g.caps {
		o := e.o.Named(e.Symbol)
		w.P()
		w.Comment("", e.o, outputs.T(e.Compatible, ": ", e.source(), ": ", widths(e.Bits, e.CoherentBits),
			"; the kernel gives ", kernelDefaults(e.Masters)))
		w.P(o, "static const struct boardc_dma_caps ", e.Symbol, " __maybe_unused = {")
		w.P(o, "\t.streaming_bits = ", e.Bits, ",")
		w.P(o, "\t.coherent_bits = ", e.CoherentBits, ",")
		w.P("};")
	}
	table := CapsTable(g.b)
	w.P()
	w.Comment("", "Compatible -> DMA capabilities, for of_match_node() (<linux/of.h>); NULL-terminated.")
	w.P(masters(table), "static const struct of_device_id ", table, "[] __maybe_unused = {")
	for _, e := range g.caps {
		o := e.o.Named(e.Compatible)
		w.P(o, "\t{ .compatible = ", outputs.Str(e.Compatible), ", .data = &", e.Symbol, " },")
	}
	w.P("\t{ }")
	w.P("};")

	lookup, setup := LookupFunc(g.b), SetupFunc(g.b)
	w.P()
	w.Comment("", lookup+"() returns the DMA capabilities of np, the entry of "+table+"[] that "+
		"of_match_node() finds for its compatible strings (the most specific one first), or NULL "+
		"when the board has none for it (its masks are what the kernel gives it) or np is NULL. "+
		"It leaves a driver's own match table and its of_device_id.data alone.")
	w.P(masters(lookup), "static inline const struct boardc_dma_caps *")
	w.P(masters(lookup), lookup, "(const struct device_node *np)")
	w.P("{")
	w.P("\tconst struct of_device_id *id;")
	w.P()
	w.P("\tif (!np)")
	w.P("\t\treturn NULL;")
	w.P("\tid = of_match_node(", table, ", np);")
	w.P("\treturn id ? id->data : NULL;")
	w.P("}")
	w.P()
	w.Comment("", setup+"() applies the board's DMA capabilities of dev's device-tree node to dev "+
		"(boardc_dma_caps_apply()) and returns the error, or 0 without touching dev when the board "+
		"has none for it. Call it in probe, before the first mapping or allocation.")
	w.P(masters(setup), "static inline int ", setup, "(struct device *dev)")
	w.P("{")
	w.P("\tconst struct boardc_dma_caps *caps = ", lookup, "(dev->of_node);")
	w.P()
	w.P("\treturn caps ? boardc_dma_caps_apply(dev, caps) : 0;")
	w.P("}")
}

// kernelDefaults says what the kernel gives the masters of an entry, as
// comment text: one width for all, else each master's.
func kernelDefaults(ms []*ir.Master) outputs.Text {
	same := true
	for _, m := range ms {
		if KernelDefault(m) != KernelDefault(ms[0]) {
			same = false
		}
	}
	if same {
		return kernelDefault(ms[0])
	}
	var t outputs.Text
	for i, m := range ms {
		if i > 0 {
			t = append(t, ", ")
		}
		t = append(t, m.Key+" ")
		t = append(t, kernelDefault(m)...)
	}
	return t
}

// capsOnly returns the capabilities of entries.
func capsOnly(es []capsEntry) []Caps {
	out := make([]Caps, len(es))
	for i, e := range es {
		out[i] = e.Caps
	}
	return out
}

// align returns the tabs and spaces that line a continuation up with the
// column after prefix, kernel style.
func align(prefix string) string {
	n := len(prefix)
	return strings.Repeat("\t", n/8) + strings.Repeat(" ", n%8)
}
