// Package report draws a board: its bus tree with the coherency fact and
// dma-ranges of each bus, each DMA master's coherency state and DMA reach
// against the top of RAM, the CPU clusters with the DPIO portals, pinned
// IRQs and RPS/XPS steering that land on each CPU, the diagnostics, and
// the description lines behind each output file.
//
// The picture is made as Graphviz DOT (DOT), deterministic text that tests
// compare with golden files; a layout engine turns it into SVG (the
// boardc-layout program, cmd/boardc-layout, a module of its own), and
// HTML wraps the SVG and the tables into one self-contained page. The
// package sees only the IR and the data handed to it in an Input: it
// never loads a description and never writes.
package report

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// Input is what a report is made from: a compiled board, its
// diagnostics, and where each output's lines come from.
type Input struct {
	Board       *ir.Board
	Diagnostics diag.List
	// Outputs are the board's output files with the origin of their
	// lines, as the manifest records them, sorted by path.
	Outputs []Output
	// Source holds the description's files, by their path relative to
	// its CUE module root (as ir.Pos.Src and the manifest name them),
	// split into lines: the page quotes the line of each fact behind an
	// output and of each diagnostic. Nil quotes none.
	Source map[string][]string
}

// quote returns line n (from 1) of file src as the page quotes it, ""
// when the file or the line is not there.
func (in *Input) quote(src string, n int) string {
	lines := in.Source[src]
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[n-1])
}

// Output is one generated file and the origins of its lines.
type Output struct {
	Path  string
	Lines []outputs.Lines
}

// OutputsOf returns the outputs a board's manifest lists, with the
// origins of their lines as it records them, and manifest.json itself,
// whose lines are boilerplate, sorted by path.
func OutputsOf(m *outputs.Manifest) []Output {
	out := make([]Output, 0, len(m.Files)+1)
	for _, f := range m.Files {
		out = append(out, Output{Path: f.Path, Lines: f.Lines})
	}
	out = append(out, Output{Path: outputs.ManifestPath})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// look is how the report draws a master: its name in the legend and its
// colours. A master's coherency is an ir.Coherence, the one vocabulary of
// coherency (how it was decided); the report only maps each to a look.
type look struct{ name, fill, border string }

// legend is every look, in the order the legend lists them: one per
// ir.Coherence (byCoherence), then a disabled master's.
var legend = [...]look{
	{"coherent", "#a1d99b", "#238b45"},
	{"coherent (verified)", "#41ab5d", "#00441b"},
	{"unverified opportunity", "#fdd0a2", "#d94801"},
	{"non-coherent", "#c6dbef", "#2171b5"},
	{"opted out", "#dadaeb", "#54278f"},
	{"bridge (no DMA of its own)", "#f0f0f0", "#737373"},
	{"disabled", "#ffffff", "#969696"},
}

// byCoherence is the entry of legend that draws each ir.Coherence.
var byCoherence = map[ir.Coherence]int{
	ir.Inherited:      0,
	ir.Verified:       1,
	ir.Unverified:     2,
	ir.NonCoherentBus: 3,
	ir.OptedOut:       4,
}

// disabled is the entry of legend that draws a master the board does not
// enable, whatever its coherency.
const disabled = len(legend) - 1

// bridge is the entry of legend that draws a bridge that does no DMA
// itself (NoOwnDMA): it has no mask of its own, and its coherency is its
// endpoints' (pci_dma_configure(), drivers/pci/pci-driver.c), which the
// label of a master described as a bridge says.
const bridge = disabled - 1

// NoOwnDMA reports whether master m is a bridge that does no DMA of its
// own, its endpoints doing theirs with masks their drivers set: a master
// described as a bridge (bridge), or one described before that field
// whose driverSets fact's source says "does no DMA" (as armada37xx's
// pcie0 does, after pci-aardvark.c advk_pcie_probe()). Such a master is
// drawn neither as a coherency opportunity nor as short of RAM.
func NoOwnDMA(m *ir.Master) bool {
	return m.IsBridge() || m.DriverSets != nil && strings.Contains(m.DriverSets.Source, "does no DMA")
}

// entryOf returns the entry of legend that draws m.
func entryOf(m *ir.Master) int {
	if !m.Enabled {
		return disabled
	}
	if NoOwnDMA(m) {
		return bridge
	}
	return byCoherence[m.Coherence()]
}

// Reach is how far a master's DMA reaches, against the top of RAM.
type Reach struct {
	// Limit is one past the highest address the master's DMA reaches
	// (0 for the whole 64-bit space).
	Limit uint64
	// By says what sets the limit: "mask" (the master's streaming DMA
	// width), or the bus whose width or dma-ranges window is narrower.
	By string
	// IOMMU names the IOMMU the master is behind, if any: the DMA API
	// then hands it I/O virtual addresses below its mask wherever the
	// RAM is (drivers/iommu/dma-iommu.c, iommu_dma_alloc_iova()).
	IOMMU string
	// Short is true when RAM reaches above Limit and no IOMMU remaps:
	// buffers above it bounce through swiotlb.
	Short bool
}

// limitOfBits returns one past the highest address n bits express, 0 for
// 64 bits or more.
func limitOfBits(n int) uint64 {
	if n <= 0 || n >= 64 {
		return 0
	}
	return 1 << uint(n)
}

// below reports whether limit a is lower than limit b (0 is no limit).
func below(a, b uint64) bool { return a != 0 && (b == 0 || a < b) }

// ReachOf returns the DMA reach of m on board b: the narrowest of its
// streaming mask, the narrowest address width on its bus path
// (ir.Master.AddressLimit) and the bus_dma_limit the kernel sets from the
// path's dma-ranges (ir.Master.BusDMALimit, which walks them as
// of_dma_get_range(), drivers/of/address.c, does). The limit is taken on
// CPU addresses, as check BC0201 takes it: exact where the windows
// translate without an offset, as every in-tree bus does.
func ReachOf(b *ir.Board, m *ir.Master) Reach {
	r := Reach{Limit: limitOfBits(m.DMABits), By: "mask", IOMMU: m.IOMMU}
	if n, bus := m.AddressLimit(); bus != nil {
		if l := limitOfBits(n); below(l, r.Limit) {
			r.Limit, r.By = l, "bus "+bus.Key+" width"
		}
	}
	// top+1 wraps to 0, no limit, for a window reaching the top of the
	// 64-bit space.
	if top, bus := m.BusDMALimit(); bus != nil && below(top+1, r.Limit) {
		r.Limit, r.By = top+1, "bus "+bus.Key+" dma-ranges"
	}
	if ram := b.RAMTop(); ram != 0 && r.IOMMU == "" {
		r.Short = r.Limit != 0 && (ram == ^uint64(0) || ram > r.Limit)
	}
	return r
}

// ReachText says how far a master that reaches all the described RAM
// reaches: the RAM the description's memory lists, not what a boot
// loader may add.
func ReachText(r Reach) string {
	switch {
	case r.IOMMU != "":
		return "reaches all described RAM through IOMMU " + r.IOMMU
	case r.Limit == 0:
		return "reaches all described RAM (64-bit)"
	}
	return "reaches " + Size(r.Limit) + ": all described RAM"
}

// Size formats a byte count or a limit as the report prints it: a power
// of two as "4 GiB", anything else in hex; 0, a limit of the whole 64-bit
// space, as "16 EiB".
func Size(n uint64) string {
	if n == 0 {
		return "16 EiB"
	}
	if n&(n-1) == 0 {
		units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
		e := bits.TrailingZeros64(n)
		return fmt.Sprintf("%d %s", uint64(1)<<uint(e%10), units[e/10])
	}
	return fmt.Sprintf("%#x", n)
}

// Addr formats an address in hex with '_' every four digits.
func Addr(n uint64) string {
	s := fmt.Sprintf("%x", n)
	out := make([]byte, 0, len(s)+len(s)/4+2)
	out = append(out, "0x"...)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%4 == 0 {
			out = append(out, '_')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// Landing is where one IRQ of a pin lands: its CPU and, when each IRQ
// of the name lands on one CPU, its rank K among the IRQs of the name
// (by ascending IRQ number, ir.SpreadOrder); K is -1 for a mask of CPUs
// that every IRQ of the name shares.
type Landing struct{ CPU, K int }

// IRQLanding returns where the IRQs of pin p land on board b. Where their
// driver places them (p.Placed) or the interrupt controller delivers
// each IRQ to one CPU (ir.SoC.OneTarget), each of the p.Count IRQs lands
// on one CPU, p.SpreadCPU(k), as tune.sh places them and checks the
// hints: one landing per IRQ. Otherwise, and when no master says how
// many IRQs carry the name, the pin's CPUs are one mask: one landing per
// CPU, K -1.
func IRQLanding(b *ir.Board, p *ir.IRQPin) []Landing {
	var out []Landing
	if (p.Placed() || b.SoC.OneTarget()) && p.Count > 0 && len(p.CPUs) > 0 {
		for k := 0; k < p.Count; k++ {
			out = append(out, Landing{CPU: p.SpreadCPU(k), K: k})
		}
		return out
	}
	for _, c := range ir.SortedCPUs(p.CPUs) {
		out = append(out, Landing{CPU: c, K: -1})
	}
	return out
}

// CoherencyText says what a bus's coherency fact covers.
func CoherencyText(bus *ir.Bus) string {
	switch {
	case !bus.Coherency.Coherent:
		return "non-coherent"
	case bus.Coherency.Masters == ir.ScopeAll:
		return "coherent for all masters"
	}
	return "coherent for verified masters only"
}
