// Package explain traces what a compiled board makes back to its
// description: given an element, a DMA master or bus, a DT property, a C
// symbol, a runtime path, an IRQ name or a sysctl, it finds the elements
// behind it, their facts with their CUE positions (as the board's walk,
// ir.Board.All, yields them), what the checks reported about them, and
// every generated line made from them, as the manifest records it.
//
// It reads a boardc.Result and nothing else: it never loads, never
// writes. boardc explain prints what it finds.
package explain

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// Explanation is what Explain finds for WHAT. Its fields carry the JSON
// names of boardc explain --json, but for Diagnostics, which the command
// prints as its --format=json does.
type Explanation struct {
	What  string `json:"what"`
	Board string `json:"board"`
	// Facts are the description's facts behind WHAT, with their
	// positions, in description order.
	Facts []Fact `json:"facts"`
	// Masters are the masters WHAT names, with their coherence.
	Masters []Master `json:"masters"`
	// Drivers are the driver-facts catalogue's facts behind Masters, from
	// the catalogue the board was checked against; none without one.
	Drivers []Driver `json:"drivers,omitempty"`
	// ChecksRan is how many checks ran on the board.
	ChecksRan int `json:"checksRan"`
	// Diagnostics are the findings about WHAT, most severe first.
	Diagnostics diag.List `json:"-"`
	// Generated are the generated lines made from WHAT.
	Generated []Line `json:"generated"`
	// Files is how many files the board made: none when its description
	// has errors.
	Files int `json:"-"`
}

// Fact is one fact of the description: its position as diagnostics
// print it, the element it is about, and what it says.
type Fact struct {
	Pos  string `json:"pos"`
	Ref  string `json:"ref"`
	Text string `json:"text"`
}

// Master is a master WHAT names and how its coherency was decided.
type Master struct {
	Key       string `json:"key"`
	Coherence string `json:"coherence"`
}

// Line is a generated line: its file below OUT/<board>/, its number from
// 1, its text.
type Line struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// Explain works out the chain behind what on the compiled board r, or
// returns nil when nothing matches (or r has no board).
func Explain(r *boardc.Result, what string) *Explanation {
	b := r.Board
	if b == nil {
		return nil
	}
	q := resolve(b, r.Manifest, what)
	if len(q.refs) == 0 {
		return nil
	}
	shown := withBuses(b, q.refs)
	e := &Explanation{
		What:        what,
		Board:       b.Name,
		Facts:       []Fact{},
		Masters:     []Master{},
		ChecksRan:   len(r.Checks),
		Diagnostics: relatedDiags(r.Diagnostics, shown),
		Generated:   generatedLines(r.Manifest, r.Files, q.lineRefs(), q.name),
		Files:       len(r.Files),
	}
	for el := range b.All() {
		if !shown.has(el.Ref) {
			continue
		}
		for _, f := range el.Facts {
			e.Facts = append(e.Facts, Fact{Pos: f.Pos.String(), Ref: string(el.Ref), Text: f.Text})
		}
	}
	for _, m := range b.SoC.Masters {
		if q.refs.has(m.Ref()) {
			e.Masters = append(e.Masters, Master{Key: m.Key, Coherence: CoherenceText(m)})
		}
	}
	e.Drivers = drivers(r.Kernel, b, e.Masters)
	return e
}

// WriteText writes the explanation as boardc explain prints it.
func (e *Explanation) WriteText(w io.Writer) error {
	var out bytes.Buffer
	fmt.Fprintf(&out, "%s on board %s\n\nfacts:\n", e.What, e.Board)
	if len(e.Facts) == 0 {
		fmt.Fprintf(&out, "  none with a position\n")
	}
	for _, f := range e.Facts {
		fmt.Fprintf(&out, "  %s: %s\n", f.Pos, f.Text)
	}
	for _, m := range e.Masters {
		fmt.Fprintf(&out, "  => master %s: %s\n", m.Key, m.Coherence)
	}
	if len(e.Drivers) > 0 {
		fmt.Fprintf(&out, "\ndrivers (the driver-facts catalogue of Linux %s):\n", e.Drivers[0].Kernel)
		writeDrivers(&out, e.Drivers)
	}
	fmt.Fprintf(&out, "\nchecks: %d ran, %d reported on it\n", e.ChecksRan, len(e.Diagnostics))
	if len(e.Diagnostics) > 0 {
		var buf bytes.Buffer
		if err := e.Diagnostics.WriteText(&buf); err != nil {
			return err
		}
		text := strings.TrimSuffix(buf.String(), "\n")
		fmt.Fprintln(&out, "  "+strings.ReplaceAll(text, "\n", "\n  "))
	}
	fmt.Fprintf(&out, "\ngenerated:\n")
	switch {
	case e.Files == 0:
		fmt.Fprintf(&out, "  nothing (the description has errors)\n")
	case len(e.Generated) == 0:
		fmt.Fprintf(&out, "  no line\n")
	}
	for _, l := range e.Generated {
		fmt.Fprintf(&out, "  %s/%s:%d: %s\n", e.Board, l.File, l.Line, strings.TrimSpace(l.Text))
	}
	_, err := w.Write(out.Bytes())
	return err
}

// CoherenceText says how a master's effective coherency was decided.
func CoherenceText(m *ir.Master) string {
	if d := m.DMADevice; d != nil {
		return "as master " + d.Key + "'s node says (dmaDevice): " + CoherenceText(d)
	}
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

// relatedDiags returns the diagnostics about the elements of refs, most
// severe first.
func relatedDiags(ds diag.List, refs refSet) diag.List {
	var out diag.List
	for _, d := range ds {
		if d.Ref != "" && refs.has(d.Ref) {
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Severity > out[j].Severity })
	return out
}
