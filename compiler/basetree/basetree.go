// Package basetree reads the device tree a board's fragment is built on
// (its "base tree": the upstream .dts compiled, or a .dtb) so that checks
// can compare a description with it. It reads flattened device trees with
// u-root's pkg/dt and knows the few device-tree conventions the checks
// need: labels from /__symbols__, cell counts with their defaults,
// status, phandles, the dma-coherent walk of of_dma_is_coherent() and the
// CPU topology of /cpus and cpu-map.
//
// It does no CUE and no output: a Tree is read-only data.
package basetree

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"

	"github.com/u-root/u-root/pkg/dt"
)

// Tree is a device tree, indexed by node path.
type Tree struct {
	// Source names where the tree came from (the .dts or .dtb), as
	// diagnostics print it.
	Source string
	nodes  map[string]*Node
	labels map[string]string // label -> path, from /__symbols__
	byPH   map[uint32]*Node  // phandle -> node
	paths  []string          // sorted
	// sources maps a node path and property name to file:line, for a
	// tree compiled with Compile.Annotate.
	sources map[string]map[string]string
}

// Node is one node of a Tree.
type Node struct {
	// Path is the node's full path, "/" for the root.
	Path string
	// Name is the node's name with its unit address, "" for the root.
	Name string
	// Parent is the enclosing node, nil for the root.
	Parent *Node
	// Children are the node's children in tree order.
	Children []*Node
	props    map[string][]byte
}

// Read parses a flattened device tree (a .dtb). Labels are known only
// for a tree compiled with dtc -@ (it writes /__symbols__); Compile does.
func Read(dtb []byte, source string) (*Tree, error) {
	if err := checkBounds(dtb); err != nil {
		return nil, fmt.Errorf("%s: not a readable flattened device tree: %w", source, err)
	}
	f, err := dt.ReadFDT(bytes.NewReader(dtb))
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable flattened device tree: %v", source, err)
	}
	t := &Tree{Source: source, nodes: map[string]*Node{}, labels: map[string]string{}, byPH: map[uint32]*Node{}}
	var add func(d *dt.Node, parent *Node)
	add = func(d *dt.Node, parent *Node) {
		name := nameBytes(d.Name)
		n := &Node{Name: name, Parent: parent, props: map[string][]byte{}}
		switch {
		case parent == nil:
			n.Path, n.Name = "/", ""
		case parent.Path == "/":
			n.Path = "/" + name
		default:
			n.Path = parent.Path + "/" + name
		}
		for _, p := range d.Properties {
			n.props[p.Name] = p.Value
		}
		if parent != nil {
			parent.Children = append(parent.Children, n)
		}
		t.nodes[n.Path] = n
		t.paths = append(t.paths, n.Path)
		if ph, ok := n.U32("phandle"); ok {
			t.byPH[ph] = n
		}
		for _, c := range d.Children {
			add(c, n)
		}
	}
	add(f.RootNode, nil)
	sort.Strings(t.paths)
	if sym := t.nodes["/__symbols__"]; sym != nil {
		for name, v := range sym.props {
			t.labels[name] = strings.TrimRight(string(v), "\x00")
		}
	}
	return t, nil
}

// Node returns the node at path, or nil.
func (t *Tree) Node(path string) *Node { return t.nodes[path] }

// Paths returns every node path, sorted.
func (t *Tree) Paths() []string { return t.paths }

// HasLabels reports whether the tree carries its labels (/__symbols__).
func (t *Tree) HasLabels() bool { return t.nodes["/__symbols__"] != nil }

// Label returns the path of the node labelled label, and whether there is
// one.
func (t *Tree) Label(label string) (string, bool) {
	p, ok := t.labels[label]
	return p, ok
}

// LabelsOf returns the labels of the node at path, sorted.
func (t *Tree) LabelsOf(path string) []string {
	var out []string
	for l, p := range t.labels {
		if p == path {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

// Labels returns every label, sorted.
func (t *Tree) Labels() []string {
	out := make([]string, 0, len(t.labels))
	for l := range t.labels {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// ByPhandle returns the node whose phandle is ph, or nil.
func (t *Tree) ByPhandle(ph uint32) *Node { return t.byPH[ph] }

// Has reports whether the node has property name.
func (n *Node) Has(name string) bool {
	_, ok := n.props[name]
	return ok
}

// Prop returns the raw value of property name and whether it exists.
func (n *Node) Prop(name string) ([]byte, bool) {
	v, ok := n.props[name]
	return v, ok
}

// PropNames returns the node's property names, sorted.
func (n *Node) PropNames() []string {
	out := make([]string, 0, len(n.props))
	for p := range n.props {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// U32 returns a one-cell property.
func (n *Node) U32(name string) (uint32, bool) {
	v, ok := n.props[name]
	if !ok || len(v) != 4 {
		return 0, false
	}
	return binary.BigEndian.Uint32(v), true
}

// Cells returns a property as 32-bit cells, and whether it exists.
func (n *Node) Cells(name string) ([]uint32, bool) {
	v, ok := n.props[name]
	if !ok {
		return nil, false
	}
	out := make([]uint32, len(v)/4)
	for i := range out {
		out[i] = binary.BigEndian.Uint32(v[4*i:])
	}
	return out, true
}

// Strings returns a string-list property (compatible), and whether it
// exists.
func (n *Node) Strings(name string) ([]string, bool) {
	v, ok := n.props[name]
	if !ok {
		return nil, false
	}
	s := strings.TrimSuffix(string(v), "\x00")
	if s == "" {
		return nil, true
	}
	return strings.Split(s, "\x00"), true
}

// String returns a one-string property (model, status).
func (n *Node) String(name string) (string, bool) {
	ss, ok := n.Strings(name)
	if !ok || len(ss) == 0 {
		return "", ok
	}
	return ss[0], true
}

// AddressCells and SizeCells return the node's own #address-cells and
// #size-cells, with the defaults of the devicetree specification (2 and
// 1, section 2.3.5) where the node has none. Linux reads a missing one
// from the parent (of_n_addr_cells()); the specification's default is
// what dtc checks against and what a description states.
func (n *Node) AddressCells() int { return n.cells("#address-cells", 2) }

// SizeCells is AddressCells for #size-cells.
func (n *Node) SizeCells() int { return n.cells("#size-cells", 1) }

func (n *Node) cells(name string, def int) int {
	if v, ok := n.U32(name); ok {
		return int(v)
	}
	return def
}

// Enabled reports whether the node is enabled: no status, or "okay" or
// "ok" (of_device_is_available(), drivers/of/base.c).
func (n *Node) Enabled() bool {
	s, ok := n.String("status")
	return !ok || s == "okay" || s == "ok"
}

// Status returns the node's status as a diagnostic prints it: the value,
// or "(none)" when the node has none.
func (n *Node) Status() string {
	if s, ok := n.String("status"); ok {
		return s
	}
	return "(none)"
}

// Coherent reports whether of_dma_is_coherent() (drivers/of/address.c)
// answers true for the node: walking up from the node, the first node
// with dma-coherent makes it coherent and the first with dma-noncoherent
// makes it not; with neither, it is not. It also returns the node that
// decided, nil when none did.
func (n *Node) Coherent() (bool, *Node) {
	for m := n; m != nil; m = m.Parent {
		if m.Has("dma-coherent") {
			return true, m
		}
		if m.Has("dma-noncoherent") {
			return false, m
		}
	}
	return false, nil
}

// DMARanges decodes the node's dma-ranges into (child, parent, size)
// triplets with the tree's cell counts: the child address in the node's
// #address-cells, the parent address in its parent's, the size in the
// node's #size-cells (devicetree specification 2.3.9). has is false
// without the property; ok is false when a count is wider than 64 bits or
// the property is not a whole number of triplets. An empty property (an
// identity translation) gives no triplets.
func (n *Node) DMARanges() (ranges [][3]uint64, has, ok bool) {
	cells, has := n.Cells("dma-ranges")
	if !has {
		return nil, false, true
	}
	ac, sc := n.AddressCells(), n.SizeCells()
	pc := 2
	if n.Parent != nil {
		pc = n.Parent.AddressCells()
	}
	w := ac + pc + sc
	if ac > 2 || pc > 2 || sc > 2 || w == 0 || len(cells)%w != 0 {
		return nil, true, false
	}
	ranges = [][3]uint64{}
	for i := 0; i < len(cells); i += w {
		ranges = append(ranges, [3]uint64{Number(cells[i : i+ac]), Number(cells[i+ac : i+ac+pc]), Number(cells[i+ac+pc : i+w])})
	}
	return ranges, true, true
}

// Reg decodes the node's reg into (address, size) pairs with its parent's
// #address-cells and #size-cells (the root's own defaults, 2 and 1, for
// the root; devicetree specification 2.3.6). A trailing part shorter than
// one pair is left out. ok is false when a count is wider than 64 bits or
// both are zero.
func (n *Node) Reg() (regs [][2]uint64, ok bool) {
	ac, sc := 2, 1
	if n.Parent != nil {
		ac, sc = n.Parent.AddressCells(), n.Parent.SizeCells()
	}
	w := ac + sc
	if ac > 2 || sc > 2 || w == 0 {
		return nil, false
	}
	cells, _ := n.Cells("reg")
	for i := 0; i+w <= len(cells); i += w {
		regs = append(regs, [2]uint64{Number(cells[i : i+ac]), Number(cells[i+ac : i+w])})
	}
	return regs, true
}

// Number reads big-endian cells, at most two, as one number, as
// of_read_number() (include/linux/of.h) does.
func Number(cells []uint32) uint64 {
	var v uint64
	for _, x := range cells {
		v = v<<32 | uint64(x)
	}
	return v
}

// nameBytes undoes how u-root's pkg/dt reads a node name: it appends each
// byte as string(b), the rune U+0000 to U+00FF, so a name's UTF-8 bytes
// come back Latin-1-encoded ("é" as "Ã©"). The runes are the bytes.
func nameBytes(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			b := make([]byte, 0, len(s))
			for _, r := range s {
				b = append(b, byte(r))
			}
			return string(b)
		}
	}
	return s
}
