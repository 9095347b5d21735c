package kc

import (
	"fmt"
	"sort"
	"strings"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// dmaHowto is where the kernel teaches DMA mask setup.
const dmaHowto = "Documentation/core-api/dma-api-howto.rst"

// SetupFunc returns the name of the function that sets master m's DMA mask.
func SetupFunc(b *ir.Board, m *ir.Master) string {
	return "boardc_" + b.CIdent() + "_" + ir.CIdent(m.Key) + "_dma_setup"
}

// Emitted returns the masters the C output sets masks for: those the
// board enables and whose driver does not set its own (driverSets).
func Emitted(b *ir.Board) []*ir.Master {
	var out []*ir.Master
	for _, m := range b.SoC.Masters {
		if m.Enabled && m.DriverSets == nil {
			out = append(out, m)
		}
	}
	return out
}

// Width is one entry of the table of DMA widths by compatible string.
type Width struct {
	Compatible string
	// Bits and CoherentBits are the narrowest streaming and coherent
	// widths of the masters with this compatible: a mask narrower than a
	// device can drive is always safe.
	Bits, CoherentBits int
	// Masters are the masters that carry the compatible, sorted by key.
	Masters []*ir.Master
}

// Widths returns the DMA widths of the masters the C output covers
// (Emitted) by compatible string, sorted by compatible. A compatible shared
// by masters of different widths gets the narrowest of them.
func Widths(b *ir.Board) []Width {
	by := map[string]*Width{}
	for _, m := range Emitted(b) {
		for _, c := range m.Compatible {
			w := by[c]
			if w == nil {
				w = &Width{Compatible: c, Bits: m.DMABits, CoherentBits: m.CoherentWidth()}
				by[c] = w
			}
			w.Bits = min(w.Bits, m.DMABits)
			w.CoherentBits = min(w.CoherentBits, m.CoherentWidth())
			if n := len(w.Masters); n == 0 || w.Masters[n-1] != m {
				w.Masters = append(w.Masters, m)
			}
		}
	}
	out := make([]Width, 0, len(by))
	for _, w := range by {
		out = append(out, *w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Compatible < out[j].Compatible })
	return out
}

// source returns the provenance of the entry, as comment text: the master
// that set its width, and every master when they disagree.
func (w Width) source() outputs.Text {
	var narrow *ir.Master
	mixed := false
	for _, m := range w.Masters {
		if m.DMABits == w.Bits && narrow == nil {
			narrow = m
		}
		if m.DMABits != w.Bits {
			mixed = true
		}
	}
	if !mixed {
		keys := make([]string, len(w.Masters))
		for i, m := range w.Masters {
			keys[i] = m.Key
		}
		return outputs.T(strings.Join(keys, ", "), ", ", narrow.DMABitsPos)
	}
	var parts []string
	for _, m := range w.Masters {
		parts = append(parts, fmt.Sprintf("%s %d", m.Key, m.DMABits))
	}
	return outputs.T("narrowest of ", strings.Join(parts, ", "), "; ", narrow.DMABitsPos)
}

// origin returns the origin of the entry's lines: every master with the
// compatible, and the width of the narrowest.
func (w Width) origin() outputs.Origin {
	var o outputs.Origin
	for _, m := range w.Masters {
		o.Refs = append(o.Refs, m.Ref)
		if m.DMABits == w.Bits {
			o.Pos = append(o.Pos, m.DMABitsPos)
		}
	}
	// Merged into an empty origin: without empty or repeated entries.
	return outputs.Origin{}.With(o)
}

// masterTitle describes a master, as comment text: key, node, driver,
// whether the board enables it, width and the position of the width.
func masterTitle(m *ir.Master) outputs.Text {
	s := m.Key + ": " + m.Node.Path
	if m.Driver != "" {
		s += " (" + m.Driver + ")"
	}
	if !m.Enabled {
		s += ", disabled on this board"
	}
	return outputs.T(s, ", "+widthText(m)+", ", m.DMABitsPos)
}

// widthText says a master's DMA widths: "32-bit DMA", or "40-bit
// streaming and 32-bit coherent DMA".
func widthText(m *ir.Master) string {
	if m.CoherentWidth() == m.DMABits {
		return fmt.Sprintf("%d-bit DMA", m.DMABits)
	}
	return fmt.Sprintf("%d-bit streaming and %d-bit coherent DMA", m.DMABits, m.CoherentWidth())
}

// dmaDecls writes the DMA prototypes of the header.
func (g *gen) dmaDecls(w *outputs.Printer) {
	w.P()
	w.Comment("", "DMA masks ("+dmaHowto+"). Each function sets the master's declared widths with "+
		"dma_set_mask_and_coherent(), or dma_set_mask() and dma_set_coherent_mask() where they "+
		"differ (include/linux/dma-mapping.h), and returns the error; call it in probe, before the "+
		"first DMA mapping or allocation. Masters the board disables, and masters whose driver "+
		"sets its own masks, have none.")
	for _, m := range Emitted(g.b) {
		fn := SetupFunc(g.b, m)
		o := outputs.From(m.Ref, m.DMABitsPos)
		w.Comment("", o, outputs.T(m.Key, ": "+widthText(m)+", ", m.DMABitsPos))
		w.P(o.Named(fn), "int ", fn, "(struct device *dev);")
	}
	w.P()
	w.Comment("", "For drivers that probe several variants: "+g.p+"_dma_bits() returns the DMA width "+
		"declared for a compatible string, 0 for one the board does not describe; "+
		g.p+"_dma_setup_compatible() sets the mask of that width, or returns -ENODEV "+
		"for an unknown compatible.")
	w.P(masters(g.p+"_dma_bits"), "unsigned int ", g.p, "_dma_bits(const char *compatible);")
	w.P(masters(g.p+"_dma_setup_compatible"), "int ", g.p, "_dma_setup_compatible(struct device *dev,")
	w.P(align("int "+g.p+"_dma_setup_compatible("), "const char *compatible);")
}

// dmaDefs writes the DMA functions and the width table of the source.
func (g *gen) dmaDefs(w *outputs.Printer) {
	w.P()
	w.Comment("", "A DMA mask above 32 bits never fails, so there is no fallback to 32 bits; "+
		"a narrower one fails only where the platform cannot serve it ("+dmaHowto+").")
	for _, m := range Emitted(g.b) {
		fn := SetupFunc(g.b, m)
		o := outputs.From(m.Ref, m.DMABitsPos, m.CoherentBitsPos)
		w.P()
		w.Comment("", o, masterTitle(m))
		w.P(o.Named(fn), "int ", fn, "(struct device *dev)")
		w.P("{")
		w.P("\tint err;")
		w.P()
		if m.CoherentWidth() == m.DMABits {
			w.P(o, "\terr = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(", m.DMABits, "));")
			w.P("\tif (err)")
			w.P(o, "\t\tdev_err(dev, \"no suitable DMA: ", m.DMABits, "-bit mask refused: %d\\n\", err);")
		} else {
			w.P(o, "\terr = dma_set_mask(dev, DMA_BIT_MASK(", m.DMABits, "));")
			w.P("\tif (!err)")
			w.P(o, "\t\terr = dma_set_coherent_mask(dev, DMA_BIT_MASK(", m.CoherentWidth(), "));")
			w.P("\tif (err)")
			w.P(o, "\t\tdev_err(dev, \"no suitable DMA: ", m.DMABits, "-bit streaming or ", m.CoherentWidth(),
				"-bit coherent mask refused: %d\\n\", err);")
		}
		w.P("\treturn err;")
		w.P("}")
	}

	widths := Widths(g.b)
	table := g.p + "_dma_widths"
	w.P()
	w.Comment("", "DMA width by compatible string. A compatible shared by masters of different "+
		"widths gets the narrowest: a narrower mask is always safe.")
	w.P(named("boardc_dma_width"), "struct boardc_dma_width {")
	w.P("\tconst char *compatible;")
	w.P("\tunsigned int dma_bits;")
	w.P("\tunsigned int coherent_bits;")
	w.P("};")
	if len(widths) > 0 {
		w.P()
		w.P(masters(table), "static const struct boardc_dma_width ", table, "[] = {")
		for _, e := range widths {
			o := e.origin()
			w.Comment("\t", o, e.source())
			w.P(o.Named(e.Compatible), "\t{ .compatible = ", outputs.Str(e.Compatible), ", .dma_bits = ", e.Bits,
				", .coherent_bits = ", e.CoherentBits, " },")
		}
		w.P("};")
	}

	w.P()
	w.P(masters(g.p+"_dma_bits"), "unsigned int ", g.p, "_dma_bits(const char *compatible)")
	w.P("{")
	if len(widths) > 0 {
		w.P("\tunsigned int i;")
		w.P()
		w.P("\tif (!compatible)")
		w.P("\t\treturn 0;")
		w.P("\tfor (i = 0; i < ARRAY_SIZE(", table, "); i++)")
		w.P("\t\tif (!strcmp(", table, "[i].compatible, compatible))")
		w.P("\t\t\treturn ", table, "[i].dma_bits;")
	}
	w.P("\treturn 0;")
	w.P("}")

	w.P()
	w.P(masters(g.p+"_dma_setup_compatible"), "int ", g.p, "_dma_setup_compatible(struct device *dev,")
	w.P(align("int "+g.p+"_dma_setup_compatible("), "const char *compatible)")
	w.P("{")
	if len(widths) > 0 {
		w.P("\tconst struct boardc_dma_width *e = ", table, ";")
		w.P("\tconst struct boardc_dma_width *end = e + ARRAY_SIZE(", table, ");")
		w.P("\tint err;")
		w.P()
		w.P("\tfor (; compatible && e < end; e++) {")
		w.P("\t\tif (strcmp(e->compatible, compatible))")
		w.P("\t\t\tcontinue;")
		w.P("\t\terr = dma_set_mask(dev, DMA_BIT_MASK(e->dma_bits));")
		w.P("\t\tif (!err)")
		w.P("\t\t\terr = dma_set_coherent_mask(dev, DMA_BIT_MASK(e->coherent_bits));")
		w.P("\t\tif (err)")
		w.P("\t\t\tdev_err(dev, \"no suitable DMA: %u-bit streaming or %u-bit coherent mask refused: %d\\n\",")
		w.P("\t\t\t\te->dma_bits, e->coherent_bits, err);")
		w.P("\t\treturn err;")
		w.P("\t}")
	}
	w.P("\tdev_err(dev, \"no DMA width described for %s\\n\", compatible);")
	w.P("\treturn -ENODEV;")
	w.P("}")
}

// align returns the tabs and spaces that line a continuation up with the
// column after prefix, kernel style.
func align(prefix string) string {
	n := len(prefix)
	return strings.Repeat("\t", n/8) + strings.Repeat(" ", n%8)
}
