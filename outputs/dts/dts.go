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
// an overlay, <board>.dtso, unless the fragment deletes a property, which
// an overlay cannot: then the .dtsi alone (check BC0105 says so).
func Emit(b *ir.Board) []outputs.File {
	p := outputs.NewPrinter(outputs.DTS)
	header(p, b, "Include at the end of "+dtsName(b)+".")
	for _, n := range plan(b) {
		node(p, n, false)
	}
	files := []outputs.File{p.File(b.Name + ".dtsi")}
	if len(b.SoC.OverlayDeletes()) == 0 {
		files = append(files, Overlay(b))
	}
	return files
}

// prop is one property line, what it comes from and the comment that
// says so.
type prop struct {
	name string // "dma-coherent"
	text string // "dma-coherent;"
	// why is the provenance comment: prose and the positions it names.
	why    outputs.Note
	origin outputs.Origin
}

// dtNode is one &ref { ... }; block.
type dtNode struct {
	ref   string
	path  string
	title string
	// origin is that of the element the node is titled after.
	origin outputs.Origin
	props  []prop
	// bus is set when the node carries a dma-ranges: the overlay restates
	// its cell counts.
	bus *ir.Bus
}

// plan decides every node and property of the fragment, sorted by node
// path so the output does not depend on declaration order.
func plan(b *ir.Board) []*dtNode {
	byPath := map[string]*dtNode{}
	get := func(n ir.Node, title string, ref ir.Ref) *dtNode {
		if d, ok := byPath[n.Path]; ok {
			return d
		}
		d := &dtNode{ref: n.DTRef(), path: n.Path, title: title, origin: outputs.From(ref, n.Pos)}
		byPath[n.Path] = d
		return d
	}
	for _, bus := range b.SoC.Buses {
		if !bus.HasDMARanges {
			continue
		}
		n := get(bus.Node, "bus "+bus.Key, bus.Ref())
		n.bus = bus
		n.props = append(n.props, prop{
			name:   "dma-ranges",
			text:   rangesProp(bus, &b.SoC, bus.DMARanges),
			why:    outputs.N(bus.DMARangesPos),
			origin: outputs.From(bus.Ref()),
		})
	}
	for _, bus := range ancestorsNeedingRanges(b) {
		n := get(bus.Node, "bus "+bus.Key, bus.Ref())
		n.bus = bus
		n.props = append(n.props, prop{
			name:   "dma-ranges",
			text:   rangesProp(bus, &b.SoC, nil),
			why:    outputs.N("identity, so that of_dma_get_range() reaches the translation above; ", bus.Pos),
			origin: outputs.From(bus.Ref()),
		})
	}
	for _, m := range b.SoC.Masters {
		p := prop{name: "dma-coherent", origin: outputs.From(m.Ref())}
		switch m.Coherence() {
		case ir.Inherited:
			p.why = outputs.N("bus ", m.Bus.Key, " is coherent for all masters, ", m.Bus.Coherency.Pos)
			p.origin = p.origin.And(m.Bus.Ref())
		case ir.Verified:
			p.why = outputs.N("verified, ", m.Coherency.Pos)
		case ir.OptedOut:
			p.name = "dma-noncoherent"
			p.why = outputs.N("opts out of coherent bus ", m.Bus.Key, ", ", m.Coherency.Pos)
		default:
			if !m.DeletesCoherent() {
				continue
			}
			p.name = "dma-noncoherent"
			p.why = outputs.N("not coherent, ", m.Coherency.Pos)
		}
		p.text = p.name + ";"
		n := get(m.Node, "master "+m.Key, m.Ref())
		if m.DeletesCoherent() {
			// Before dma-noncoherent: an upstream dma-coherent would
			// win over it (of_dma_is_coherent()).
			n.props = append(n.props, prop{
				name:   "dma-coherent",
				text:   "/delete-property/ dma-coherent;",
				why:    outputs.N("of_dma_is_coherent() answers on it first"),
				origin: p.origin,
			})
		}
		n.props = append(n.props, p)
	}
	out := make([]*dtNode, 0, len(byPath))
	for _, n := range byPath {
		for _, p := range n.props {
			for _, r := range p.origin.Refs {
				n.origin = n.origin.And(r)
			}
		}
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
		chain := m.BusPath()
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

// dtsName names the board's upstream .dts in headers.
func dtsName(b *ir.Board) string {
	if b.DTS != "" {
		return b.DTS
	}
	return "the board's .dts"
}

// header writes the SPDX line and the comment every device-tree output
// opens with; use says how the file is consumed.
func header(p *outputs.Printer, b *ir.Board, use string) {
	p.P("// SPDX-License-Identifier: (GPL-2.0-or-later OR MIT)")
	c := p.Block("")
	c.Line(outputs.GeneratedNotice)
	c.Line()
	c.Line(outputs.BoardText(b), ".")
	c.Line(use)
	c.Line("Each property names the description line it comes from.")
	c.Line()
	c.Line("Interconnect coherency:")
	for _, bus := range b.SoC.Buses {
		state := "not coherent"
		switch {
		case bus.Coherency.Coherent && bus.Coherency.Masters == ir.ScopeAll:
			state = "coherent for all masters"
		case bus.Coherency.Coherent:
			state = "coherent for verified masters"
		}
		c.Line(outputs.From(bus.Ref()), "  ", bus.Key, " (", bus.Node.Path, "): ", state, " (", bus.Coherency.Pos, ")")
	}
	c.End()
}

// node writes one node of the fragment or, with overlay, of the overlay.
func node(p *outputs.Printer, n *dtNode, overlay bool) {
	p.P()
	p.Comment("", n.origin, n.title+": "+n.path)
	p.P(n.origin, n.ref, " {")
	if bus := n.bus; overlay && bus != nil {
		o := outputs.From(bus.Ref())
		why := outputs.N("unchanged, restated for dtc's dma-ranges check, ", bus.CellsPos)
		p.P(o.Named("#address-cells"), "\t#address-cells = <", bus.AddressCells, ">;", why)
		p.P(o.Named("#size-cells"), "\t#size-cells = <", bus.SizeCells, ">;", why)
	}
	for _, pr := range n.props {
		p.P(pr.origin.Named(pr.name), "\t", pr.text, pr.why)
	}
	p.P("};")
}
