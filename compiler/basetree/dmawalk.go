package basetree

// DMAWalk is what of_dma_get_range() (Linux drivers/of/address.c, v6.12)
// finds for a device, as of_dma_configure_id() (drivers/of/device.c)
// calls it from the device's DMA parent.
type DMAWalk struct {
	// At is the node whose non-empty dma-ranges ended the walk, nil when
	// the walk found none (-ENODEV): the kernel then sets no
	// bus_dma_limit.
	At *Node
	// Ranges are At's (child, parent, size) triplets.
	Ranges [][3]uint64
	// Limit is the bus_dma_limit the kernel sets, dma_range_map_max()
	// (include/linux/dma-direct.h): the highest child address + size - 1.
	Limit uint64
	// OK is false when At's dma-ranges cannot be decoded (cells wider
	// than 64 bits, or not whole triplets).
	OK bool
}

// RangesFunc gives the dma-ranges to take for a node instead of its own,
// for the tree a fragment builds over this one: has says whether the node
// then has the property, and ranges (empty for an identity) are its
// triplets. use is false to keep the node's own.
type RangesFunc func(n *Node) (ranges [][3]uint64, has, use bool)

// DMAParent is __of_get_dma_parent() (drivers/of/address.c): the
// interconnect provider the node names "dma-mem" in interconnect-names,
// else its parent. Nil for the root.
func (t *Tree) DMAParent(n *Node) *Node {
	names, _ := n.Strings("interconnect-names")
	ics, _ := n.Cells("interconnects")
	for i, at := 0, 0; i < len(names) && at < len(ics); i++ {
		p := t.ByPhandle(ics[at])
		if p == nil {
			break
		}
		if names[i] == "dma-mem" {
			return p
		}
		cells, _ := p.U32("#interconnect-cells")
		at += 1 + int(cells)
	}
	return n.Parent
}

// DMAWalk walks up from np, a device's DMA parent, as of_dma_get_range()
// does: an empty dma-ranges is an identity and the walk goes on; a
// missing one is passed over on np only ("once we find 'dma-ranges',
// then a missing one is an error"); the first non-empty one ends the
// walk. over, when not nil, replaces the dma-ranges of the nodes it
// answers for.
func (t *Tree) DMAWalk(np *Node, over RangesFunc) DMAWalk {
	first := true
	for n := np; n != nil; n = t.DMAParent(n) {
		var (
			rs       [][3]uint64
			has, use bool
			ok       = true
		)
		if over != nil {
			rs, has, use = over(n)
		}
		if !use {
			rs, has, ok = n.DMARanges()
			if v, _ := n.Prop("dma-ranges"); has && len(v) > 0 && !ok {
				return DMAWalk{At: n}
			}
		}
		if has && len(rs) > 0 {
			w := DMAWalk{At: n, Ranges: rs, OK: true}
			for _, r := range rs {
				w.Limit = max(w.Limit, r[0]+(r[2]-1))
			}
			return w
		}
		if !first && !has {
			return DMAWalk{OK: true}
		}
		first = false
	}
	return DMAWalk{OK: true}
}
