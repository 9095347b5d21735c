// Package outputs defines what every emitter produces, generated files as
// data, and the printer every emitter writes them with. The printer
// records, for each line it prints, the description elements and
// positions the line comes from (the file's annotations), writes the
// provenance comments of the outputs from that same data, and owns
// escaping: one policy per output language (see Lang), so that no
// description can inject text into an output. Each emitter lives in its
// own package below this one and sees only the IR.
package outputs

import (
	"sort"

	"boardc.dev/boardc/compiler/ir"
)

// File is one generated file: its path relative to the board's output
// directory, its content, and where its lines come from.
type File struct {
	Path string
	Data []byte
	// Annotations give the origin of the file's lines that come from the
	// description, in line order; boilerplate lines have none.
	Annotations []Annotation
}

// Annotation is the origin of the lines Line to End (1-based, inclusive)
// of a file.
type Annotation struct {
	Line, End int
	Origin
}

// Origin is what generated lines come from: the description elements they
// are made from, by ref, the positions of the facts behind them, and the
// names they define or set (a DT property, a C symbol, a runtime path, an
// IRQ action name, a sysctl), so that a tool can find the lines of a name
// without reading the generated text.
type Origin struct {
	Refs  []ir.Ref
	Pos   []ir.Pos
	Names []string
}

// From returns the origin of lines made from the element ref after the
// facts at pos. An empty ref and invalid positions are left out.
func From(ref ir.Ref, pos ...ir.Pos) Origin {
	return Origin{}.And(ref, pos...)
}

// And returns o with the element ref and the positions pos added.
func (o Origin) And(ref ir.Ref, pos ...ir.Pos) Origin {
	var refs []ir.Ref
	if ref != "" {
		refs = []ir.Ref{ref}
	}
	return o.merge(Origin{Refs: refs, Pos: pos})
}

// Named returns o with the names added.
func (o Origin) Named(names ...string) Origin {
	return o.merge(Origin{Names: names})
}

// With returns the union of o and x: o's refs, positions and names, then
// those of x that o lacks.
func (o Origin) With(x Origin) Origin { return o.merge(x) }

// IsZero reports whether o names nothing.
func (o Origin) IsZero() bool {
	return len(o.Refs) == 0 && len(o.Pos) == 0 && len(o.Names) == 0
}

// merge returns the union of o and x, o's entries first, without
// duplicates. It never writes to the slices of o or x, which lines share.
func (o Origin) merge(x Origin) Origin {
	if x.IsZero() {
		return o
	}
	return Origin{
		Refs:  union(o.Refs, x.Refs, func(r ir.Ref) bool { return r != "" }, func(r ir.Ref) ir.Ref { return r }),
		Pos:   union(o.Pos, x.Pos, ir.Pos.IsValid, SrcLineOf),
		Names: union(o.Names, x.Names, func(s string) bool { return s != "" }, func(s string) string { return s }),
	}
}

// union appends to a copy of a the valid elements of b whose key a does
// not hold yet; it returns a itself when there are none, and b itself when
// a is empty and b holds only valid elements, each once.
func union[T any, K comparable](a, b []T, valid func(T) bool, key func(T) K) []T {
	var seen map[K]bool
	if len(a)+len(b) > 16 {
		// Long lists (a table entry shared by thousands of masters) are
		// merged through a set, short ones by scanning.
		seen = make(map[K]bool, len(a)+len(b))
		for _, x := range a {
			seen[key(x)] = true
		}
	}
	// keep reports whether x, at index i of b, joins the union.
	keep := func(i int, x T) bool {
		if !valid(x) {
			return false
		}
		k := key(x)
		if seen != nil {
			if seen[k] {
				return false
			}
			seen[k] = true
			return true
		}
		return !containsKey(a, k, key) && !containsKey(b[:i], k, key)
	}
	var out []T
	copied := false
	for i, x := range b {
		ok := keep(i, x)
		if len(a) == 0 && !copied {
			if ok {
				continue // the union is still a prefix of b
			}
			out = append(make([]T, 0, len(b)), b[:i]...)
			copied = true
			continue
		}
		if ok {
			if !copied {
				out = append(make([]T, 0, len(a)+len(b)), a...)
				copied = true
			}
			out = append(out, x)
		}
	}
	switch {
	case copied:
		return out
	case len(a) == 0:
		return b
	}
	return a
}

func containsKey[T any, K comparable](s []T, k K, key func(T) K) bool {
	for _, x := range s {
		if key(x) == k {
			return true
		}
	}
	return false
}

// LineOrigin returns the origin of line n of f (1-based), the zero Origin
// for a boilerplate line.
func (f File) LineOrigin(n int) Origin {
	i := sort.Search(len(f.Annotations), func(i int) bool { return f.Annotations[i].End >= n })
	if i < len(f.Annotations) && f.Annotations[i].Line <= n {
		return f.Annotations[i].Origin
	}
	return Origin{}
}

// Emitter turns a board into files. Emit must be deterministic: the same
// board yields the same bytes.
type Emitter struct {
	// Name identifies the emitter, e.g. "dts".
	Name string
	// Emit returns the files for the board.
	Emit func(b *ir.Board) []File
}

// SortFiles orders files by path.
func SortFiles(fs []File) {
	sort.Slice(fs, func(i, j int) bool { return fs[i].Path < fs[j].Path })
}

// BoardText names the board in a file's header, as comment text: "Board
// <name> (<model>), SoC <soc>", without the model when the board has none.
// The text adds the board, its model and its SoC to the origin of its
// lines.
func BoardText(b *ir.Board) Text {
	t := T(From(ir.RefBoard, b.Pos), "Board ", b.Name)
	if b.Model != "" {
		t = append(t, From(ir.RefModel), " (", b.Model, ")")
	}
	return append(t, From(ir.RefSoC, b.SoC.Pos), ", SoC ", b.SoC.Name)
}

// GeneratedNotice is the sentence every generated file carries in its
// header, without a version or a timestamp so that a new release does not
// rewrite outputs that did not change.
const GeneratedNotice = "Generated by boardc from the board description. DO NOT EDIT."
