package load

import (
	"sort"
	"strconv"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/schema"
)

// node is a value of the evaluated description with the position of its
// nearest user-written ancestor, for a value the user did not write.
//
// The schema is evaluated without positions (see unpositioned), so a value's
// own position is always the user's: the last of the user's declarations
// that make it up. A value the schema alone gives (a default) has none and
// takes the fallback.
type node struct {
	v        cue.Value
	pos      *positions
	fallback ir.Pos
	// src, when set (hasSrc), is the value as the user wrote it, for a
	// v that is a part of the description unified with that part of the
	// schema alone (loadOnSoC): for a struct or a list, the position the
	// part has within the whole description unified with #Board comes
	// from src, v's from v's new root (a scalar's, its value's, is
	// right). Below v, v's positions are the whole description's.
	src    cue.Value
	hasSrc bool
	// self, when hasSelf, is n's position, computed once for the
	// fallback of its children (see withPos).
	self    ir.Pos
	hasSelf bool
}

// withPos returns n with its position computed once, for a node whose
// children are read one by one: each child takes n's position as its
// fallback, and a struct's position walks its conjuncts.
func (n node) withPos() node {
	n.self, n.hasSelf = n.Pos(), true
	return n
}

// at returns the child at field name.
func (n node) at(name string) node {
	c := n.val(name)
	c.fallback = n.Pos()
	return c
}

// val returns the child at field name without a fallback position, for
// reading its value: it saves computing the position of n.
func (n node) val(name string) node {
	return node{v: n.v.LookupPath(n.pos.field(name)), pos: n.pos}
}

// exists reports whether the field is present.
func (n node) exists() bool { return n.v.Exists() }

// Pos returns the user's position of the node.
func (n node) Pos() ir.Pos {
	if n.hasSelf {
		return n.self
	}
	tp := n.v.Pos()
	if k := n.v.Kind(); n.hasSrc && (k == cue.StructKind || k == cue.ListKind) {
		// Within the whole description, a struct or list takes the
		// position of the last of the user's declarations (the schema's
		// have none): src's, or, for one declaration, its value's, not
		// its field's, which src alone would give.
		tp = n.src.Pos()
		if f, ok := n.src.Source().(*ast.Field); ok && f.Value != nil {
			tp = f.Value.Pos()
		}
	}
	if tp.IsValid() && tp.Filename() != schema.Filename {
		return n.pos.convert(tp.Filename(), tp.Line(), tp.Column())
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

// list returns the elements of a list value.
func (n node) list() []node {
	it, err := n.v.List()
	if err != nil {
		return nil
	}
	self := n.Pos()
	var out []node
	for it.Next() {
		out = append(out, node{v: it.Value(), pos: n.pos, fallback: self})
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
// order, in one pass: a LookupPath per field would cost a fresh evaluation
// context each and a scan of the struct's fields, which is quadratic in the
// number of masters.
func (n node) unsortedFields() []field {
	it, err := n.v.Fields()
	if err != nil {
		return nil
	}
	self := n.Pos()
	var out []field
	for it.Next() {
		out = append(out, field{name: it.Selector().Unquoted(), node: node{v: it.Value(), pos: n.pos, fallback: self}})
	}
	return out
}

// scalar renders a string or integer value as a string.
func (n node) scalar() string {
	if n.v.Kind() == cue.IntKind {
		if i, err := n.v.Int64(); err == nil {
			return strconv.FormatInt(i, 10)
		}
		// Past int64: the exact digits, for the range checks to judge.
		if b, err := n.v.Int(nil); err == nil {
			return b.String()
		}
	}
	return n.str()
}
