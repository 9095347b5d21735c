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

// Emitted returns the masters the C output covers: those the board
// enables and whose driver does not set its own masks (driverSets).
func Emitted(b *ir.Board) []*ir.Master {
	var out []*ir.Master
	for _, m := range b.SoC.Masters {
		if m.Enabled && m.DriverSets == nil {
			out = append(out, m)
		}
	}
	return out
}

// Caps is one entry of the table of DMA capabilities by compatible string.
type Caps struct {
	Compatible string
	// Symbol is the name of the exported struct boardc_dma_caps.
	Symbol string
	// Bits and CoherentBits are the narrowest streaming and coherent
	// widths of the masters with this compatible: a mask narrower than a
	// device can drive is always safe.
	Bits, CoherentBits int
	// Masters are the masters that carry the compatible, sorted by key.
	Masters []*ir.Master
}

// CapsTable returns the name of the board's exported of_device_id table.
func CapsTable(b *ir.Board) string { return "boardc_" + b.CIdent() + "_dma_caps_of_match" }

// Capabilities returns the DMA capabilities of the masters the C output
// covers (Emitted) by compatible string, sorted by compatible. A
// compatible shared by masters of different widths gets the narrowest of
// them. Each entry's symbol is boardc_<board>_dma_caps_<compatible>, the
// compatible as a C identifier, with a number after it where two
// compatibles give the same identifier.
func Capabilities(b *ir.Board) []Caps {
	by := map[string]*Caps{}
	for _, m := range Emitted(b) {
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
		out = append(out, *e)
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

// dmaDecls writes the DMA declarations of the header: the capability
// structure and its helper, once for every board, and the board's
// exported capabilities and match table.
func (g *gen) dmaDecls(w *outputs.Printer) {
	w.P()
	w.P("#ifndef ", capsGuard)
	w.P("#define ", capsGuard)
	w.P()
	w.Comment("", "The DMA capabilities of a device: the widths of its streaming mask (dma_map_*()) and "+
		"of its coherent mask (dma_alloc_coherent()), which a driver may narrow apart ("+dmaHowto+"). "+
		"Meant for of_device_id.data: a driver's match table points each compatible at the board's "+
		"capabilities, and probe applies what of_device_get_match_data() returns.")
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
	w.P()
	w.Comment("", "The DMA capabilities of the board's masters by compatible string, exported "+
		"(EXPORT_SYMBOL_GPL). Masters the board disables, and masters whose driver sets its own "+
		"masks, have none. "+CapsTable(g.b)+"[] holds them all as of_device_id entries, for "+
		"of_match_node() or of_match_device() (<linux/of.h>).")
	for _, e := range g.caps {
		w.Comment("", e.o, outputs.T(e.Compatible, ": ", widths(e.Bits, e.CoherentBits)))
		w.P(e.o.Named(e.Symbol), "extern const struct boardc_dma_caps ", e.Symbol, ";")
	}
	w.P(masters(CapsTable(g.b)), "extern const struct of_device_id ", CapsTable(g.b), "[];")
}

// dmaDefs writes the exported capabilities and the match table of the
// source.
func (g *gen) dmaDefs(w *outputs.Printer) {
	for _, e := range g.caps {
		o := e.o.Named(e.Symbol)
		w.P()
		w.Comment("", e.o, outputs.T(e.Compatible, ": ", e.source()))
		w.P(o, "const struct boardc_dma_caps ", e.Symbol, " = {")
		w.P(o, "\t.streaming_bits = ", e.Bits, ",")
		w.P(o, "\t.coherent_bits = ", e.CoherentBits, ",")
		w.P("};")
		w.P(o, "EXPORT_SYMBOL_GPL(", e.Symbol, ");")
	}
	table := CapsTable(g.b)
	w.P()
	w.Comment("", "Compatible -> DMA capabilities, for of_match_node(); NULL-terminated.")
	w.P(masters(table), "const struct of_device_id ", table, "[] = {")
	for _, e := range g.caps {
		o := e.o.Named(e.Compatible)
		w.P(o, "\t{ .compatible = ", outputs.Str(e.Compatible), ", .data = &", e.Symbol, " },")
	}
	w.P("\t{ }")
	w.P("};")
	w.P(masters(table), "EXPORT_SYMBOL_GPL(", table, ");")
}

// align returns the tabs and spaces that line a continuation up with the
// column after prefix, kernel style.
func align(prefix string) string {
	n := len(prefix)
	return strings.Repeat("\t", n/8) + strings.Repeat(" ", n%8)
}
