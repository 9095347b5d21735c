package main

import (
	"fmt"
	"strconv"
	"strings"

	"boardc.dev/boardc/compiler/ir"
)

// writeVerify prints the records the board's verifier module is checked
// against: per enabled master the bus DMA limit the kernel must have taken
// from dma-ranges, for the master's own device and for the PCI devices
// behind it (ir.Master.BusDMALimit, EndpointDMALimit), the mask widths the
// verifier must accept (acceptWidths), and on a DPAA2 SoC the DPIO count.
func writeVerify(s *strings.Builder, b *ir.Board) {
	for _, m := range b.SoC.Masters {
		if m.Enabled {
			own, _ := m.BusDMALimit()
			pci, _ := m.EndpointDMALimit()
			fmt.Fprintf(s, "limit %s %s %s\n", m.Key, limitText(own), limitText(pci))
		}
	}
	for _, m := range b.SoC.Masters {
		if m.Enabled {
			dma, coh, bdma, bcoh := acceptWidths(m)
			fmt.Fprintf(s, "widths %s %s %s %s %s\n", m.Key, dma, coh, bdma, bcoh)
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

// acceptWidths returns the widths the verifier must accept for the
// streaming and coherent masks of the master's own device and of the
// devices below it, as it prints them ("32,64", "any" for a mask printed
// as information), from the description alone:
//   - no driverSets: the described widths, boardc's C sets them;
//   - driverSets children: the node's device's masks are not checked, the
//     devices below have the described widths narrowed by the bus limit
//     (ir.Master.ChildWidths);
//   - driverSets widths: any of them for both masks, the described
//     coherent width where the description splits it;
//   - driverSets alone: any;
//   - a bridge (bridge): its own device's masks are not checked, the PCI
//     devices behind it have any of the widths their drivers set
//     (bridge.endpoints), any without them;
//   - a master configured from another master's node (dmaDevice): any,
//     the description states no width.
//
// The devices below any other master (PCI devices behind a host bridge)
// have their own drivers' masks: any.
func acceptWidths(m *ir.Master) (dma, coh, belowDMA, belowCoh string) {
	d := m.DriverSets
	switch {
	case m.IsBridge():
		if ws := m.Bridge.Endpoints; len(ws) > 0 {
			t := ir.JoinInts(ws, ",")
			return "any", "any", t, t
		}
		return "any", "any", "any", "any"
	case m.DMADeviceKey != "":
		return "any", "any", "any", "any"
	case d == nil:
		return itoa(m.DMABits), itoa(m.CoherentWidth()), "any", "any"
	case d.Children:
		s, c := m.ChildWidths()
		return "any", "any", itoa(s), itoa(c)
	case len(d.Widths) > 0:
		dma = ir.JoinInts(d.Widths, ",")
		coh = dma
		if m.CoherentBits != 0 && m.CoherentBits != m.DMABits {
			coh = itoa(m.CoherentBits)
		}
		return dma, coh, "any", "any"
	}
	return "any", "any", "any", "any"
}

// itoa prints a width in decimal.
func itoa(n int) string { return strconv.Itoa(n) }
