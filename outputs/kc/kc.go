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
	fs := []outputs.File{g.header(), g.source(), g.verify(), g.verifyKbuild()}
	outputs.SortFiles(fs)
	return fs
}

// gen holds what both files need: the board and the prefix of every
// identifier ("boardc_<board>").
type gen struct {
	b *ir.Board
	p string
}

// named returns the origin of a line that declares or defines the C symbol
// name and comes from no element in particular.
func named(name string) outputs.Origin { return outputs.Origin{}.Named(name) }

// refMasters is the ref of the SoC's masters together.
const refMasters ir.Ref = "soc.masters"

// masters returns the origin of a line that declares or defines the C
// symbol name, made from every master of the board (a table of them, a
// function that reads it).
func masters(name string) outputs.Origin { return outputs.From(refMasters).Named(name) }

// banner writes the comment block every generated file starts with, after
// its SPDX line.
func (g *gen) banner(w *outputs.Printer) {
	b := g.b
	desc := outputs.T(outputs.From(ir.RefBoard, b.Pos), "Board ", b.Name)
	if b.Model != "" {
		desc = append(desc, outputs.From(ir.RefModel), " (", b.Model, ")")
	}
	desc = append(desc, outputs.From(ir.RefSoC, b.SoC.Pos), ", SoC ", b.SoC.Name, ": DMA masks of the board's DMA masters")
	if b.SoC.DPAA2 != nil {
		desc = append(desc, " and DPAA2 DPIO affinity")
	}
	w.Comment("", outputs.GeneratedNotice, append(desc, "."),
		"Build it into the driver or board file that calls it. Each function "+
			"and table entry names the description line it comes from.")
}

// guard returns the header's include guard macro.
func (g *gen) guard() string { return strings.ToUpper(g.p) + "_H" }

// header returns boardc_<board>.h.
func (g *gen) header() outputs.File {
	w := outputs.NewPrinter(outputs.C)
	w.P("/* SPDX-License-Identifier: GPL-2.0 */")
	g.banner(w)
	w.P()
	w.P("#ifndef ", g.guard())
	w.P("#define ", g.guard())
	w.P()
	w.P("struct device;")
	if g.b.SoC.DPAA2 != nil {
		w.P("struct dpaa2_io;")
	}
	g.dmaDecls(w)
	if g.b.SoC.DPAA2 != nil {
		g.dpaa2Decls(w)
	}
	w.P()
	w.P("#endif /* ", g.guard(), " */")
	return w.File(HeaderName(g.b))
}

// source returns boardc_<board>.c.
func (g *gen) source() outputs.File {
	w := outputs.NewPrinter(outputs.C)
	w.P("// SPDX-License-Identifier: GPL-2.0")
	g.banner(w)
	w.P()
	w.P("#include <linux/device.h>")
	w.P("#include <linux/dma-mapping.h>")
	w.P("#include <linux/errno.h>")
	w.P("#include <linux/kernel.h>")
	w.P("#include <linux/string.h>")
	if g.b.SoC.DPAA2 != nil {
		w.P("#include <soc/fsl/dpaa2-io.h>")
	}
	w.P()
	w.P("#include ", outputs.Str(HeaderName(g.b)))
	g.dmaDefs(w)
	if g.b.SoC.DPAA2 != nil {
		g.dpaa2Defs(w)
	}
	return w.File(SourceName(g.b))
}
