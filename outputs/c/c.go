// Package c is the "c" emitter: the kernel C of a board. It writes the
// DMA capabilities, a header and a source file (boardc_<board>.h and
// boardc_<board>.c) to be built by kbuild into the driver or board file
// that uses them, and the verifier module (boardc_<board>_verify.c and
// its Kbuild, verify.go) to load on the board.
//
// The source holds the DMA capabilities of the masters the C covers (the
// enabled masters whose driver does not set its own masks), one exported
// const struct boardc_dma_caps per compatible string, usable as
// of_device_id.data, and an exported of_device_id table of them; the
// header declares them and defines boardc_dma_caps_apply(), which sets
// both masks (Documentation/core-api/dma-api-howto.rst,
// include/linux/dma-mapping.h). No function is exported: a multiplatform
// driver calls no board's code, it points its own match table at the
// board's data. The DPAA2 channel and stash tables of earlier versions
// are gone: dpaa2_eth_setup_dpio() (drivers/net/ethernet/freescale/dpaa2/
// dpaa2-eth.c) and dpaa2_dpio_get_cluster_sdest() (drivers/soc/fsl/dpio/
// dpio-driver.c) do that work in the kernel; the board's DPAA2 resources
// go into the data-path layout (outputs/dpl).
//
// The output follows kernel coding style: SPDX line first, tabs, an
// include guard, declarations in the header (which the source includes,
// so that W=1 finds one for every global symbol), EXPORT_SYMBOL_GPL after
// each exported definition, and a comment naming the CUE position of
// every entry.
package c

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
	g := gen{b: b, p: "boardc_" + b.CIdent(), caps: capsEntries(b)}
	fs := []outputs.File{g.header(), g.source(), g.verify(), g.verifyKbuild()}
	outputs.SortFiles(fs)
	return fs
}

// gen holds what both files need: the board, the prefix of every
// identifier ("boardc_<board>") and the DMA capabilities.
type gen struct {
	b    *ir.Board
	p    string
	caps []capsEntry
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
	desc := outputs.T(outputs.BoardText(g.b), ": DMA capabilities of the board's DMA masters.")
	w.Comment("", outputs.GeneratedNotice, desc,
		"Build it into the kernel or a module beside the driver that uses it. Each entry names the "+
			"description lines it comes from.")
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
	w.P("#include <linux/dma-mapping.h>")
	w.P("#include <linux/errno.h>")
	w.P("#include <linux/mod_devicetable.h>")
	w.P("#include <linux/types.h>")
	w.P()
	w.P("struct device;")
	g.dmaDecls(w)
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
	w.P("#include <linux/export.h>")
	w.P("#include <linux/mod_devicetable.h>")
	w.P()
	w.P("#include ", outputs.Str(HeaderName(g.b)))
	g.dmaDefs(w)
	return w.File(SourceName(g.b))
}
