package main

import "boardc.dev/boardc/compiler/ir"

// fact is one statement of a board description, at its CUE position,
// and the element it is about.
type fact struct {
	pos  ir.Pos
	ref  ir.Ref
	text string
}

// boardFacts lists the facts of b that explain can show, in description
// order, as the board's walk (ir.Board.All) yields them.
func boardFacts(b *ir.Board) []fact {
	var fs []fact
	for e := range b.All() {
		for _, f := range e.Facts {
			fs = append(fs, fact{f.Pos, e.Ref, f.Text})
		}
	}
	return fs
}

// coherenceText says how a master's effective coherency was decided.
func coherenceText(m *ir.Master) string {
	switch m.Coherence() {
	case ir.Inherited:
		return "coherent, inherited from bus " + m.Bus.Key + " (dma-coherent)"
	case ir.Verified:
		return "coherent, verified for this master (dma-coherent)"
	case ir.OptedOut:
		return "not coherent: the master opts out on a coherent bus"
	case ir.Unverified:
		return "not coherent: bus " + m.Bus.Key + " covers only verified masters and this one has no fact"
	}
	return "not coherent: bus " + m.Bus.Key + " cannot snoop the CPU caches"
}
