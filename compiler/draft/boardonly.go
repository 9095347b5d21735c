package draft

import "boardc.dev/boardc/compiler/ir"

// BoardOn writes the board's file for an SoC package that exists already
// (boardc import onto a curated SoC): the board imports it and disables
// each of soc's masters whose node the tree disables, under soc's key; a
// master of the draft that the tree disables and soc does not describe is
// named in a comment. soc nil disables none (a first pass, before the SoC
// is read).
func (d *Draft) BoardOn(soc *ir.SoC) File {
	byPath := map[string]string{}
	if soc != nil {
		for _, m := range soc.Masters {
			byPath[m.Node.Path] = m.Key
		}
	}
	return File{Path: d.Board + "/board.cue", Data: d.g.boardFile(d.Board, d.SoCPackage, d.compat, byPath)}
}

// Unlisted is a DMA master of the tree that an SoC package does not
// describe.
type Unlisted struct {
	// Path is its node's path; Key the key a draft of the SoC gives it.
	Path, Key string
	// Enabled is false where the board's tree disables it.
	Enabled bool
}

// Unlisted returns the tree's DMA masters (as the draft finds them) whose
// node no master of soc names, by path.
func (d *Draft) Unlisted(soc *ir.SoC) []Unlisted {
	have := map[string]bool{}
	for _, m := range soc.Masters {
		have[m.Node.Path] = true
	}
	var out []Unlisted
	for _, m := range d.g.masters {
		if !have[m.Path] {
			out = append(out, Unlisted{Path: m.Path, Key: d.g.keys.of[m], Enabled: m.Enabled()})
		}
	}
	return out
}

// Master is one DMA master of a draft.
type Master struct {
	// Key is its key in soc.masters, Path its node's path, Compatible
	// its node's compatibles, most specific first (nil for none).
	Key, Path  string
	Compatible []string
}

// Masters returns the draft's DMA masters, in the draft's order.
func (d *Draft) Masters() []Master {
	out := make([]Master, 0, len(d.g.masters))
	for _, m := range d.g.masters {
		c, _ := m.Strings("compatible")
		out = append(out, Master{Key: d.g.keys.of[m], Path: m.Path, Compatible: c})
	}
	return out
}
