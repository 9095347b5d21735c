// SPDX-License-Identifier: GPL-2.0
/*
 * The negative control of the two-module test: DMA capabilities defined
 * and exported the way boardc_<board>.c did when the board's C was a
 * source file beside the header, linked into a module with boardc_two.c.
 * Two such modules of one board build, but the second fails to load: the
 * kernel refuses a module that exports a symbol another module already
 * exports ("exports duplicate symbol").
 */

#include <linux/export.h>

#include BOARDC_HEADER

extern const struct boardc_dma_caps boardc_exported_dma_caps;
const struct boardc_dma_caps boardc_exported_dma_caps = {
	.streaming_bits = 32,
	.coherent_bits = 32,
};
EXPORT_SYMBOL_GPL(boardc_exported_dma_caps);
