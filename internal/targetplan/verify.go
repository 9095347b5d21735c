package main

import (
	"fmt"
	"strings"

	"boardc.dev/boardc/compiler/ir"
)

// writeVerify prints the records the board's verifier module is checked
// against: per enabled master the bus DMA limit the kernel must have taken
// from dma-ranges, for the master's own device and for the PCI devices
// behind it (ir.Master.BusDMALimit, EndpointDMALimit), and on a DPAA2 SoC
// the DPIO count.
func writeVerify(s *strings.Builder, b *ir.Board) {
	for _, m := range b.SoC.Masters {
		if m.Enabled {
			own, _ := m.BusDMALimit()
			pci, _ := m.EndpointDMALimit()
			fmt.Fprintf(s, "limit %s %s %s\n", m.Key, limitText(own), limitText(pci))
		}
	}
	if d := b.SoC.DPAA2; d != nil {
		fmt.Fprintf(s, "dpio %d\n", len(d.DPIOs))
	}
}

// limitText prints a bus DMA limit as the verifier's printk %#llx does:
// 0x and lower-case hex digits, 0x0 for none (the kernel's number(),
// lib/vsprintf.c, writes the 0x of its SPECIAL flag for zero too, where
// C's printf writes 0).
func limitText(v uint64) string { return fmt.Sprintf("%#x", v) }
