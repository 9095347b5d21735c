package outputs

import (
	"slices"

	"boardc.dev/boardc/compiler/ir"
)

// Origins returns where f's lines come from, from its annotations: the
// lines of each origin, in the order of their first line (boilerplate
// lines are not listed), and the lines of each name.
func Origins(f File) ([]Lines, map[string]Runs) {
	type group struct {
		refs []ir.Ref
		pos  []ir.Pos
		at   Runs
	}
	var groups []*group
	// Groups by a hash of their refs and positions; equal hashes are
	// told apart by content.
	byHash := map[uint64][]*group{}
	names := map[string]*Runs{}
	for _, a := range f.Annotations {
		for _, n := range a.Names {
			if names[n] == nil {
				names[n] = &Runs{}
			}
			names[n].add(a.Line, a.End)
		}
		if len(a.Refs) == 0 && len(a.Pos) == 0 {
			continue
		}
		h := originHash(a.Refs, a.Pos)
		var g *group
		for _, c := range byHash[h] {
			if slices.Equal(c.refs, a.Refs) && slices.EqualFunc(c.pos, a.Pos, func(x, y ir.Pos) bool { return SrcLineOf(x) == SrcLineOf(y) }) {
				g = c
				break
			}
		}
		if g == nil {
			g = &group{refs: a.Refs, pos: a.Pos}
			byHash[h] = append(byHash[h], g)
			groups = append(groups, g)
		}
		g.at.add(a.Line, a.End)
	}
	lines := make([]Lines, 0, len(groups))
	for _, g := range groups {
		l := Lines{Runs: g.at, Refs: g.refs}
		if len(g.pos) > 0 {
			l.Pos = make([]SrcLine, len(g.pos))
			for i, p := range g.pos {
				l.Pos[i] = SrcLineOf(p)
			}
		}
		lines = append(lines, l)
	}
	var at map[string]Runs
	if len(names) > 0 {
		at = make(map[string]Runs, len(names))
		for n, s := range names {
			at[n] = *s
		}
	}
	return lines, at
}

// originHash hashes refs and the src:line of pos (FNV-1a).
func originHash(refs []ir.Ref, pos []ir.Pos) uint64 {
	h := uint64(14695981039346656037)
	mix := func(s string) {
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= 1099511628211
		}
		h ^= 0xff
		h *= 1099511628211
	}
	for _, r := range refs {
		mix(string(r))
	}
	h ^= 0xfe
	for _, p := range pos {
		k := SrcLineOf(p)
		mix(k.Src)
		h ^= uint64(k.Line)
		h *= 1099511628211
	}
	return h
}
