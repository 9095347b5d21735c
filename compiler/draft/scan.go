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
	"regexp"
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

// isCandidate reports whether n is a DMA master by the rules above.
func isCandidate(n *basetree.Node) bool {
	if n.Has("dma-coherent") || n.Has("iommus") {
		return true
	}
	if n.Path == "/" || strings.HasPrefix(n.Path, "/cpus") || strings.HasPrefix(n.Path, "/__") {
		return false
	}
	compat, _ := n.Strings("compatible")
	if len(compat) == 0 {
		return false // not a device: a pinctrl group named "usb", say
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

// masters returns the DMA masters of t, by path. A node with dma-coherent
// is always one (upstream's coherency becomes a master-level fact). A
// candidate with a dma-coherent node below it is not: it is described as
// the bus of that node instead (a node is a bus or a master, BC0501). A
// candidate below another master is not either: of_dma_is_coherent()
// covers it through its parent, and its DMA is its parent's driver's.
func masters(t *basetree.Tree) []*basetree.Node {
	cand := map[*basetree.Node]bool{}
	for _, p := range t.Paths() {
		if n := t.Node(p); isCandidate(n) {
			cand[n] = true
		}
	}
	for n := range cand {
		if n.Has("dma-coherent") {
			for a := n.Parent; a != nil; a = a.Parent {
				if cand[a] && !a.Has("dma-coherent") {
					delete(cand, a)
				}
			}
		}
	}
	var out []*basetree.Node
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
	return out
}

// keyRE is the schema's #Key.
var keyRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,62}$`)

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
// with _2, _3... on a clash, in path order.
type keys struct {
	used map[string]bool
	of   map[*basetree.Node]string
}

func newKeys() *keys { return &keys{used: map[string]bool{}, of: map[*basetree.Node]string{}} }

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
	s := keyOf(base)
	for i := 2; k.used[s] || !keyRE.MatchString(s); i++ {
		s = keyOf(base) + "_" + strconv.Itoa(i)
	}
	k.used[s] = true
	k.of[n] = s
	return s
}
