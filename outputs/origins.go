package outputs

import (
	"slices"
	"strconv"
	"strings"

	"boardc.dev/boardc/compiler/ir"
)

// Lines is the origin shared by some lines of a file: one entry of
// manifest.json's map of a file, and of the report's.
type Lines struct {
	// At lists the lines, numbered from 1, as runs "27-28,30,34".
	At string `json:"at"`
	// Refs are the description elements the lines are made from, as
	// diagnostics and waivers name them (soc.masters.crypto).
	Refs []ir.Ref `json:"refs,omitempty"`
	// Pos are the positions of the facts behind the lines, as src:line
	// relative to the description's CUE module root, as the lines'
	// comments print them.
	Pos []string `json:"pos,omitempty"`
}

// lineSet collects line runs and prints them as "27-28,30,34".
type lineSet struct{ runs [][2]int }

func (s *lineSet) add(first, last int) {
	if n := len(s.runs); n > 0 && s.runs[n-1][1] == first-1 {
		s.runs[n-1][1] = last
		return
	}
	s.runs = append(s.runs, [2]int{first, last})
}

func (s *lineSet) String() string {
	var b strings.Builder
	for i, r := range s.runs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(r[0]))
		if r[1] != r[0] {
			b.WriteString("-" + strconv.Itoa(r[1]))
		}
	}
	return b.String()
}

// short formats p as ir.Pos.Short does, src:line, without fmt: a large
// board's map has tens of thousands of them.
func short(p ir.Pos) string {
	if !p.IsValid() {
		return "-"
	}
	return posKey(p).src + ":" + strconv.Itoa(p.Line)
}

// Origins returns where f's lines come from, from its annotations: the
// lines of each origin, in the order of their first line (boilerplate
// lines are not listed), and the lines of each name.
func Origins(f File) ([]Lines, map[string]string) {
	type group struct {
		refs []ir.Ref
		pos  []ir.Pos
		at   lineSet
	}
	var groups []*group
	// Groups by a hash of their refs and positions; equal hashes are
	// told apart by content.
	byHash := map[uint64][]*group{}
	names := map[string]*lineSet{}
	for _, a := range f.Annotations {
		for _, n := range a.Names {
			if names[n] == nil {
				names[n] = &lineSet{}
			}
			names[n].add(a.Line, a.End)
		}
		if len(a.Refs) == 0 && len(a.Pos) == 0 {
			continue
		}
		h := originHash(a.Refs, a.Pos)
		var g *group
		for _, c := range byHash[h] {
			if slices.Equal(c.refs, a.Refs) && slices.EqualFunc(c.pos, a.Pos, func(x, y ir.Pos) bool { return posKey(x) == posKey(y) }) {
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
		l := Lines{At: g.at.String(), Refs: g.refs}
		if len(g.pos) > 0 {
			l.Pos = make([]string, len(g.pos))
			for i, p := range g.pos {
				l.Pos[i] = short(p)
			}
		}
		lines = append(lines, l)
	}
	var at map[string]string
	if len(names) > 0 {
		at = make(map[string]string, len(names))
		for n, s := range names {
			at[n] = s.String()
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
		k := posKey(p)
		mix(k.src)
		h ^= uint64(k.line)
		h *= 1099511628211
	}
	return h
}
