// Package c is the "c" emitter: the kernel C of a board. It writes the
// DMA capabilities as one header, boardc_<board>.h, to be included by the
// drivers that use them, and the verifier module (boardc_<board>_verify.c
// and its Kbuild, verify.go) to load on the board.
//
// The header holds the DMA capabilities of the masters whose masks it
// changes: enabled masters whose driver does not set its own masks and
// whose described masks differ from what the kernel gives their device
// (32 bits, narrowed by the dma-ranges above it: KernelDefault). Each is
// a static const struct boardc_dma_caps per compatible string, in a
// static of_device_id table, with static inline functions that look a
// device-tree node up in it by its compatible strings (of_match_node())
// and apply the entry, dma_set_mask() then dma_set_coherent_mask()
// (Documentation/core-api/dma-api-howto.rst, include/linux/dma-mapping.h).
// The header is the whole C: it defines no global symbol and exports
// none, so any number of modules of one board can include it side by
// side, and no file of it needs a MODULE_LICENSE(). A driver looks its
// device up in it and leaves its own match table, and the of_device_id.data
// its match table may already carry, alone. The header is written for
// every board, also when no master has an entry (the functions then find
// none), so a driver including it builds on every board and a build
// system's file list does not depend on the description. The DPAA2
// channel and stash tables of earlier versions are gone:
// dpaa2_eth_setup_dpio() (drivers/net/ethernet/freescale/dpaa2/
// dpaa2-eth.c) and dpaa2_dpio_get_cluster_sdest() (drivers/soc/fsl/dpio/
// dpio-driver.c) do that work in the kernel; the board's DPAA2 resources
// go into the data-path layout (outputs/dpl).
//
// The output follows kernel coding style: SPDX line first, tabs, an
// include guard, and a comment naming the CUE position of every entry.
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

// Emit returns the board's header, its verifier module and the
// verifier's Kbuild.
func Emit(b *ir.Board) []outputs.File {
	g := gen{b: b, p: "boardc_" + b.CIdent(), caps: capsEntries(b)}
	fs := []outputs.File{g.header(), g.verify(), g.verifyKbuild()}
	outputs.SortFiles(fs)
	return fs
}

// gen holds what the files need: the board, the prefix of every
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
		"Include it in the drivers that use it. It defines no global symbol, so any number of "+
			"modules of the board can include it. Each entry names the description lines it comes from.")
}

// guard returns the header's include guard macro.
func (g *gen) guard() string { return strings.ToUpper(g.p) + "_H" }

// header returns boardc_<board>.h.
func (g *gen) header() outputs.File {
	w := outputs.NewPrinter(outputs.C)
	w.Grow(4<<10 + 256*len(g.caps)) // the in-tree boards' headers
	w.P("/* SPDX-License-Identifier: GPL-2.0 */")
	g.banner(w)
	w.P()
	w.P("#ifndef ", g.guard())
	w.P("#define ", g.guard())
	w.P()
	w.P("#include <linux/device.h>")
	w.P("#include <linux/dma-mapping.h>")
	w.P("#include <linux/errno.h>")
	w.P("#include <linux/mod_devicetable.h>")
	w.P("#include <linux/of.h>")
	w.P("#include <linux/types.h>")
	g.dmaCommon(w)
	g.dmaDefs(w)
	w.P()
	w.P("#endif /* ", g.guard(), " */")
	return w.File(HeaderName(g.b))
}
