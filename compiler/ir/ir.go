// Package ir is the intermediate representation of a board: plain Go values
// lowered from a checked CUE description. Every fact carries the position of
// the CUE that stated it, so diagnostics and generated lines can point back
// to their source.
//
// Emitters and checks see only this package; they never see a cue.Value.
// Collections are slices sorted by key, so ranging over them is deterministic.
package ir

import (
	"fmt"
	"slices"
	"strings"
)

// Pos is a position in a CUE source file. The zero Pos is unknown.
type Pos struct {
	// File is the file as diagnostics print it: relative to the working
	// directory where it can be.
	File string
	// Src is the file relative to the description's CUE module root, as
	// provenance comments in generated files print it, so that they do not
	// depend on where the description was checked out.
	Src       string
	Line, Col int
}

// IsValid reports whether p names a file.
func (p Pos) IsValid() bool { return p.File != "" }

// Or returns p, or fallback when p names no file.
func (p Pos) Or(fallback Pos) Pos {
	if p.IsValid() {
		return p
	}
	return fallback
}

// String formats p as file:line:col.
func (p Pos) String() string {
	switch {
	case !p.IsValid():
		return "-"
	case p.Line == 0:
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Short formats p as src:line, the form provenance comments in generated
// files use.
func (p Pos) Short() string {
	if !p.IsValid() {
		return "-"
	}
	f := p.Src
	if f == "" {
		f = p.File
	}
	return fmt.Sprintf("%s:%d", f, p.Line)
}

// Board is a complete, lowered board description.
type Board struct {
	Name       string
	Pos        Pos // position of the board's name
	Model      string
	Compatible []string
	// CompatiblePos is the position of the board's compatible list.
	CompatiblePos Pos
	// DTS is the upstream .dts the fragment is included from, if declared.
	DTS string
	// DTSPos is the position of dts.
	DTSPos Pos
	// Kernel is the Linux series the board runs ("6.12"), "" when the
	// description does not say; KernelPos is where it says it.
	Kernel    string
	KernelPos Pos
	SoC       SoC
	Memory    []MemRegion
	Policy    Policy
	Waivers   []Waiver
	// SerDes are the board's SerDes protocols, SerDes 1 first (dpaa2:
	// serdes), HasSerDes when it states them, at SerDesPos; SerDesPositions
	// are those of each protocol.
	SerDes          []int
	HasSerDes       bool
	SerDesPos       Pos
	SerDesPositions []Pos
	// Sources lists the CUE files the description was loaded from,
	// sorted by Path.
	Sources []Source
}

// Source is one CUE file a description was loaded from.
type Source struct {
	// Path is the file as it was loaded, as Pos.File names it.
	Path string
	// Rel is the file as Pos.Src names it: relative to the description's
	// CUE module root, with forward slashes.
	Rel string
}

// CIdent returns the board's name as a C identifier fragment.
func (b *Board) CIdent() string { return CIdent(b.Name) }

// RAMTop returns one past the highest RAM address of the board, or 0 when no
// memory is declared.
func (b *Board) RAMTop() uint64 {
	top, _ := b.HighestRAM()
	return top
}

// HighestRAM returns one past the highest RAM address of the board (2^64-1
// for a region that reaches the end of the address space) and the region
// that holds it, or 0 and nil when no memory is declared.
func (b *Board) HighestRAM() (uint64, *MemRegion) {
	var top uint64
	var at *MemRegion
	for i := range b.Memory {
		m := &b.Memory[i]
		end := m.Base + m.Size
		if end < m.Base { // wrapped past 2^64
			return ^uint64(0), m
		}
		if end > top {
			top, at = end, m
		}
	}
	return top, at
}

// SoC is an SoC description.
type SoC struct {
	Name       string
	Pos        Pos
	Compatible []string
	// RootAddressCells and RootSizeCells are the root node's cell counts.
	RootAddressCells int
	RootSizeCells    int
	// RootPos is the position of the root's cell counts.
	RootPos  Pos
	Clusters []Cluster
	Buses    []*Bus    // sorted by Key
	Masters  []*Master // sorted by Key
	DPAA2    *DPAA2    // nil when the SoC has no DPAA2
	// IRQDelivery is nil when the description states nothing about the
	// interrupt controller.
	IRQDelivery *IRQDelivery
}

// OneTarget reports whether the SoC's interrupt controller is known to
// deliver each IRQ to a single CPU of its mask.
func (s *SoC) OneTarget() bool { return s.IRQDelivery != nil && s.IRQDelivery.One }

// NumCPUs returns the number of CPUs over all clusters.
func (s *SoC) NumCPUs() int {
	n := 0
	for _, c := range s.Clusters {
		n += len(c.CPUs)
	}
	return n
}

// Bus returns the bus with the given key, or nil.
func (s *SoC) Bus(key string) *Bus {
	for _, b := range s.Buses {
		if b.Key == key {
			return b
		}
	}
	return nil
}

// Master returns the master with the given key, or nil.
func (s *SoC) Master(key string) *Master {
	for _, m := range s.Masters {
		if m.Key == key {
			return m
		}
	}
	return nil
}

// Cluster is a group of CPUs sharing a cache.
type Cluster struct {
	// Core is the core of every CPU that Cores does not name.
	Core string
	CPUs []int
	// Cores names the CPUs whose core is not Core (a DynamIQ cluster of
	// several core types), sorted by core.
	Cores []CoreCPUs
	Pos   Pos
}

// CoreCPUs is one core type of a cluster and the CPUs that have it.
type CoreCPUs struct {
	Core string
	CPUs []int
	Pos  Pos
}

// CoreOf returns the core of CPU cpu of the cluster: the entry of Cores
// naming it, else Core.
func (c *Cluster) CoreOf(cpu int) string {
	for _, cc := range c.Cores {
		if slices.Contains(cc.CPUs, cpu) {
			return cc.Core
		}
	}
	return c.Core
}

// CoreNames returns the cluster's core types, Core first, then those of
// Cores that no other entry repeats, in order.
func (c *Cluster) CoreNames() []string {
	out := []string{c.Core}
	for _, cc := range c.Cores {
		if !slices.Contains(out, cc.Core) {
			out = append(out, cc.Core)
		}
	}
	return out
}

// Node names a device-tree node.
type Node struct {
	Label string // may be empty
	Path  string
	Pos   Pos
	// LabelPos and PathPos are the positions of the label and the path.
	LabelPos, PathPos Pos
}

// DTRef returns the DT reference to the node: &label, or &{/path} when it has
// no label.
func (n Node) DTRef() string {
	if n.Label != "" {
		return "&" + n.Label
	}
	return "&{" + n.Path + "}"
}

// CIdent maps a name to a C identifier fragment: lower case, with every
// character outside [a-z0-9_] replaced by '_'.
func CIdent(s string) string {
	b := []byte(strings.ToLower(s))
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			b[i] = '_'
		}
	}
	return string(b)
}
