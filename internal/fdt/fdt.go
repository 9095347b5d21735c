// Package fdt gives tests a path-indexed view of a flattened device tree
// (.dtb), enough to check what dtc built: every node's properties, the
// nodes that carry a property, a property's cells. It reads trees with
// compiler/basetree, which parses them with u-root's pkg/dt.
package fdt

import (
	"encoding/binary"
	"sort"

	"boardc.dev/boardc/compiler/basetree"
)

// Tree maps each node path to its properties.
type Tree map[string]map[string][]byte

// Parse reads a dtb.
func Parse(b []byte) (Tree, error) {
	bt, err := basetree.Read(b, "dtb")
	if err != nil {
		return nil, err
	}
	t := Tree{}
	for _, p := range bt.Paths() {
		n := bt.Node(p)
		props := map[string][]byte{}
		for _, name := range n.PropNames() {
			props[name], _ = n.Prop(name)
		}
		t[p] = props
	}
	return t, nil
}

// WithProperty returns the sorted paths of nodes that carry property name.
func (t Tree) WithProperty(name string) []string {
	var out []string
	for p, props := range t {
		if _, ok := props[name]; ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// Cells returns a property as 32-bit cells.
func (t Tree) Cells(path, prop string) []uint32 {
	v := t[path][prop]
	out := make([]uint32, len(v)/4)
	for i := range out {
		out[i] = binary.BigEndian.Uint32(v[4*i:])
	}
	return out
}
