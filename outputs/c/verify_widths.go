package c

import (
	"fmt"
	"strconv"
	"strings"

	"boardc.dev/boardc/compiler/ir"
)

// widthSet is the set of DMA mask widths the verifier accepts for one mask
// of one device, sorted; nil accepts any width: the mask is printed as
// information, not checked.
type widthSet []int

// bits returns the set as the verifier's table holds it: bit n - 1 set
// for an n-bit mask, 0 for any width.
func (s widthSet) bits() uint64 {
	var v uint64
	for _, n := range s {
		v |= 1 << (n - 1)
	}
	return v
}

// text returns the set as the verifier prints it after the mask it
// found: "48", "32,64", or "any".
func (s widthSet) text() string {
	if len(s) == 0 {
		return "any"
	}
	t := make([]string, len(s))
	for i, n := range s {
		t[i] = strconv.Itoa(n)
	}
	return strings.Join(t, ",")
}

// prose returns the set as a comment says it: "48", "32, 40 or 49".
func (s widthSet) prose() string {
	t := make([]string, len(s))
	for i, n := range s {
		t[i] = strconv.Itoa(n)
	}
	if len(t) < 2 {
		return strings.Join(t, "")
	}
	return strings.Join(t[:len(t)-1], ", ") + " or " + t[len(t)-1]
}

// cWidths returns the C initializer of a struct boardc_verify_widths
// holding dma and coherent. The texts are the emitter's own (digits,
// commas, "any"), written as C strings.
func cWidths(dma, coherent widthSet) string {
	return fmt.Sprintf("{ %#xULL, %#xULL, %s, %s }", dma.bits(), coherent.bits(),
		strconv.Quote(dma.text()), strconv.Quote(coherent.text()))
}

// ownWidths returns the widths the verifier accepts for the masks of the
// master's own device (the device bound to its node):
//
//   - masks nobody but boardc's C sets (no driverSets): the described
//     streaming and coherent widths;
//   - masks a driver sets, with driverSets.widths: any of the widths, for
//     the streaming mask and for the coherent one (every driver that states
//     widths in the in-tree descriptions sets both masks together:
//     dma_set_mask_and_coherent() or dma_coerce_mask_and_coherent()),
//     unless the description splits the coherent width from the streaming
//     one, which the coherent mask must then have;
//   - masks a driver sets, without widths: any width, printed as
//     information;
//   - masks set on the devices below (driverSets children): none checked
//     on the node's device, whose masks are the OF default nobody uses;
//   - a bridge (bridge): none checked either, its device does no DMA;
//   - a master configured from another master's node (dmaDevice): none
//     checked, the description states no width.
func ownWidths(m *ir.Master) (dma, coherent widthSet) {
	d := m.DriverSets
	switch {
	case !m.HasOwnWidth():
		return nil, nil
	case d == nil:
		return widthSet{m.DMABits}, widthSet{m.CoherentWidth()}
	case d.Children:
		return nil, nil
	case len(d.Widths) > 0:
		dma = widthSet(d.Widths)
		if m.CoherentBits != 0 && m.CoherentBits != m.DMABits {
			return dma, widthSet{m.CoherentBits}
		}
		return dma, dma
	}
	return nil, nil
}

// belowWidths returns the widths the verifier accepts for the devices
// below the master's own that do its DMA: for a master whose masks are
// set on the devices below it (driverSets children), the widths those
// masks are narrowed to when a driver binds them (ir.Master.ChildWidths),
// which a table of object types may override (verify_children.go); for
// any other master, the PCI devices behind a host bridge, whose masks
// each endpoint's own driver sets in its probe, which the OF node of the
// bridge cannot describe: pci_setup_device() and pci_device_add()
// (drivers/pci/probe.c, Linux 6.12:1964 and 2625-2627; 6.1: 1877 and
// 2600) give a new device 32-bit masks, pci_dma_configure()
// (drivers/pci/pci-driver.c:1667; 6.1: 1678) only narrows them to the
// bridge's dma-ranges before the driver's probe, which then sets its own (NVMe:
// 64 bits, or 48 with a quirk, nvme_pci_alloc_dev(),
// drivers/nvme/host/pci.c:3220-3223; 6.1: nvme_pci_enable()): any width,
// printed as information, unless the master is described as a bridge
// whose endpoints' widths the description states (bridge.endpoints): any
// of them, for both masks, as for driverSets.widths (virtio-pci and NVMe
// set both with dma_set_mask_and_coherent()). Their coherency and bus DMA
// limit come from the bridge's node and are checked.
func belowWidths(m *ir.Master) (dma, coherent widthSet) {
	if b := m.Bridge; b != nil && len(b.Endpoints) > 0 {
		return widthSet(b.Endpoints), widthSet(b.Endpoints)
	}
	if m.DriverSets != nil && m.DriverSets.Children {
		s, c := m.ChildWidths()
		return widthSet{s}, widthSet{c}
	}
	return nil, nil
}
