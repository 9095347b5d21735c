package check

import "boardc.dev/boardc/compiler/ir"

// parentLimit returns the last address the parent of a bus can carry: its
// declared addressBits. It returns 0 when no limit applies: no parent, no
// declared width, or 64 bits.
//
// The parent's #address-cells bound how a window's parent address is
// written (BC0203), not how far the window reaches: of_dma_get_range()
// (drivers/of/address.c) records cpu_start and size as they are, and
// of_translate_one() passes an address 1:1 through a parent with no or an
// empty dma-ranges. Intel Agilex 5's dma-bus@10db0000 (Linux
// arch/arm64/boot/dts/intel/socfpga_agilex5.dtsi) is such a window: 1 TiB
// in two size cells below a soc@0 of one address cell.
func parentLimit(parent *ir.Bus) uint64 {
	if parent == nil || parent.AddressBits == 0 || parent.AddressBits >= 64 {
		return 0
	}
	return 1<<uint(parent.AddressBits) - 1
}
