package main

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/outputs"
)

func newExplain() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "explain [--json] BOARD WHAT",
		Short: "Trace an element, property, C symbol or runtime path back to the description",
		Long: `explain compiles BOARD in memory and prints where WHAT comes from: the CUE
facts behind it with their positions, what the checks reported about it,
and every generated line that came from it, as <board>/<file>:<line>.

WHAT is one of:
  an element, by its path in the description  soc.masters.crypto, policy.irqs[0],
                                              policy.sysctls."net.core.netdev_budget"
  a DMA master or bus, by key, label or path   crypto, /soc/bus@d0000000
  a DT property, alone or of one master        dma-coherent, crypto/dma-coherent
  a generated C symbol                         boardc_espressobin_dma_caps_marvell_armada_3700_neta
  a runtime path, IRQ name or sysctl           /sys/class/net/eth0/queues/rx-0/rps_cpus

WHAT is resolved to elements through the board's description and the
names the outputs define or set (properties, symbols, paths); the
generated lines are those the outputs record as made from those
elements, as manifest.json lists them. For a master the facts are its
node, bus and that bus's coherency fact, DMA width, its own coherency
fact, IRQs, network devices, and the runtime policy that names them.

--json prints the same as one JSON object: what, board, facts (pos, ref,
text), masters (key, coherence), checksRan, diagnostics (as --format=json
prints them), generated (file, line, text).

Exit status: 0 when something matched, 1 when WHAT matches nothing or the
board does not load, 2 usage error.`,
		Example: `  boardc explain boards/espressobin crypto
  boardc explain boards/espressobin soc.masters.crypto
  boardc explain boards/espressobin crypto/dma-coherent
  boardc explain boards/ls2088a-rdb dma-coherent
  boardc explain boards/espressobin boardc_espressobin_dma_caps_marvell_armada_3700_neta
  boardc explain boards/espressobin /sys/class/net/eth0/queues/rx-0/rps_cpus`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			comp, err := boardc.New()
			if err != nil {
				return err
			}
			r := comp.Compile(args[0], boardc.Options{})
			if r.Board == nil {
				if err := r.Diagnostics.WriteText(cmd.ErrOrStderr()); err != nil {
					return err
				}
				return exitError{exitDiags}
			}
			e := explainWhat(r, args[1])
			switch {
			case e == nil:
				fmt.Fprintf(cmd.ErrOrStderr(), "boardc explain: nothing on board %s matches %q (not an element, master, bus, property, symbol, path, IRQ or sysctl it generates)\n", r.Board.Name, args[1])
				return exitError{exitDiags}
			case asJSON:
				return printJSON(cmd.OutOrStdout(), e)
			}
			e.writeText(cmd.OutOrStdout())
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the explanation as a JSON object")
	return c
}

// explanation is what explain finds for WHAT; its JSON form is the
// output of explain --json.
type explanation struct {
	What  string `json:"what"`
	Board string `json:"board"`
	// Facts are the CUE facts behind WHAT, with their positions.
	Facts []explainFact `json:"facts"`
	// Masters are the masters WHAT names, with their coherence.
	Masters []explainMaster `json:"masters"`
	// ChecksRan is how many checks ran; Diagnostics are those about WHAT,
	// most severe first.
	ChecksRan   int        `json:"checksRan"`
	Diagnostics []jsonDiag `json:"diagnostics"`
	// Generated are the generated lines that came from WHAT.
	Generated []explainLine `json:"generated"`

	diags diag.List
	files int
}

type explainFact struct {
	Pos  string `json:"pos"`
	Ref  string `json:"ref"`
	Text string `json:"text"`
}

type explainMaster struct {
	Key       string `json:"key"`
	Coherence string `json:"coherence"`
}

// explainLine is a generated line: its file below OUT/<board>/, its
// number from 1, its text.
type explainLine struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// explainWhat works out the chain behind what, or returns nil when
// nothing matches.
func explainWhat(r *boardc.Result, what string) *explanation {
	b := r.Board
	q := resolve(b, r.Files, what)
	if len(q.refs) == 0 {
		return nil
	}
	shown := withBuses(b, q.refs)
	e := &explanation{
		What:      what,
		Board:     b.Name,
		Facts:     []explainFact{},
		Masters:   []explainMaster{},
		ChecksRan: len(r.Checks),
		diags:     relatedDiags(r.Diagnostics, shown),
		Generated: generatedLines(r.Files, q.lineRefs(), q.name),
		files:     len(r.Files),
	}
	for _, f := range selectFacts(boardFacts(b), shown) {
		e.Facts = append(e.Facts, explainFact{Pos: f.pos.String(), Ref: string(f.ref), Text: f.text})
	}
	for _, m := range b.SoC.Masters {
		if q.refs.has(m.Ref()) {
			e.Masters = append(e.Masters, explainMaster{Key: m.Key, Coherence: coherenceText(m)})
		}
	}
	e.Diagnostics = jsonDiags(e.diags)
	return e
}

// writeText writes the explanation as explain prints it.
func (e *explanation) writeText(w io.Writer) {
	fmt.Fprintf(w, "%s on board %s\n\nfacts:\n", e.What, e.Board)
	if len(e.Facts) == 0 {
		fmt.Fprintf(w, "  none with a position\n")
	}
	for _, f := range e.Facts {
		fmt.Fprintf(w, "  %s: %s\n", f.Pos, f.Text)
	}
	for _, m := range e.Masters {
		fmt.Fprintf(w, "  => master %s: %s\n", m.Key, m.Coherence)
	}
	fmt.Fprintf(w, "\nchecks: %d ran, %d reported on it\n", e.ChecksRan, len(e.diags))
	if len(e.diags) > 0 {
		var buf bytes.Buffer
		e.diags.WriteText(&buf)
		fmt.Fprintln(w, indent(strings.TrimSuffix(buf.String(), "\n"), "  "))
	}
	fmt.Fprintf(w, "\ngenerated:\n")
	switch {
	case e.files == 0:
		fmt.Fprintf(w, "  nothing (the description has errors)\n")
	case len(e.Generated) == 0:
		fmt.Fprintf(w, "  no line\n")
	}
	for _, l := range e.Generated {
		fmt.Fprintf(w, "  %s/%s:%d: %s\n", e.Board, l.File, l.Line, strings.TrimSpace(l.Text))
	}
}

// generatedLines returns the lines the outputs record as made from the
// elements of refs (and, with a name, defining or setting it); an empty
// list, not nil, when there is none.
func generatedLines(files []outputs.File, refs refSet, name string) []explainLine {
	out := []explainLine{}
	for _, f := range files {
		var text []string
		for _, a := range f.Annotations {
			if !refs.any(a.Refs) || name != "" && !hasName(a.Origin, name) {
				continue
			}
			if text == nil {
				text = strings.Split(string(f.Data), "\n")
			}
			for n := a.Line; n <= a.End && n <= len(text); n++ {
				out = append(out, explainLine{File: f.Path, Line: n, Text: text[n-1]})
			}
		}
	}
	return out
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
