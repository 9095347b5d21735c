package load

import (
	"sort"
	"strconv"

	"cuelang.org/go/cue"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/schema"
)

// node pairs a value of the unified, validated description (v) with the
// same path in the user's own value (d), which carries the user's
// positions. A field the user left to a schema default has no d; it takes
// the position of its nearest user-written ancestor.
type node struct {
	v, d     cue.Value
	pos      *positions
	fallback ir.Pos
}

// at returns the child at field name.
func (n node) at(name string) node {
	sel := cue.MakePath(cue.Str(name))
	c := node{v: n.v.LookupPath(sel), pos: n.pos, fallback: n.Pos()}
	if n.d.Exists() {
		c.d = n.d.LookupPath(sel)
	}
	return c
}

// exists reports whether the field is present in the unified value.
func (n node) exists() bool { return n.v.Exists() }

// Pos returns the user's position of the node.
func (n node) Pos() ir.Pos {
	if n.d.Exists() {
		if tp := n.d.Pos(); tp.IsValid() && tp.Filename() != schema.Filename {
			return n.pos.convert(tp.Filename(), tp.Line(), tp.Column())
		}
	}
	return n.fallback
}

// The accessors below read concrete values the schema has already
// validated; a kind mismatch is impossible after Validate, so errors yield
// the zero value.

func (n node) str() string {
	s, _ := n.v.String()
	return s
}

func (n node) int() int {
	i, _ := n.v.Int64()
	return int(i)
}

func (n node) uint() uint64 {
	u, _ := n.v.Uint64()
	return u
}

func (n node) bool() bool {
	b, _ := n.v.Bool()
	return b
}

// val returns the child at field name for reading its value only: the
// user's value and position are not looked up, so Pos must not be called
// on the result. It halves the lookups of the many scalar fields.
func (n node) val(name string) node {
	return node{v: n.v.LookupPath(cue.MakePath(cue.Str(name)))}
}

// strs returns a list of strings.
func (n node) strs() []string {
	it, err := n.v.List()
	if err != nil {
		return nil
	}
	var out []string
	for it.Next() {
		s, _ := it.Value().String()
		out = append(out, s)
	}
	return out
}

// ints returns a list of integers.
func (n node) ints() []int {
	it, err := n.v.List()
	if err != nil {
		return nil
	}
	var out []int
	for it.Next() {
		i, _ := it.Value().Int64()
		out = append(out, int(i))
	}
	return out
}

// list returns the elements of a list value. The user's elements are
// walked alongside, once, rather than looked up by index (a lookup is linear
// in the list's length).
func (n node) list() []node {
	it, err := n.v.List()
	if err != nil {
		return nil
	}
	var (
		dit   cue.Iterator
		hasD  = n.d.Exists()
		walkD = false
	)
	if hasD {
		if dit, err = n.d.List(); err == nil {
			walkD = true
		}
	}
	self := n.Pos()
	var out []node
	for i := 0; it.Next(); i++ {
		c := node{v: it.Value(), pos: n.pos, fallback: self}
		switch {
		case walkD:
			if dit.Next() {
				c.d = dit.Value()
			} else {
				walkD, hasD = false, false
			}
		case hasD:
			c.d = n.d.LookupPath(cue.MakePath(cue.Index(i)))
		}
		out = append(out, c)
	}
	return out
}

// field is one regular field of a struct.
type field struct {
	name string
	node
}

// fields returns the regular fields of a struct value, sorted by name.
func (n node) fields() []field {
	out := n.unsortedFields()
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// unsortedFields returns the regular fields of a struct value in CUE's
// order. The user's fields are read in one pass into a map rather than
// looked up one by one: a LookupPath costs a fresh evaluation context and a
// scan of the struct's fields, which made lowering quadratic in the number
// of masters.
func (n node) unsortedFields() []field {
	it, err := n.v.Fields()
	if err != nil {
		return nil
	}
	var user map[string]cue.Value
	if n.d.Exists() {
		if dit, err := n.d.Fields(); err == nil {
			user = map[string]cue.Value{}
			for dit.Next() {
				user[dit.Selector().Unquoted()] = dit.Value()
			}
		}
	}
	self := n.Pos()
	var out []field
	for it.Next() {
		name := it.Selector().Unquoted()
		c := node{v: it.Value(), pos: n.pos, fallback: self}
		if d, ok := user[name]; ok {
			c.d = d
		} else if user == nil && n.d.Exists() {
			c.d = n.d.LookupPath(cue.MakePath(cue.Str(name)))
		}
		out = append(out, field{name: name, node: c})
	}
	return out
}

// scalar renders a string or integer value as a string.
func (n node) scalar() string {
	if n.v.Kind() == cue.IntKind {
		i, _ := n.v.Int64()
		return strconv.FormatInt(i, 10)
	}
	return n.str()
}
