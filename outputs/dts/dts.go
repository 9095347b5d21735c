// Package dts emits the device-tree fragment of a board: a .dtsi meant to be
// included at the end of the board's upstream .dts, which marks DMA
// coherency on masters and sets dma-ranges on buses, and the same changes
// as an overlay (.dtso) to apply over the board's dtb.
//
// Semantics follow Linux drivers/of/address.c: of_dma_is_coherent() walks up
// the DMA parents, and of_dma_get_range() walks up from a device's parent
// bus, where an empty dma-ranges means "identity, keep walking" and, once
// the walk has passed one node, a missing dma-ranges ends it with no
// translation at all.
package dts

import (
	"fmt"
	"sort"
	"strings"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// Emitter is the device-tree fragment emitter.
var Emitter = outputs.Emitter{Name: "dts", Emit: Emit}

// Emit returns the board's fragment, <board>.dtsi, and the same changes as
// an overlay, <board>.dtso.
func Emit(b *ir.Board) []outputs.File {
	var w writer
	w.header(b, "Include at the end of "+dtsName(b)+".")
	nodes := plan(b)
	for _, n := range nodes {
		w.node(n)
	}
	return []outputs.File{
		{Path: b.Name + ".dtsi", Data: []byte(w.String())},
		Overlay(b),
	}
}

// prop is one property line with the CUE position that caused it.
type prop struct {
	text string // "dma-coherent;"
	why  string // provenance comment text
}

// dtNode is one &ref { ... }; block.
type dtNode struct {
	ref   string
	path  string
	title string
	props []prop
	// bus is set when the node carries a dma-ranges: the overlay restates
	// its cell counts.
	bus *ir.Bus
}

// plan decides every node and property of the fragment, sorted by node
// path so the output does not depend on declaration order.
func plan(b *ir.Board) []*dtNode {
	byPath := map[string]*dtNode{}
	get := func(n ir.Node, title string) *dtNode {
		if d, ok := byPath[n.Path]; ok {
			return d
		}
		d := &dtNode{ref: n.Ref(), path: n.Path, title: title}
		byPath[n.Path] = d
		return d
	}
	for _, bus := range b.SoC.Buses {
		if !bus.HasDMARanges {
			continue
		}
		n := get(bus.Node, "bus "+bus.Key)
		n.bus = bus
		n.props = append(n.props, prop{
			text: rangesProp(bus, &b.SoC, bus.DMARanges),
			why:  bus.DMARangesPos.Short(),
		})
	}
	for _, bus := range ancestorsNeedingRanges(b) {
		n := get(bus.Node, "bus "+bus.Key)
		n.bus = bus
		n.props = append(n.props, prop{
			text: rangesProp(bus, &b.SoC, nil),
			why:  "identity, so that of_dma_get_range() reaches the translation above; " + bus.Pos.Short(),
		})
	}
	for _, m := range b.SoC.Masters {
		var p prop
		switch m.Coherence() {
		case ir.Inherited:
			p = prop{"dma-coherent;", "bus " + m.Bus.Key + " is coherent for all masters, " + m.Bus.Coherency.Pos.Short()}
		case ir.Verified:
			p = prop{"dma-coherent;", "verified, " + m.Coherency.Pos.Short()}
		case ir.OptedOut:
			p = prop{"dma-noncoherent;", "opts out of coherent bus " + m.Bus.Key + ", " + m.Coherency.Pos.Short()}
		default:
			continue
		}
		n := get(m.Node, "master "+m.Key)
		n.props = append(n.props, p)
	}
	out := make([]*dtNode, 0, len(byPath))
	for _, n := range byPath {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// ancestorsNeedingRanges returns the buses that must carry a dma-ranges so
// that a master below them reaches a translating bus further up. The walk
// of of_dma_get_range() starts at the master's own bus, which may lack the
// property; every bus after it, up to the translating one, must have one.
func ancestorsNeedingRanges(b *ir.Board) []*ir.Bus {
	need := map[*ir.Bus]bool{}
	for _, m := range b.SoC.Masters {
		chain := append([]*ir.Bus{m.Bus}, m.Bus.Ancestors()...)
		top := -1
		for i, bus := range chain {
			if len(bus.DMARanges) > 0 {
				top = i
				break
			}
		}
		for i := 1; i < top; i++ {
			if !chain[i].HasDMARanges {
				need[chain[i]] = true
			}
		}
	}
	out := make([]*ir.Bus, 0, len(need))
	for bus := range need {
		out = append(out, bus)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Node.Path < out[j].Node.Path })
	return out
}

// rangesProp renders dma-ranges for bus. No ranges means identity: an
// empty property where the bus and its parent agree on cell counts, and an
// explicit 1:1 window otherwise (dtc warns on an empty dma-ranges whose
// cell counts differ from the parent's).
func rangesProp(bus *ir.Bus, soc *ir.SoC, ranges []ir.DMARange) string {
	pa, ps := soc.ParentCells(bus)
	if len(ranges) == 0 {
		if pa == bus.AddressCells && ps == bus.SizeCells {
			return "dma-ranges;"
		}
		ranges = []ir.DMARange{{Child: 0, Parent: 0, Size: IdentitySize(bus)}}
	}
	var cells []string
	for _, r := range ranges {
		cells = append(cells, Cells(r.Child, bus.AddressCells)...)
		cells = append(cells, Cells(r.Parent, pa)...)
		cells = append(cells, Cells(r.Size, bus.SizeCells)...)
	}
	return "dma-ranges = <" + strings.Join(cells, " ") + ">;"
}

// IdentitySize is the size of a 1:1 window covering the bus's DMA address
// space: 2^addressBits where the bus declares its width, else the largest
// size its #size-cells can hold.
func IdentitySize(bus *ir.Bus) uint64 {
	bits := bus.AddressBits
	if max := 32 * bus.SizeCells; bits == 0 || bits > max {
		bits = max
	}
	if bits >= 64 {
		return ^uint64(0)
	}
	if bits == 32*bus.SizeCells {
		return 1<<uint(bits) - 1
	}
	return 1 << uint(bits)
}

// Cells splits v into n 32-bit cells, most significant first. Values that
// do not fit are reported by the checks before any emitter runs.
func Cells(v uint64, n int) []string {
	out := make([]string, n)
	for i := n - 1; i >= 0; i-- {
		out[i] = fmt.Sprintf("0x%x", uint32(v))
		v >>= 32
	}
	return out
}

type writer struct{ strings.Builder }

// dtsName names the board's upstream .dts in headers.
func dtsName(b *ir.Board) string {
	if b.DTS != "" {
		return b.DTS
	}
	return "the board's .dts"
}

// header writes the SPDX line and the comment every device-tree output
// opens with; use says how the file is consumed.
func (w *writer) header(b *ir.Board, use string) {
	w.WriteString("// SPDX-License-Identifier: (GPL-2.0-or-later OR MIT)\n")
	w.WriteString("/*\n * " + outputs.GeneratedNotice + "\n *\n")
	fmt.Fprintf(w, " * Board %s", b.Name)
	if b.Model != "" {
		fmt.Fprintf(w, " (%s)", b.Model)
	}
	fmt.Fprintf(w, ", SoC %s.\n", b.SoC.Name)
	w.WriteString(" * " + use + "\n")
	w.WriteString(" * Each property names the description line it comes from.\n *\n")
	w.WriteString(" * Interconnect coherency:\n")
	for _, bus := range b.SoC.Buses {
		state := "not coherent"
		switch {
		case bus.Coherency.Coherent && bus.Coherency.Masters == ir.ScopeAll:
			state = "coherent for all masters"
		case bus.Coherency.Coherent:
			state = "coherent for verified masters"
		}
		fmt.Fprintf(w, " *   %s (%s): %s (%s)\n", bus.Key, bus.Node.Path, state, bus.Coherency.Pos.Short())
	}
	w.WriteString(" */\n")
}

func (w *writer) node(n *dtNode) {
	fmt.Fprintf(w, "\n/* %s: %s */\n%s {\n", n.title, n.path, n.ref)
	for _, p := range n.props {
		fmt.Fprintf(w, "\t%s /* %s */\n", p.text, p.why)
	}
	w.WriteString("};\n")
}
