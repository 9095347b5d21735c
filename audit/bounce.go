package audit

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/kernel"
)

// memory is the RAM a tree states: the regions of its memory nodes
// (device_type = "memory", devicetree specification 3.4). Sized is false
// when a node has no size (the bootloader fills it in) or there is none.
type memory struct {
	Regions [][2]uint64 // base, size
	Sized   bool
	// Base is the lowest base any memory node gives; Known is false when
	// there is no memory node at all.
	Base  uint64
	Known bool
	// Source is where the first memory node's reg is written.
	Source string
}

// memoryOf reads the memory nodes of t.
func memoryOf(t *basetree.Tree) memory {
	m := memory{Sized: true, Base: math.MaxUint64}
	for _, p := range t.Paths() {
		n := t.Node(p)
		if dt, _ := n.String("device_type"); dt != "memory" || n.Parent == nil || n.Parent.Path != "/" {
			continue
		}
		regs, ok := n.Reg()
		if !ok || len(regs) == 0 {
			m.Sized = false
			continue
		}
		if m.Source == "" {
			m.Source = t.PropSource(p, "reg")
		}
		m.Known = true
		for _, r := range regs {
			m.Base = min(m.Base, r[0])
			if r[1] == 0 {
				m.Sized = false
				continue
			}
			m.Regions = append(m.Regions, r)
		}
	}
	if !m.Known {
		m.Sized, m.Base = false, 0
	}
	return m
}

// maxRAM bounds the RAM sizes a note names when the tree leaves the size
// to the bootloader: 16 GiB, so that a note names a RAM size a board of
// the kind can have. A reach that only more RAM would exceed is no
// finding.
const maxRAM = 16 << 30

// window is a physical address range [lo, hi] a device can reach.
type window struct{ lo, hi uint64 }

// reach returns the physical windows a device with a DMA mask of width
// bits reaches through the dma-ranges walk w: dma_capable()
// (include/linux/dma-direct.h, Linux 6.12) checks a DMA address against
// min(*dev->dma_mask, dev->bus_dma_limit), and translate_phys_to_dma()
// maps a physical address through dev->dma_range_map, an address outside
// every window having no DMA address at all.
func reach(width int, w basetree.DMAWalk) []window {
	if w.At == nil {
		return windowsFor(width, nil)
	}
	return windowsFor(width, w.Ranges)
}

// windowsFor returns the physical windows of a mask of width bits through
// dma-ranges triplets; nil ranges is an identity.
func windowsFor(width int, ranges [][3]uint64) []window {
	mask := uint64(math.MaxUint64)
	if width < 64 {
		mask = 1<<width - 1
	}
	if ranges == nil {
		return []window{{0, mask}}
	}
	var out []window
	for _, r := range ranges {
		child, parent, size := r[0], r[1], r[2]
		if size == 0 || child > mask {
			continue
		}
		n := min(size-1, mask-child)
		out = append(out, window{parent, parent + n})
	}
	slices.SortFunc(out, func(a, b window) int {
		if a.lo < b.lo {
			return -1
		}
		if a.lo > b.lo {
			return 1
		}
		return 0
	})
	return out
}

// firstOut returns the lowest address of [lo, hi] no window covers.
func firstOut(lo, hi uint64, ws []window) (uint64, bool) {
	at := lo
	for _, w := range ws {
		if w.hi < at {
			continue
		}
		if w.lo > at {
			break
		}
		if w.hi >= hi {
			return 0, false
		}
		at = w.hi + 1
	}
	return at, at <= hi
}

// effectiveWidth returns the widest streaming mask the driver can set on
// a device it binds by the matched compatible, where the catalogue fixes
// it, and the fact as evidence. ok is false where the width depends on
// what the catalogue cannot say (runtime, unknown) or the driver's own
// device does no DMA (a bridge, a bus of children).
func effectiveWidth(drv *kernel.Driver, matched, series string) (int, Evidence, bool) {
	if drv.Bridge != "" {
		return 0, Evidence{}, false
	}
	ev := Evidence{Kind: "driver"}
	switch drv.DMA.Kind {
	case kernel.DMANone:
		// A driver that sets only the coherent mask leaves the
		// streaming one, which streaming DMA and swiotlb go by, at 32
		// bits: an OF platform device's dma_mask points at its own
		// platform_dma_mask (of_device_alloc() -> platform_device_alloc()
		// -> setup_pdev_dma_masks(), drivers/base/platform.c:536-538 in
		// 6.12), and of_platform_device_create_pdata()
		// (drivers/of/platform.c:180-181) points it at the coherent mask
		// only when it is unset.
		for _, s := range drv.DMA.Sets {
			if s.Call == "dma_set_coherent_mask" && s.Width > 0 {
				ev.Text = fmt.Sprintf("%s (Linux %s) sets only the coherent mask (%d bits): the streaming mask keeps the 32-bit default, pdev->platform_dma_mask (setup_pdev_dma_masks(), drivers/base/platform.c)", drv.Name, series, s.Width)
				ev.Source = s.Site.String()
				return 32, ev, true
			}
		}
		ev.Text = fmt.Sprintf("%s (Linux %s) sets no DMA mask: the OF default of 32 bits stays (of_platform_device_create_pdata(), drivers/of/platform.c)", drv.Name, series)
		ev.Source = drv.Probe.String()
		return 32, ev, true
	case kernel.DMAFixed, kernel.DMAChoice, kernel.DMAMatchData:
		ws := drv.WidthFor(matched)
		if len(ws) == 0 {
			return 0, Evidence{}, false
		}
		w := slices.Max(ws)
		what := "sets"
		if len(ws) > 1 {
			what = fmt.Sprintf("sets at most (of %v)", ws)
		}
		ev.Text = fmt.Sprintf("%s (Linux %s) %s a %d-bit DMA mask", drv.Name, series, what, w)
		ev.Source = drv.Probe.String()
		for _, s := range drv.DMA.Sets {
			if s.Width == w {
				ev.Text += fmt.Sprintf(": %s(%s)", s.Call, s.Arg)
				ev.Source = s.Site.String()
				break
			}
		}
		return w, ev, true
	}
	return 0, Evidence{}, false
}

// bounce returns the Bounce finding of master m (node n), if its reach
// leaves RAM out and it has no IOMMU.
func bounce(t *basetree.Tree, board string, n *basetree.Node, m Master, drv *kernel.Driver, matched string, cat *kernel.Catalog, mem memory) (Finding, bool) {
	series := cat.Series
	if n.Has("iommus") || n.Has("memory-region") {
		// Translated by an IOMMU, or given its own DMA pool
		// (restricted-dma-pool, of_dma_set_restricted_buffer()).
		return Finding{}, false
	}
	if !streams(n) {
		return Finding{}, false
	}
	width, drvEv, ok := effectiveWidth(drv, matched, series)
	if !ok {
		return Finding{}, false
	}
	if _, pio := noOwnDMA[drv.Site.File]; pio {
		return Finding{}, false
	}
	if _, host := hostChildMask[drv.Site.File]; host {
		if mode, _ := n.String("dr_mode"); mode != "peripheral" {
			return Finding{}, false
		}
	}
	if drv.DMA.Kind == kernel.DMANone && (n.Has("dmas") || hasDevice(n, cat)) {
		// Its driver sets no mask and its transfers may be mapped by
		// another device: a DMA engine's channel (dmas), or a child
		// device (a USB glue's dwc3 or cdns3 core).
		return Finding{}, false
	}
	walk := t.DMAWalk(t.DMAParent(n), nil)
	if walk.At != nil && !walk.OK {
		return Finding{}, false // Ranges reports it
	}
	ws := reach(width, walk)
	ev := []Evidence{drvEv}
	reachText := fmt.Sprintf("%d-bit mask", width)
	if walk.At != nil {
		ev = append(ev, Evidence{Kind: "dt", Text: fmt.Sprintf("dma-ranges on %s: %s (of_dma_configure_id(), drivers/of/device.c: bus_dma_limit %#x)", walk.At.Path, rangesText(walk.Ranges), walk.Limit), Source: t.PropSource(walk.At.Path, "dma-ranges")})
		reachText += " narrowed by dma-ranges"
	}
	class := Bounce
	if drv.DMA.Kind == kernel.DMANone && !strings.Contains(drvEv.Text, "coherent mask") {
		class = BounceDefault
	}
	f := finding(class, Warning, board, m)
	if mem.Sized {
		var out uint64
		found := false
		for _, r := range mem.Regions {
			hi := r[0] + (r[1] - 1)
			if r[1]-1 > math.MaxUint64-r[0] {
				hi = math.MaxUint64
			}
			if a, ok := firstOut(r[0], hi, ws); ok && (!found || a < out) {
				out, found = a, true
			}
		}
		if !found {
			return Finding{}, false
		}
		ev = append(ev, Evidence{Kind: "memory", Text: "RAM " + regionsText(mem.Regions), Source: mem.Source})
		f.Message = fmt.Sprintf("%s reaches RAM only below %#x (%s) and has no IOMMU: streaming DMA to RAM from %#x on bounces through swiotlb", m.Path, out, reachText, out)
	} else {
		// The tree leaves the RAM size to the bootloader: say which
		// sizes reach beyond the device.
		// Without a memory node the RAM's base is unknown too: it is
		// taken to start where the device's reach does.
		base := mem.Base
		if !mem.Known && len(ws) > 0 {
			base = ws[0].lo
		}
		out, ok := firstOut(base, math.MaxUint64, ws)
		if !ok || out-base >= maxRAM {
			return Finding{}, false
		}
		f.Severity = Note
		f.above = out
		switch {
		case mem.Known && out == base:
			ev = append(ev, Evidence{Kind: "memory", Text: fmt.Sprintf("RAM at %#x, its size left to the bootloader", mem.Base), Source: mem.Source})
			f.Severity, f.above = Warning, 0
			f.Message = fmt.Sprintf("%s cannot reach the start of RAM at %#x (%s) and has no IOMMU: all its streaming DMA bounces through swiotlb", m.Path, base, reachText)
		case mem.Known:
			ev = append(ev, Evidence{Kind: "memory", Text: fmt.Sprintf("RAM at %#x, its size left to the bootloader", mem.Base), Source: mem.Source})
			f.Message = fmt.Sprintf("%s reaches RAM only below %#x (%s) and has no IOMMU: with more than %s of RAM at %#x, streaming DMA above it bounces through swiotlb", m.Path, out, reachText, size(out-mem.Base), mem.Base)
		default:
			ev = append(ev, Evidence{Kind: "memory", Text: "no memory node: the RAM is left to the bootloader"})
			f.Message = fmt.Sprintf("%s reaches RAM only below %#x (%s) and has no IOMMU: RAM above %#x bounces through swiotlb", m.Path, out, reachText, out)
		}
	}
	ev = append(ev, Evidence{Kind: "dt", Text: "no iommus on " + m.Path, Source: m.Source})
	f.Evidence = ev
	f.Suggest = fmt.Sprintf("give %s an IOMMU (iommus) if the SoC has one in its path; else check whether the device can address more (a wider mask in its driver, or dma-ranges that say what the bus passes), or keep its buffers below %s (a CMA or restricted-dma-pool region)", ref(m), hexOr(ws))
	return f, true
}

// noOwnDMA are drivers, by the file of their driver structure, whose own
// device maps no transfer although their node has a DMA-capable name:
// they move data by PIO or hand it to another device. Each was read in
// Linux 6.12.
var noOwnDMA = map[string]string{
	"drivers/net/ethernet/smsc/smsc911x.c": "no DMA API call: the FIFOs are read and written by the CPU (smsc911x_tx_writefifo(), smsc911x_rx_readfifo())",
	"drivers/net/ethernet/smsc/smc91x.c":   "DMA only through a dmaengine channel on PXA (smc_probe(), under CONFIG_ARCH_PXA); PIO elsewhere",
	"drivers/soc/qcom/ice.c":               "the inline crypto engine programs keys for UFS and SDHCI; it maps no buffer",
	"drivers/usb/musb/sunxi.c":             "sunxi_musb_dma_controller_create() returns NULL: the MUSB runs in PIO mode",
	"drivers/crypto/bcm/cipher.c":          "requests go to the SPU through mailbox channels (mailbox_send_message(), drivers/crypto/bcm/cipher.c); the mailbox device maps them",
	"drivers/usb/renesas_usbhs/common.c":   "without dmas the FIFOs are served by PIO; with dmas, by the usb-dmac channel's device (usbhsf_dma_map())",
	// Reached only from "arm,pl180" (kernel.Lookup's PrimeCell ID): ST's
	// variants with a DMA of their own (mmci_stm32_sdmmc.c) are told
	// apart by arm,primecell-periphid, which the audit does not read.
	"drivers/mmc/host/mmci.c": "ARM's PL180 has no DMA of its own: transfers go through a dmaengine channel, mapped on the channel's device (mmci_dmae_prep_data(), drivers/mmc/host/mmci.c:1059-1060)",
}

// hostChildMask are dual-role USB drivers, by the file of their driver
// structure, whose host role adds an xhci-hcd child that sets the masks
// of this very device: xhci_plat_probe() takes the first ancestor with a
// device-tree node as its sysdev (drivers/usb/host/xhci-plat.c:394-399)
// and sets 64 bits on it (:169), then xhci_gen_setup() keeps 64 when the
// controller's HCCPARAMS1 has AC64, else 32 (drivers/usb/host/xhci.c:
// 5318-5328). The reach then rests on a register the tree does not
// state, so only a node whose dr_mode is "peripheral" keeps the driver's
// own mask (Linux 6.12).
var hostChildMask = map[string]string{
	"drivers/usb/cdns3/cdns3-plat.c": "__cdns_host_init() adds the xhci-hcd child with the cdns3 device as its parent (drivers/usb/cdns3/host.c:77-83); without dr_mode, cdns_core_init_role() (drivers/usb/cdns3/core.c:83) takes the role the controller is strapped to (cdns_drd_init(), drivers/usb/cdns3/drd.c:389)",
}

// streamNames are the generic node names (devicetree specification
// v0.4, 2.2.2) of devices whose drivers map their own transfers with
// their own device (dma_map_single(), dma_map_sg() on the device they
// bind): its DMA reach is what bounces. A dma-controller's buffers are
// mapped by its clients, a gpu's or video-codec's often through a device
// of their DRM or media framework or their own MMU: those are left out.
var streamNames = map[string]bool{
	"crypto": true, "ethernet": true, "mmc": true, "sata": true, "usb": true, "xor": true,
}

// streams reports whether n is a device whose driver maps its own
// transfers: its generic name is in streamNames, or it is one of the
// generic USB and AHCI controllers.
func streams(n *basetree.Node) bool {
	name, _, _ := strings.Cut(n.Name, "@")
	if streamNames[name] {
		return true
	}
	compat, _ := n.Strings("compatible")
	for _, c := range compat {
		switch c {
		case "generic-ahci", "generic-ehci", "generic-ohci", "generic-xhci", "snps,dwc3":
			return true
		}
	}
	return false
}

// hasDevice reports whether a child of n is a device a driver of cat
// binds.
func hasDevice(n *basetree.Node, cat *kernel.Catalog) bool {
	for _, c := range n.Children {
		if compat, _ := c.Strings("compatible"); len(compat) > 0 {
			if d, _ := cat.Lookup(compat); d != nil {
				return true
			}
		}
	}
	return false
}

// rangesText prints dma-ranges triplets.
func rangesText(rs [][3]uint64) string {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "<%#x %#x %#x>", r[0], r[1], r[2])
	}
	return b.String()
}

// regionsText prints memory regions as base+size.
func regionsText(rs [][2]uint64) string {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%#x+%s", r[0], size(r[1]))
	}
	return b.String()
}

// hexOr prints the top of the highest window.
func hexOr(ws []window) string {
	if len(ws) == 0 {
		return "the DMA window"
	}
	return fmt.Sprintf("%#x", ws[len(ws)-1].hi+1)
}

// size prints a byte count in the largest binary unit that divides it.
func size(n uint64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	i := 0
	for n >= 1024 && n%1024 == 0 && i < len(units)-1 {
		n /= 1024
		i++
	}
	if n == 0 && i == 0 {
		return "0"
	}
	return fmt.Sprintf("%d %s", n, units[i])
}
