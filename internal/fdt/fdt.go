// Package fdt reads flattened device trees (.dtb), enough for tests to
// check what dtc built: the nodes, their properties, and the labels of a
// tree built with dtc -@.
package fdt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"sort"
	"strings"
)

// Tree maps each node path to its properties.
type Tree map[string]map[string][]byte

// Structure-block tokens (devicetree specification, section 5.4.1).
const (
	tokBeginNode = 1
	tokEndNode   = 2
	tokProp      = 3
	tokNop       = 4
	tokEnd       = 9
)

// Parse reads a dtb.
func Parse(b []byte) (Tree, error) {
	if len(b) < 40 || binary.BigEndian.Uint32(b) != 0xd00dfeed {
		return nil, errors.New("not a flattened device tree")
	}
	offStruct := int(binary.BigEndian.Uint32(b[8:]))
	offStrings := int(binary.BigEndian.Uint32(b[12:]))
	name := func(off int) string {
		s := b[offStrings+off:]
		if i := bytes.IndexByte(s, 0); i >= 0 {
			return string(s[:i])
		}
		return string(s)
	}
	t := Tree{}
	var stack []string
	path := func() string {
		if len(stack) <= 1 {
			return "/"
		}
		return "/" + strings.Join(stack[1:], "/")
	}
	for p := offStruct; p+4 <= len(b); {
		tok := binary.BigEndian.Uint32(b[p:])
		p += 4
		switch tok {
		case tokBeginNode:
			e := bytes.IndexByte(b[p:], 0)
			if e < 0 {
				return nil, errors.New("unterminated node name")
			}
			stack = append(stack, string(b[p:p+e]))
			p = (p + e + 1 + 3) &^ 3
			t[path()] = map[string][]byte{}
		case tokEndNode:
			if len(stack) == 0 {
				return nil, errors.New("unbalanced end of node")
			}
			stack = stack[:len(stack)-1]
		case tokProp:
			if p+8 > len(b) || len(stack) == 0 {
				return nil, errors.New("truncated property")
			}
			n := int(binary.BigEndian.Uint32(b[p:]))
			no := int(binary.BigEndian.Uint32(b[p+4:]))
			p += 8
			if p+n > len(b) {
				return nil, errors.New("truncated property value")
			}
			t[path()][name(no)] = b[p : p+n]
			p = (p + n + 3) &^ 3
		case tokNop:
		case tokEnd:
			return t, nil
		default:
			return nil, errors.New("bad structure token")
		}
	}
	return nil, errors.New("no end token")
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
