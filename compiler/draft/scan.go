// Package draft writes a first description of an SoC and a board from a
// device tree (boardc import): the buses, DMA masters, CPUs, memory,
// compatibles, model, labels and paths the tree states, as CUE text in the
// project's layout. What a tree cannot say (DMA widths, IRQ action names,
// queues, runtime policy) is left for the vendor with a comment saying
// what to fill in and where such a fact is found; boardc vet on the draft
// then lists what is missing.
//
// The package writes text and imports no CUE; compiler/load.Format gives
// it cue fmt's layout.
package draft

import (
	"sort"
	"strconv"
	"strings"

	"boardc.dev/boardc/compiler/basetree"
)

// dmaNames are the generic node names (devicetree specification v0.4,
// section 2.2.2, "Generic Names Recommendation") of devices that master
// DMA. A node is a DMA master in the draft when it has a compatible (it is
// a device) and its name is one of these,
// when it carries dma-coherent, or when it has iommus (it translates DMA
// through an IOMMU, so it issues DMA).
var dmaNames = map[string]bool{
	"crypto":         true,
	"dma-controller": true,
	"ethernet":       true,
	"gpu":            true,
	"mmc":            true,
	"pcie":           true,
	"sata":           true,
	"usb":            true,
	"video-codec":    true,
	"xor":            true,
}

// dmaCompatibles are compatibles of DMA masters whose nodes do not carry
// a generic name upstream (older trees name them after the chip): the
// generic controllers of drivers/usb/host/xhci-plat.c ("generic-xhci"),
// ehci-platform.c, ohci-platform.c, drivers/ata/ahci_platform.c
// ("generic-ahci") and the DesignWare USB3 core (drivers/usb/dwc3/core.c,
// "snps,dwc3").
var dmaCompatibles = map[string]bool{
	"generic-ahci": true,
	"generic-ehci": true,
	"generic-ohci": true,
	"generic-xhci": true,
	"snps,dwc3":    true,
}

// busCompatibles are the compatibles of nodes that are interconnects
// and not devices: of_default_bus_match_table in drivers/of/platform.c
// ("simple-bus", "simple-mfd", "isa", "arm,amba-bus") and
// "simple-pm-bus" (drivers/bus/simple-pm-bus.c). A dma-coherent on such a
// node, or on the root, is a fact of the bus: of_dma_is_coherent()
// (drivers/of/address.c) walks up from each device, so it covers every
// device below.
var busCompatibles = map[string]bool{
	"arm,amba-bus":  true,
	"isa":           true,
	"simple-bus":    true,
	"simple-mfd":    true,
	"simple-pm-bus": true,
}

// isBusNode reports whether n is the root or an interconnect node.
func isBusNode(n *basetree.Node) bool {
	if n.Path == "/" {
		return true
	}
	compat, _ := n.Strings("compatible")
	for _, c := range compat {
		if busCompatibles[c] {
			return true
		}
	}
	return false
}

// onI2CorSPI reports whether n sits below a node named as an I2C or SPI
// controller (devicetree specification v0.4, 2.2.2: "i2c", "spi"):
// crypto@60 on an I2C bus (an ATECC508A) or mmc@0 on SPI (mmc-spi-slot)
// is addressed by its controller, which does any DMA.
func onI2CorSPI(n *basetree.Node) bool {
	for a := n.Parent; a != nil; a = a.Parent {
		name, _, _ := strings.Cut(a.Name, "@")
		if name == "i2c" || name == "spi" || strings.HasPrefix(name, "i2c-") {
			return true
		}
	}
	return false
}

// onMMIO reports whether n sits on a memory-mapped bus: not on a bus
// whose addresses have no size (#size-cells = <0>: I2C, SPI, MDIO, a USB
// hub's ports), nor below an I2C or SPI controller.
func onMMIO(n *basetree.Node) bool {
	p := n.Parent
	if p == nil || onI2CorSPI(n) {
		return false
	}
	return !p.Has("#size-cells") || p.SizeCells() != 0
}

// isPCIeHost reports whether n is a PCI(e) host bridge: device_type
// "pci" (the PCI bus binding, IEEE 1275 PCI bus binding 2.1 as the
// devicetree specification cites it) or a "pcie"/"pci" generic name.
func isPCIeHost(n *basetree.Node) bool {
	if dt, _ := n.String("device_type"); dt == "pci" {
		return true
	}
	name, _, _ := strings.Cut(n.Name, "@")
	return name == "pcie" || name == "pci"
}

// isCandidate reports whether n is a DMA master by the rules above: a
// device (not an interconnect, not below an I2C or SPI controller) that
// carries dma-coherent or iommus, or one on a memory-mapped bus with a
// DMA-capable generic name or compatible. A PCIe host bridge on a
// memory-mapped bus is one, coherent or not, drafted as a bridge (bridge
// in the schema): its endpoints do the DMA, with masks their own drivers
// set, and pci_dma_configure() (drivers/pci/pci-driver.c) configures them
// from the bridge's node, so its coherency is theirs and a fact stated on
// it reaches them. Nothing below a bridge is a master: root ports,
// endpoints and what an endpoint holds (the RP1 of the Raspberry Pi 5)
// are on PCI, not on a memory-mapped bus, and take their DMA
// configuration through the bridge.
func isCandidate(n *basetree.Node) bool {
	if n.Path == "/" || strings.HasPrefix(n.Path, "/cpus") || strings.HasPrefix(n.Path, "/__") || isBusNode(n) || onI2CorSPI(n) {
		return false
	}
	for a := n.Parent; a != nil; a = a.Parent {
		if isPCIeHost(a) {
			return false // on PCI: a root port, an endpoint, what it holds
		}
	}
	compat, _ := n.Strings("compatible")
	if isPCIeHost(n) {
		// A bridge needs a compatible to be a device, as any master
		// (of_platform_bus_create(), below), and a coherent one is
		// kept without, as it always was.
		coherent, _ := n.Coherent()
		return onMMIO(n) && (coherent || len(compat) > 0)
	}
	if len(compat) == 0 {
		// Not a device of_platform_populate() creates (it skips a
		// node without compatible: of_platform_bus_create(),
		// drivers/of/platform.c): a pinctrl group named "usb", or a
		// node its parent's driver makes a device of, as sc7280's
		// wifi-firmware with its own iommus, which a master's
		// description cannot name.
		return false
	}
	if n.Has("dma-coherent") || n.Has("iommus") {
		// Its own DMA identity, wherever it sits: the fastrpc
		// compute-cb@N session nodes of Qualcomm's remoteprocs have
		// reg = <N> on a sizeless bus, and each their own iommus.
		return true
	}
	if !onMMIO(n) {
		return false
	}
	name, _, _ := strings.Cut(n.Name, "@")
	if dmaNames[name] {
		return true
	}
	for _, c := range compat {
		if dmaCompatibles[c] {
			return true
		}
	}
	return false
}

// independent reports whether a candidate masters DMA under its own
// identity: its own dma-coherent or its own IOMMU stream (iommus), as the
// clients of NVIDIA's host1x (nvdec, nvenc, vic: tegra234.dtsi) do.
func independent(n *basetree.Node) bool {
	return n.Has("dma-coherent") || n.Has("iommus")
}

// masters returns the DMA masters of t, by path. A candidate with an
// independent candidate below it is not one: it is described as the bus
// of that node instead (a node is a bus or a master, BC0501), so that
// host1x's clients stay masters. A candidate below another master is not
// either: of_dma_is_coherent() covers it through its parent, and its DMA
// is its parent's driver's (a controller's rings, a hub's ports).
// bridges are the masters that are PCIe host bridges.
func masters(t *basetree.Tree) (out, bridges []*basetree.Node) {
	cand := map[*basetree.Node]bool{}
	for _, p := range t.Paths() {
		if n := t.Node(p); isCandidate(n) {
			cand[n] = true
		}
	}
	for n := range cand {
		if independent(n) {
			for a := n.Parent; a != nil; a = a.Parent {
				delete(cand, a)
			}
		}
	}
	for n := range cand {
		nested := false
		for a := n.Parent; a != nil; a = a.Parent {
			if cand[a] {
				nested = true
			}
		}
		if !nested {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	for _, n := range out {
		if isPCIeHost(n) {
			bridges = append(bridges, n)
		}
	}
	return out, bridges
}

// keyOf turns a label or node name into a #Key: lower case, every other
// character '_', a leading digit or underscore prefixed with "n".
func keyOf(s string) string {
	b := []byte(strings.ToLower(s))
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	k := strings.Trim(string(b), "_")
	for strings.Contains(k, "__") {
		k = strings.ReplaceAll(k, "__", "_")
	}
	if k == "" || !(k[0] >= 'a' && k[0] <= 'z') {
		k = "n" + k
	}
	if len(k) > 63 {
		k = k[:63]
	}
	return k
}

// keys gives each node a unique #Key: its first label, else its name,
// with _2, _3... on a clash, in path order. A key of the schema's longest
// is cut to leave room for its suffix, and each base resumes its count
// where the last clash left it, so that n nodes of one name take linear
// time.
type keys struct {
	used map[string]bool
	of   map[*basetree.Node]string
	next map[string]int // the next suffix to try, by base key
}

func newKeys() *keys {
	return &keys{used: map[string]bool{}, of: map[*basetree.Node]string{}, next: map[string]int{}}
}

func (k *keys) key(t *basetree.Tree, n *basetree.Node) string {
	if s, ok := k.of[n]; ok {
		return s
	}
	base := n.Name
	if n.Path == "/" {
		base = "root"
	}
	if ls := t.LabelsOf(n.Path); len(ls) > 0 {
		base = ls[0]
	}
	b := keyOf(base)
	s := b
	for i := max(k.next[b], 2); k.used[s]; i++ {
		suffix := "_" + strconv.Itoa(i)
		s = b[:min(len(b), 63-len(suffix))] + suffix
		k.next[b] = i + 1
	}
	k.used[s] = true
	k.of[n] = s
	return s
}
