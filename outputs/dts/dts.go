// Package dts emits the device-tree fragment of a board: a .dtsi meant to be
// included at the end of the board's upstream .dts, which marks DMA
// coherency on masters and sets dma-ranges on buses, and the same changes
// as an overlay (.dtso) to apply over the board's dtb.
//
// Semantics follow Linux drivers/of/address.c: of_dma_is_coherent() walks up
// the DMA parents, and of_dma_get_range() walks up from a device's parent
// bus, where an empty dma-ranges means "identity, keep walking" and, once
// the walk has passed one node, a missing dma-ranges ends it with no
// translation at all. The fragment writes a dma-ranges only on a bus whose
// description states one: never on a bus between a master and a
// translation above it, which would change what the walk finds for every
// device below that bus (check BC0205 says where the walk stops instead).
//
// Provenance comments name the description element a property comes from
// by its ref (soc.masters.crypto.coherency), never by file and line: an
// edit of the description that changes no fact, a comment or a blank
// line, leaves the fragment and the overlay byte-identical, so the kernel
// build does not rebuild the dtb. The positions are in the files'
// annotations, which manifest.json and boardc explain carry.
package dts

import (
	"fmt"
	"slices"
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
	// bridge is set when the node is a PCI host bridge's that carries a
	// dma-ranges: the overlay restates the PCI bus binding's cell counts.
	bridge *ir.Master
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
			why:    outputs.N(outputs.At(bus.Ref().Field("dmaRanges"), bus.DMARangesPos)),
			origin: outputs.From(bus.Ref()),
		})
	}
	// A PCI host bridge's own dma-ranges, where the description states
	// them: of_dma_configure_id() (drivers/of/device.c) reads them first
	// for the PCI devices behind it (pci_dma_configure(),
	// drivers/pci/pci-driver.c).
	for _, m := range b.SoC.Masters {
		if m.Bridge == nil || !m.Bridge.HasDMARanges() {
			continue
		}
		n := get(m.Node, "master "+m.Key, m.Ref())
		n.bridge = m
		n.props = append(n.props, prop{
			name:   "dma-ranges",
			text:   bridgeRangesProp(m),
			why:    outputs.N(outputs.At(m.Ref().Field("bridge").Field("dmaRanges"), m.Bridge.DMARangesPos)),
			origin: outputs.From(m.Ref()),
		})
	}
	// A bus coherent for all masters whose flag upstream states on a
	// node (the bus's or an ancestor, flagAt) gets it there, once; its
	// masters inherit it by the walk of of_dma_is_coherent()
	// (drivers/of/address.c) and get no flag of their own.
	for _, bus := range b.SoC.Buses {
		c := bus.Coherency
		if !c.Coherent || c.Masters != ir.ScopeAll || c.FlagAt == "" {
			continue
		}
		n := get(ir.Node{Path: c.FlagAt}, "coherency of bus "+bus.Key, bus.Ref())
		if slices.ContainsFunc(n.props, func(p prop) bool { return p.name == "dma-coherent" }) {
			continue
		}
		n.props = append(n.props, prop{
			name:   "dma-coherent",
			text:   "dma-coherent;",
			why:    outputs.N("bus ", bus.Key, " is coherent for all masters, ", coherency(bus), ", stated on ", c.FlagAt, " upstream"),
			origin: outputs.From(bus.Ref(), c.FlagAtPos),
		})
	}
	for _, m := range b.SoC.Masters {
		if m.DMADeviceKey != "" {
			// Its DMA is configured from the DMA device's node
			// (dmaDevice), which the kernel reads instead of its own.
			continue
		}
		p := prop{name: "dma-coherent", origin: outputs.From(m.Ref())}
		switch m.Coherence() {
		case ir.Inherited:
			if m.Bus.Coherency.FlagAt != "" {
				continue // written once on flagAt
			}
			p.why = outputs.N("bus ", m.Bus.Key, " is coherent for all masters, ", coherency(m.Bus))
			p.origin = p.origin.And(m.Bus.Ref())
		case ir.Verified:
			p.why = outputs.N("verified, ", outputs.At(m.Ref().Field("coherency"), m.Coherency.Pos))
		case ir.OptedOut:
			p.name = "dma-noncoherent"
			p.why = outputs.N("opts out of coherent bus ", m.Bus.Key, ", ", outputs.At(m.Ref().Field("coherency"), m.Coherency.Pos))
		default:
			if !m.DeletesCoherent() {
				continue
			}
			p.name = "dma-noncoherent"
			p.why = outputs.N("not coherent, ", outputs.At(m.Ref().Field("coherency"), m.Coherency.Pos))
		}
		p.text = p.name + ";"
		n := get(m.Node, "master "+m.Key, m.Ref())
		if m.DeletesCoherent() {
			// An upstream dma-coherent on the node would win over
			// anything else (of_dma_is_coherent(), drivers/of/address.c,
			// answers on the first of dma-coherent and dma-noncoherent
			// it meets, from the node up).
			del := prop{
				name:   "dma-coherent",
				text:   "/delete-property/ dma-coherent;",
				why:    outputs.N("of_dma_is_coherent() answers on it first"),
				origin: p.origin,
			}
			if flagAbove(m) == "" {
				// With no dma-coherent above the node, the walk ends
				// at dma_default_coherent, false on arm64: deleting is
				// all it takes, and dma-noncoherent, which bindings
				// such as virtio/mmio.yaml do not allow, is not written.
				del.why = append(p.why, "; no dma-coherent above it: the non-coherent default of arm64 applies")
				n.props = append(n.props, del)
				continue
			}
			n.props = append(n.props, del)
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

// rangesProp renders the dma-ranges the description states for bus. An
// empty list is an empty property, the identity of_dma_get_range()
// (drivers/of/address.c) walks through, whatever the cell counts: a 1:1
// window in its place would end the walk there and set a limit nobody
// stated. dtc warns on an empty dma-ranges whose cell counts differ from
// the parent's; check BC0206 says so before the fragment is built.
func rangesProp(bus *ir.Bus, soc *ir.SoC, ranges []ir.DMARange) string {
	if len(ranges) == 0 {
		return "dma-ranges;"
	}
	pa, _ := soc.ParentCells(bus)
	var cells []string
	for _, r := range ranges {
		cells = append(cells, Cells(r.Child, bus.AddressCells)...)
		cells = append(cells, Cells(r.Parent, pa)...)
		cells = append(cells, Cells(r.Size, bus.SizeCells)...)
	}
	return "dma-ranges = <" + strings.Join(cells, " ") + ">;"
}

// bridgeRangesProp renders the dma-ranges the description states for
// the PCI host bridge m: each window's PCI child address (the flags cell,
// then the bus address in two cells), its parent address in the
// #address-cells of the bridge's bus, its size in two cells (the PCI bus
// binding's cell counts, ir.PCIAddressCells and ir.PCISizeCells). An
// empty list is an empty property, the identity.
func bridgeRangesProp(m *ir.Master) string {
	rs := m.Bridge.DMARanges
	if len(rs) == 0 {
		return "dma-ranges;"
	}
	var cells []string
	for _, r := range rs {
		cells = append(cells, fmt.Sprintf("0x%x", r.Flags))
		cells = append(cells, Cells(r.Child, ir.PCIAddressCells-1)...)
		cells = append(cells, Cells(r.Parent, m.Bus.AddressCells)...)
		cells = append(cells, Cells(r.Size, ir.PCISizeCells)...)
	}
	return "dma-ranges = <" + strings.Join(cells, " ") + ">;"
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
	c.Line("Each property names the description element it comes from (manifest.json: file and line).")
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
		c.Line(outputs.From(bus.Ref()), "  ", bus.Key, " (", bus.Node.Path, "): ", state, " (", coherency(bus), ")")
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
		why := func(f string) outputs.Note {
			return outputs.N("unchanged, restated for dtc's dma-ranges check, ", outputs.At(bus.Ref().Field(f), bus.CellsPos))
		}
		p.P(o.Named("#address-cells"), "\t#address-cells = <", bus.AddressCells, ">;", why("#address-cells"))
		p.P(o.Named("#size-cells"), "\t#size-cells = <", bus.SizeCells, ">;", why("#size-cells"))
	}
	if m := n.bridge; overlay && m != nil {
		o := outputs.From(m.Ref())
		why := outputs.N("unchanged, restated for dtc's dma-ranges check, a PCI host bridge's (", outputs.At(m.Ref().Field("bridge"), m.Bridge.Pos), ")")
		p.P(o.Named("#address-cells"), "\t#address-cells = <", ir.PCIAddressCells, ">;", why)
		p.P(o.Named("#size-cells"), "\t#size-cells = <", ir.PCISizeCells, ">;", why)
	}
	for _, pr := range n.props {
		p.P(pr.origin.Named(pr.name), "\t", pr.text, pr.why)
	}
	p.P("};")
}

// coherency cites the coherency fact of bus.
func coherency(bus *ir.Bus) outputs.Cite {
	return outputs.At(bus.Ref().Field("coherency"), bus.Coherency.Pos)
}

// flagAbove returns the node above master m that the fragment or the
// upstream tree marks dma-coherent for a whole coherent bus (its FlagAt),
// nearest first, or "" when none is: only then does a master that opts
// out need dma-noncoherent to stop of_dma_is_coherent()'s walk up.
func flagAbove(m *ir.Master) string {
	for _, b := range m.BusPath() {
		if c := b.Coherency; c.Coherent && c.Masters == ir.ScopeAll && c.FlagAt != "" {
			return c.FlagAt
		}
	}
	return ""
}
