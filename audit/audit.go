// Package audit looks for DMA performance and correctness bugs in
// upstream device trees, on every board at once: masters left
// non-coherent on an interconnect the SoC facts say snoops the CPU caches
// (Coherency), the same IP block coherent on a sibling SoC of the family
// but not here (Sibling), dma-coherent under a bus that does not snoop
// (NonCoherentBus), masters whose DMA reach, the driver's mask narrowed
// by dma-ranges, is below the top of RAM with no IOMMU (Bounce), and
// dma-ranges that cannot be read (Ranges).
//
// A Finding is data: its class, severity, board, node, the upstream
// source position, the evidence (device-tree lines, the driver fact with
// its file:line, the SoC fact with its source) and the change to make,
// so that text, JSON, SARIF and HTML are written from the same list.
// Board audits one compiled tree; Finish adds the findings that need
// every board (Sibling) and ranks the list.
package audit

import (
	"cmp"
	"slices"
)

// Class is a kind of finding.
type Class string

// The classes, in the order of their priority.
const (
	// Coherency: a master that is not dma-coherent on an interconnect
	// the SoC facts say is I/O-coherent for it: the kernel does cache
	// maintenance on every DMA the hardware would keep coherent itself.
	Coherency Class = "coherency"
	// NonCoherentBus: a node dma-coherent on an interconnect the SoC
	// facts say does not snoop: silent data corruption.
	NonCoherentBus Class = "coherency-noncoherent-bus"
	// Sibling: the same driver's device is dma-coherent on a sibling SoC
	// of the family, not here, on a SoC whose interconnect the facts
	// state I/O-coherent: an opportunity, lower in rank.
	Sibling Class = "coherency-sibling"
	// Bounce: the master's DMA reach is below RAM it can be given and it
	// has no IOMMU: streaming DMA above the reach bounces through swiotlb.
	Bounce Class = "bounce"
	// BounceDefault: Bounce for a master whose driver sets no mask, so
	// that the 32-bit default of an OF platform device is its reach:
	// the driver may map through another device, a lower confidence.
	BounceDefault Class = "bounce-default"
	// Ranges: a dma-ranges the kernel cannot decode, or whose windows
	// overlap.
	Ranges Class = "dma-ranges"
)

// priority orders the classes.
var priority = map[Class]int{Coherency: 0, NonCoherentBus: 1, Bounce: 2, BounceDefault: 3, Ranges: 4, Sibling: 5}

// Classes lists the classes in priority order.
func Classes() []Class {
	return []Class{Coherency, NonCoherentBus, Bounce, BounceDefault, Ranges, Sibling}
}

// docs says what each class finds and why it matters, for the rules of a
// SARIF log and the legend of a page.
var docs = map[Class]string{
	Coherency:      "A DMA master without dma-coherent on an interconnect the SoC facts say is I/O-coherent for it: the kernel cleans and invalidates the CPU caches around every DMA the hardware would keep coherent itself (of_dma_is_coherent(), drivers/of/address.c; arch_setup_dma_ops()).",
	NonCoherentBus: "dma-coherent on a master of an interconnect the SoC facts say does not snoop the CPU caches: the kernel skips cache maintenance the hardware needs, and DMA data is corrupted silently.",
	Bounce:         "A master whose DMA reach, the mask its driver sets narrowed by dma-ranges (of_dma_configure_id(), drivers/of/device.c), leaves RAM out, with no IOMMU: streaming DMA to RAM beyond it is copied through swiotlb bounce buffers (dma_direct_map_page(), kernel/dma/direct.h).",
	BounceDefault:  "Bounce for a master whose driver sets no DMA mask: the 32-bit default of an OF platform device (of_platform_device_create_pdata(), drivers/of/platform.c) is its reach.",
	Ranges:         "A dma-ranges the kernel cannot decode with the cell counts in force (of_dma_get_range(), drivers/of/address.c), or whose windows overlap in the bus's address space.",
	Sibling:        "A master not dma-coherent, on a SoC whose interconnect the SoC facts state I/O-coherent, whose driver binds a master that carries dma-coherent itself on another SoC of the same family: the kernel does cache maintenance the interconnect could spare; whether this master's port reaches the snooping interface is the SoC reference manual's to confirm.",
}

// Doc returns one paragraph on what class c finds.
func Doc(c Class) string { return docs[c] }

// Level returns the severity class c's findings have at most.
func Level(c Class) Severity {
	switch c {
	case Coherency, NonCoherentBus:
		return Error
	case Sibling:
		return Note
	}
	return Warning
}

// Severity is how sure and how costly a finding is, named as SARIF
// names its levels.
type Severity string

// The severities, highest first.
const (
	// Error: a sourced fact says the tree is wrong.
	Error Severity = "error"
	// Warning: the tree and the driver facts show the cost on this
	// board as described.
	Warning Severity = "warning"
	// Note: a heuristic, or a cost that depends on what the tree leaves
	// open (the RAM size the bootloader fills in).
	Note Severity = "note"
)

var rank = map[Severity]int{Error: 0, Warning: 1, Note: 2}

// Finding is one problem on one node of one board.
type Finding struct {
	Class    Class    `json:"class"`
	Severity Severity `json:"severity"`
	// Board is the .dts, relative to arch/arm64/boot/dts for a kernel
	// tree, or the file name of a .dtb.
	Board string `json:"board"`
	// Path is the node's full path, Label its first label ("" for none),
	// Compatible its compatibles.
	Path       string   `json:"path"`
	Label      string   `json:"label,omitempty"`
	Compatible []string `json:"compatible,omitempty"`
	// Source is where the node is written upstream, file:line of its
	// compatible property, relative to the kernel tree; "" when the tree
	// was read from a .dtb.
	Source string `json:"source,omitempty"`
	// Message says what is wrong in one sentence.
	Message string `json:"message"`
	// Evidence are the facts behind the finding.
	Evidence []Evidence `json:"evidence"`
	// Suggest is the change to make.
	Suggest string `json:"suggest"`

	// above is, for a Bounce finding on a board whose tree leaves the
	// RAM size open, the lowest address that bounces: Finish keeps the
	// finding only where a board of the same SoC states RAM above it.
	above uint64
}

// Evidence is one fact behind a finding.
type Evidence struct {
	// Kind is "dt" (a device-tree line), "driver" (a driver fact from
	// the catalogue), "soc" (an SoC interconnect fact), "memory" or
	// "sibling" (the same driver's node on another board).
	Kind string `json:"kind"`
	// Text states the fact.
	Text string `json:"text"`
	// Source is where it comes from: file:line in the kernel tree or the
	// kernel sources, a commit, a document.
	Source string `json:"source,omitempty"`
}

// Key identifies a finding across runs: class, board and node path.
func (f Finding) Key() string {
	return string(f.Class) + " " + f.Board + " " + f.Path
}

// Sort ranks findings: severity first, then class priority, board and
// node path.
func Sort(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(rank[a.Severity], rank[b.Severity]),
			cmp.Compare(priority[a.Class], priority[b.Class]),
			cmp.Compare(a.Board, b.Board),
			cmp.Compare(a.Path, b.Path),
		)
	})
}
