package outputs

import (
	"boardc.dev/boardc/compiler/ir"
)

// OriginSet builds an origin from many: the refs, positions and names of
// every origin added, each once, in the order first added, as With would
// give them. Adding costs what is added, whatever the set holds already,
// so that an origin made of thousands (a capability entry shared by
// every master with its compatible) is built in linear time, where
// merging pairwise copies the set at every step. The zero OriginSet is
// empty and ready to use.
type OriginSet struct {
	refs  keyedList[ir.Ref, ir.Ref]
	pos   keyedList[ir.Pos, SrcLine]
	names keyedList[string, string]
}

// Add adds the refs, positions and names of o that the set lacks. While
// the set holds a single origin whose entries are valid and distinct,
// Origin returns that origin's own slices: lines that share an origin
// share its slices, and their annotations compare in constant time.
func (s *OriginSet) Add(o Origin) {
	s.refs.addAll(o.Refs, validRef, refKey)
	s.pos.addAll(o.Pos, ir.Pos.IsValid, SrcLineOf)
	s.names.addAll(o.Names, validName, nameKey)
}

// AddRef adds the element ref and the positions pos, as Origin.And does.
func (s *OriginSet) AddRef(ref ir.Ref, pos ...ir.Pos) {
	if ref != "" {
		s.refs.add(ref, ref, refKey)
	}
	for _, p := range pos {
		if p.IsValid() {
			s.pos.add(p, SrcLineOf(p), SrcLineOf)
		}
	}
}

// Origin returns the origin the set holds. Adding to the set afterwards
// does not change it.
func (s *OriginSet) Origin() Origin {
	return Origin{Refs: s.refs.slice(), Pos: s.pos.slice(), Names: s.names.slice()}
}

func validRef(r ir.Ref) bool  { return r != "" }
func refKey(r ir.Ref) ir.Ref  { return r }
func validName(n string) bool { return n != "" }
func nameKey(n string) string { return n }

// indexFrom is the length from which a keyedList indexes its keys in a
// map; below it, scanning is cheaper.
const indexFrom = 8

// keyedList is a list of distinct keys, in the order added. Below
// indexFrom elements, a key is found by scanning the list and computing
// the keys of its elements, which allocates nothing: most origins hold
// one or two of each.
type keyedList[T any, K comparable] struct {
	list []T
	// borrowed: list is the slice of an origin added as it is; it is
	// copied before anything is appended.
	borrowed bool
	index    map[K]struct{}
}

// has reports whether the list holds key k; key gives an element's key.
func (l *keyedList[T, K]) has(k K, key func(T) K) bool {
	if l.index != nil {
		_, ok := l.index[k]
		return ok
	}
	for _, x := range l.list {
		if key(x) == k {
			return true
		}
	}
	return false
}

// add appends x, of key k, when the list lacks k.
func (l *keyedList[T, K]) add(x T, k K, key func(T) K) {
	if l.has(k, key) {
		return
	}
	if l.borrowed {
		l.list = append(make([]T, 0, 2*len(l.list)+1), l.list...)
		l.borrowed = false
	}
	l.list = append(l.list, x)
	if l.index != nil {
		l.index[k] = struct{}{}
		return
	}
	if len(l.list) >= indexFrom {
		l.index = make(map[K]struct{}, 2*len(l.list))
		for _, x := range l.list {
			l.index[key(x)] = struct{}{}
		}
	}
}

// addAll adds the valid elements of xs; into an empty list, it borrows
// xs itself when they are all valid and distinct.
func (l *keyedList[T, K]) addAll(xs []T, valid func(T) bool, key func(T) K) {
	if len(xs) == 0 {
		return
	}
	if len(l.list) == 0 && l.borrowAll(xs, valid, key) {
		return
	}
	for _, x := range xs {
		if valid(x) {
			l.add(x, key(x), key)
		}
	}
}

// borrowAll makes the empty list xs itself, when they are all valid and
// distinct, and reports whether it did.
func (l *keyedList[T, K]) borrowAll(xs []T, valid func(T) bool, key func(T) K) bool {
	var index map[K]struct{}
	if len(xs) >= indexFrom {
		index = make(map[K]struct{}, 2*len(xs))
	}
	for i, x := range xs {
		if !valid(x) {
			return false
		}
		k := key(x)
		if index != nil {
			if _, dup := index[k]; dup {
				return false
			}
			index[k] = struct{}{}
			continue
		}
		for _, y := range xs[:i] {
			if key(y) == k {
				return false
			}
		}
	}
	l.list, l.borrowed, l.index = xs, true, index
	return true
}

// slice returns the list, nil when empty, with no room to append to it
// in place.
func (l *keyedList[T, K]) slice() []T {
	if len(l.list) == 0 {
		return nil
	}
	return l.list[:len(l.list):len(l.list)]
}
