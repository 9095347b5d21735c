// Package kc emits kernel C for a board: a header and a source file,
// boardc_<board>.h and boardc_<board>.c, to be built by kbuild into the
// driver or board file that uses them.
//
// The source sets each DMA master's declared DMA mask with
// dma_set_mask_and_coherent() (Documentation/core-api/dma-api-howto.rst,
// include/linux/dma-mapping.h) and, on SoCs with DPAA2, holds the
// channel→CPU table of the described DPIO affinity, a helper that returns
// the DPIO service of a channel's CPU (dpaa2_io_service_select(),
// include/soc/fsl/dpaa2-io.h) and the per-DPIO stash destinations
// (drivers/soc/fsl/dpio/dpio-driver.c, dpaa2_dpio_get_cluster_sdest()).
//
// The output follows kernel coding style: SPDX line first, tabs, an
// include guard, prototypes in the header (which the source includes, so
// that W=1 finds a prototype for every global function), static const
// tables, and a comment naming the CUE position of every function and
// table entry.
package kc

import (
	"fmt"
	"strings"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// Emitter is the kernel C emitter.
var Emitter = outputs.Emitter{Name: "c", Emit: Emit}

// HeaderName returns the name of the board's generated header.
func HeaderName(b *ir.Board) string { return "boardc_" + b.CIdent() + ".h" }

// SourceName returns the name of the board's generated C source.
func SourceName(b *ir.Board) string { return "boardc_" + b.CIdent() + ".c" }

// Emit returns the board's header and source.
func Emit(b *ir.Board) []outputs.File {
	g := gen{b: b, p: "boardc_" + b.CIdent()}
	fs := []outputs.File{
		{Path: HeaderName(b), Data: []byte(g.header())},
		{Path: SourceName(b), Data: []byte(g.source())},
	}
	outputs.SortFiles(fs)
	return fs
}

// gen holds what both files need: the board and the prefix of every
// identifier ("boardc_<board>").
type gen struct {
	b *ir.Board
	p string
}

// writer is a line printer for C text.
type writer struct{ strings.Builder }

// f writes a formatted line; the format must not end in a newline.
func (w *writer) f(format string, args ...any) {
	fmt.Fprintf(w, format, args...)
	w.WriteByte('\n')
}

// blank writes an empty line.
func (w *writer) blank() { w.WriteByte('\n') }

// lineWidth is the column kernel style wraps comments at.
const lineWidth = 80

// comment writes a C block comment, indented by indent (tabs), with each
// paragraph wrapped at lineWidth columns. A paragraph that starts with a
// tab is code, written as is, one line per "\n". A single short paragraph
// becomes a one-line comment.
func (w *writer) comment(indent string, paras ...string) {
	col := 8 * len(indent)
	if len(paras) == 1 && !strings.HasPrefix(paras[0], "\t") {
		if one := "/* " + comment(paras[0]) + " */"; col+len(one) <= lineWidth {
			w.f("%s%s", indent, one)
			return
		}
	}
	w.f("%s/*", indent)
	for i, p := range paras {
		if i > 0 {
			w.f("%s *", indent)
		}
		if strings.HasPrefix(p, "\t") {
			for _, l := range strings.Split(p, "\n") {
				w.f("%s *%s", indent, comment(l))
			}
			continue
		}
		line := ""
		for _, word := range strings.Fields(comment(p)) {
			if line != "" && col+3+len(line)+1+len(word) > lineWidth {
				w.f("%s * %s", indent, line)
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += word
		}
		if line != "" {
			w.f("%s * %s", indent, line)
		}
	}
	w.f("%s */", indent)
}

// banner writes the comment block every generated file starts with, after
// its SPDX line.
func (g *gen) banner(w *writer) {
	b := g.b
	desc := "Board " + b.Name
	if b.Model != "" {
		desc += " (" + b.Model + ")"
	}
	desc += ", SoC " + b.SoC.Name + ": DMA masks of the board's DMA masters"
	if b.SoC.DPAA2 != nil {
		desc += " and DPAA2 DPIO affinity"
	}
	w.comment("", outputs.GeneratedNotice, desc+".",
		"Build it into the driver or board file that calls it. Each function "+
			"and table entry names the description line it comes from.")
}

// guard returns the header's include guard macro.
func (g *gen) guard() string { return strings.ToUpper(g.p) + "_H" }

// header returns the text of boardc_<board>.h.
func (g *gen) header() string {
	var w writer
	w.f("/* SPDX-License-Identifier: GPL-2.0 */")
	g.banner(&w)
	w.blank()
	w.f("#ifndef %s", g.guard())
	w.f("#define %s", g.guard())
	w.blank()
	w.f("struct device;")
	if g.b.SoC.DPAA2 != nil {
		w.f("struct dpaa2_io;")
	}
	g.dmaDecls(&w)
	if g.b.SoC.DPAA2 != nil {
		g.dpaa2Decls(&w)
	}
	w.blank()
	w.f("#endif /* %s */", g.guard())
	return w.String()
}

// source returns the text of boardc_<board>.c.
func (g *gen) source() string {
	var w writer
	w.f("// SPDX-License-Identifier: GPL-2.0")
	g.banner(&w)
	w.blank()
	w.f("#include <linux/device.h>")
	w.f("#include <linux/dma-mapping.h>")
	w.f("#include <linux/errno.h>")
	w.f("#include <linux/kernel.h>")
	w.f("#include <linux/string.h>")
	if g.b.SoC.DPAA2 != nil {
		w.f("#include <soc/fsl/dpaa2-io.h>")
	}
	w.blank()
	w.f("#include %s", cString(HeaderName(g.b)))
	g.dmaDefs(&w)
	if g.b.SoC.DPAA2 != nil {
		g.dpaa2Defs(&w)
	}
	return w.String()
}

// comment makes s safe inside a C block comment on one line: no newline,
// no "*/" that would end the comment early and no "/*" (-Wcomment).
func comment(s string) string {
	s = oneLine.Replace(s)
	for strings.Contains(s, "*/") || strings.Contains(s, "/*") {
		s = commentEnds.Replace(s)
	}
	return s
}

// The replacers of comment, built once (a Replacer is safe for concurrent
// use).
var (
	oneLine     = strings.NewReplacer("\r", " ", "\n", " ")
	commentEnds = strings.NewReplacer("*/", "* /", "/*", "/ *")
)

// cString returns s as a C string literal. The schema restricts the
// strings that reach it to printable ASCII; anything else is escaped in
// octal so the literal stays valid C whatever the input.
func cString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f || c == '?':
			fmt.Fprintf(&b, "\\%03o", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
