package kc

import (
	"fmt"
	"sort"
	"strings"

	"boardc.dev/boardc/compiler/ir"
)

// dmaHowto is where the kernel teaches DMA mask setup.
const dmaHowto = "Documentation/core-api/dma-api-howto.rst"

// SetupFunc returns the name of the function that sets master m's DMA mask.
func SetupFunc(b *ir.Board, m *ir.Master) string {
	return "boardc_" + b.CIdent() + "_" + ir.CIdent(m.Key) + "_dma_setup"
}

// Width is one entry of the table of DMA widths by compatible string.
type Width struct {
	Compatible string
	// Bits is the narrowest width of the masters with this compatible: a
	// mask narrower than a device can drive is always safe.
	Bits int
	// Masters are the masters that carry the compatible, sorted by key.
	Masters []*ir.Master
}

// Widths returns the board's DMA widths by compatible string, sorted by
// compatible. A compatible shared by masters of different widths gets the
// narrowest of them.
func Widths(b *ir.Board) []Width {
	by := map[string]*Width{}
	for _, m := range b.SoC.Masters {
		for _, c := range m.Compatible {
			w := by[c]
			if w == nil {
				w = &Width{Compatible: c, Bits: m.DMABits}
				by[c] = w
			}
			if m.DMABits < w.Bits {
				w.Bits = m.DMABits
			}
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

// source returns the provenance of the entry: the master that set its
// width, and every master when they disagree.
func (w Width) source() string {
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
		return strings.Join(keys, ", ") + ", " + narrow.DMABitsPos.Short()
	}
	var parts []string
	for _, m := range w.Masters {
		parts = append(parts, fmt.Sprintf("%s %d", m.Key, m.DMABits))
	}
	return "narrowest of " + strings.Join(parts, ", ") + "; " + narrow.DMABitsPos.Short()
}

// masterTitle describes a master: key, node, driver, whether the board
// enables it, width and the position of the width.
func masterTitle(m *ir.Master) string {
	s := m.Key + ": " + m.Node.Path
	if m.Driver != "" {
		s += " (" + m.Driver + ")"
	}
	if !m.Enabled {
		s += ", disabled on this board"
	}
	return fmt.Sprintf("%s, %d-bit DMA, %s", s, m.DMABits, m.DMABitsPos.Short())
}

// dmaDecls writes the DMA prototypes of the header.
func (g *gen) dmaDecls(w *writer) {
	w.blank()
	w.comment("", "DMA masks ("+dmaHowto+"). Each function sets the master's declared width with "+
		"dma_set_mask_and_coherent() (include/linux/dma-mapping.h) and returns its error; "+
		"call it in probe, before the first DMA mapping or allocation.")
	for _, m := range g.b.SoC.Masters {
		w.comment("", fmt.Sprintf("%s: %d-bit DMA, %s", m.Key, m.DMABits, m.DMABitsPos.Short()))
		w.f("int %s(struct device *dev);", SetupFunc(g.b, m))
	}
	w.blank()
	w.comment("", "For drivers that probe several variants: "+g.p+"_dma_bits() returns the DMA width "+
		"declared for a compatible string, 0 for one the board does not describe; "+
		g.p+"_dma_setup_compatible() sets the mask of that width, or returns -ENODEV "+
		"for an unknown compatible.")
	w.f("unsigned int %s_dma_bits(const char *compatible);", g.p)
	w.f("int %s_dma_setup_compatible(struct device *dev,", g.p)
	w.f("%sconst char *compatible);", align("int "+g.p+"_dma_setup_compatible("))
}

// dmaDefs writes the DMA functions and the width table of the source.
func (g *gen) dmaDefs(w *writer) {
	w.blank()
	w.comment("", "A DMA mask above 32 bits never fails, so there is no fallback to 32 bits; "+
		"a narrower one fails only where the platform cannot serve it ("+dmaHowto+").")
	for _, m := range g.b.SoC.Masters {
		w.blank()
		w.comment("", masterTitle(m))
		w.f("int %s(struct device *dev)", SetupFunc(g.b, m))
		w.f("{")
		w.f("\tint err;")
		w.blank()
		w.f("\terr = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(%d));", m.DMABits)
		w.f("\tif (err)")
		w.f("\t\tdev_err(dev, \"no suitable DMA: %d-bit mask refused: %%d\\n\", err);", m.DMABits)
		w.f("\treturn err;")
		w.f("}")
	}

	widths := Widths(g.b)
	table := g.p + "_dma_widths"
	w.blank()
	w.comment("", "DMA width by compatible string. A compatible shared by masters of different "+
		"widths gets the narrowest: a narrower mask is always safe.")
	w.f("struct boardc_dma_width {")
	w.f("\tconst char *compatible;")
	w.f("\tunsigned int dma_bits;")
	w.f("};")
	if len(widths) > 0 {
		w.blank()
		w.f("static const struct boardc_dma_width %s[] = {", table)
		for _, e := range widths {
			w.comment("\t", e.source())
			w.f("\t{ .compatible = %s, .dma_bits = %d },", cString(e.Compatible), e.Bits)
		}
		w.f("};")
	}

	w.blank()
	w.f("unsigned int %s_dma_bits(const char *compatible)", g.p)
	w.f("{")
	if len(widths) > 0 {
		w.f("\tunsigned int i;")
		w.blank()
		w.f("\tif (!compatible)")
		w.f("\t\treturn 0;")
		w.f("\tfor (i = 0; i < ARRAY_SIZE(%s); i++)", table)
		w.f("\t\tif (!strcmp(%s[i].compatible, compatible))", table)
		w.f("\t\t\treturn %s[i].dma_bits;", table)
	}
	w.f("\treturn 0;")
	w.f("}")

	w.blank()
	w.f("int %s_dma_setup_compatible(struct device *dev,", g.p)
	w.f("%sconst char *compatible)", align("int "+g.p+"_dma_setup_compatible("))
	w.f("{")
	w.f("\tunsigned int bits = %s_dma_bits(compatible);", g.p)
	w.f("\tint err;")
	w.blank()
	w.f("\tif (!bits) {")
	w.f("\t\tdev_err(dev, \"no DMA width described for %%s\\n\", compatible);")
	w.f("\t\treturn -ENODEV;")
	w.f("\t}")
	w.f("\terr = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(bits));")
	w.f("\tif (err)")
	w.f("\t\tdev_err(dev, \"no suitable DMA: %%u-bit mask refused: %%d\\n\",")
	w.f("\t\t\tbits, err);")
	w.f("\treturn err;")
	w.f("}")
}

// align returns the tabs and spaces that line a continuation up with the
// column after prefix, kernel style.
func align(prefix string) string {
	n := len(prefix)
	return strings.Repeat("\t", n/8) + strings.Repeat(" ", n%8)
}
