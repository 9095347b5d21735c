package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"boardc.dev/boardc/compiler"
	"boardc.dev/boardc/compiler/check"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

func newExplain() *cobra.Command {
	return &cobra.Command{
		Use:   "explain BOARD WHAT",
		Short: "Trace a master, property, C symbol or runtime path back to the description",
		Long: `explain compiles BOARD in memory and prints where WHAT comes from: the CUE
facts behind it with their positions, what the checks reported about it,
and every generated line that came from it, as <board>/<file>:<line>.

WHAT is one of:
  a DMA master or bus, by key, label or path   crypto, /soc/bus@d0000000
  a DT property, alone or of one master        dma-coherent, crypto/dma-coherent
  a generated C symbol                         boardc_espressobin_crypto_dma_setup
  a runtime path, IRQ name or sysctl           /sys/class/net/eth0/queues/rx-0/rps_cpus

For a master the facts are its node, bus and that bus's coherency fact,
DMA width, its own coherency fact, IRQs, network devices, and the runtime
policy that names them. Generated lines are those that mention WHAT (or
the master) and those whose provenance comment names one of its facts.

Exit status: 0 when something matched, 1 when WHAT matches nothing or the
board does not load, 2 usage error.`,
		Example: `  boardc explain boards/espressobin crypto
  boardc explain boards/espressobin crypto/dma-coherent
  boardc explain boards/ls2088a-rdb dma-coherent
  boardc explain boards/espressobin boardc_espressobin_crypto_dma_setup
  boardc explain boards/espressobin /sys/class/net/eth0/queues/rx-0/rps_cpus`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			comp, err := compiler.New()
			if err != nil {
				return err
			}
			r := comp.Compile(args[0], compiler.Options{})
			if r.Board == nil {
				if err := r.Diagnostics.WriteText(cmd.ErrOrStderr()); err != nil {
					return err
				}
				return exitError{exitDiags}
			}
			if !explain(cmd.OutOrStdout(), r, args[1]) {
				fmt.Fprintf(cmd.ErrOrStderr(), "boardc explain: nothing on board %s matches %q (not a master, bus, property, symbol, path, IRQ or sysctl it generates)\n", r.Board.Name, args[1])
				return exitError{exitDiags}
			}
			return nil
		},
	}
}

// query is what explain looks for.
type query struct {
	what     string
	owners   map[string]bool // fact owners WHAT is about
	master   *ir.Master      // the master WHAT is or belongs to, if any
	prop     string          // the DT property of "master/prop"
	ownLines bool            // WHAT names a master or bus: match lines by its names
}

// explain writes the chain behind what and reports whether anything
// matched.
func explain(w io.Writer, r *compiler.Result, what string) bool {
	b := r.Board
	q := resolve(b, what)
	facts := boardFacts(b)
	lines := generatedLines(r, q, facts)
	chain := selectFacts(b, facts, q.owners, q.ownLines)
	if len(chain) == 0 {
		// WHAT names no element (a bare property such as dma-coherent):
		// the facts named by the provenance of the lines it is on join
		// the chain, with the masters or buses they belong to.
		for _, l := range lines {
			for _, f := range facts {
				if l.names(f.pos) && f.owner != "board" {
					q.owners[f.owner] = true
				}
			}
		}
		chain = selectFacts(b, facts, q.owners, false)
	}
	ds := relatedDiags(r.Diagnostics, q, chain)
	// A generated line alone does not count: the word may just occur in
	// a comment or help text. Something matches when it leads to a fact.
	if len(chain) == 0 {
		return false
	}

	fmt.Fprintf(w, "%s on board %s\n\nfacts:\n", what, b.Name)
	for _, f := range chain {
		fmt.Fprintf(w, "  %s: %s\n", f.pos, f.text)
	}
	for _, m := range b.SoC.Masters {
		if q.owners["master:"+m.Key] {
			fmt.Fprintf(w, "  => master %s: %s\n", m.Key, coherenceText(m))
		}
	}
	fmt.Fprintf(w, "\nchecks: %d ran, %d reported on it\n", len(check.All()), len(ds))
	if len(ds) > 0 {
		var buf bytes.Buffer
		ds.WriteText(&buf)
		fmt.Fprintln(w, indent(strings.TrimSuffix(buf.String(), "\n"), "  "))
	}
	fmt.Fprintf(w, "\ngenerated:\n")
	switch {
	case len(r.Files) == 0:
		fmt.Fprintf(w, "  nothing (the description has errors)\n")
	case len(lines) == 0:
		fmt.Fprintf(w, "  no line\n")
	}
	for _, l := range lines {
		fmt.Fprintf(w, "  %s/%s:%d: %s\n", b.Name, l.file, l.n, strings.TrimSpace(l.text))
	}
	return true
}

// resolve works out which facts what is about.
func resolve(b *ir.Board, what string) *query {
	q := &query{what: what, owners: map[string]bool{}}
	master := func(name string) *ir.Master {
		for _, m := range b.SoC.Masters {
			if m.Key == name || m.Node.Path == name || (m.Node.Label != "" && m.Node.Label == name) {
				return m
			}
		}
		return nil
	}
	setMaster := func(m *ir.Master) {
		q.master = m
		q.owners["master:"+m.Key] = true
	}
	if m := master(what); m != nil {
		setMaster(m)
		q.ownLines = true
	}
	for _, bus := range b.SoC.Buses {
		if bus.Key == what || bus.Node.Path == what || (bus.Node.Label != "" && bus.Node.Label == what) {
			q.owners["bus:"+bus.Key] = true
			q.ownLines = true
		}
	}
	if k, p, ok := strings.Cut(what, "/"); ok && k != "" {
		if m := master(k); m != nil {
			setMaster(m)
			q.prop = p
		}
	}
	if rest, ok := strings.CutPrefix(what, "boardc_"+b.CIdent()+"_"); ok {
		var best *ir.Master
		for _, m := range b.SoC.Masters {
			c := ir.CIdent(m.Key)
			if (rest == c || strings.HasPrefix(rest, c+"_")) && (best == nil || len(c) > len(ir.CIdent(best.Key))) {
				best = m
			}
		}
		if best != nil {
			setMaster(best)
		}
	}
	netdev := what
	if rest, ok := strings.CutPrefix(what, "/sys/class/net/"); ok {
		netdev, _, _ = strings.Cut(rest, "/")
	}
	for _, m := range b.SoC.Masters {
		for _, n := range m.NetDevs {
			if n.Name == netdev {
				setMaster(m)
			}
		}
		for _, irq := range m.IRQs {
			if irq.Name == what {
				setMaster(m)
			}
		}
	}
	q.owners["net:"+netdev] = true
	q.owners["irq:"+what] = true
	key := what
	if rest, ok := strings.CutPrefix(what, "/proc/sys/"); ok {
		key = strings.ReplaceAll(rest, "/", ".")
	}
	q.owners["sysctl:"+key] = true
	return q
}

// selectFacts returns the facts of the owners, after adding the buses of
// every master among them and, with policy, the runtime policy of its
// network devices and IRQs.
func selectFacts(b *ir.Board, facts []fact, owners map[string]bool, policy bool) []fact {
	expandMasters(b, owners, policy)
	var chain []fact
	for _, f := range facts {
		if owners[f.owner] {
			chain = append(chain, f)
		}
	}
	return chain
}

// expandMasters adds to owners the buses of every master in it and, with
// policy, the runtime policy of the master's network devices and IRQs.
func expandMasters(b *ir.Board, owners map[string]bool, policy bool) {
	for _, m := range b.SoC.Masters {
		if !owners["master:"+m.Key] {
			continue
		}
		owners["bus:"+m.Bus.Key] = true
		for _, a := range m.Bus.Ancestors() {
			owners["bus:"+a.Key] = true
		}
		if !policy {
			continue
		}
		for _, n := range m.NetDevs {
			owners["net:"+n.Name] = true
		}
		for _, irq := range m.IRQs {
			owners["irq:"+irq.Name] = true
		}
	}
}

// genLine is one line of a generated file.
type genLine struct {
	file string
	n    int
	text string
	prov map[string]bool // src:line positions its provenance names
}

// names reports whether the line's provenance names pos.
func (l genLine) names(pos ir.Pos) bool { return l.prov[pos.Short()] }

var provenance = regexp.MustCompile(`[A-Za-z0-9_.+@-][A-Za-z0-9_./+@-]*\.cue:[0-9]+`)

// blockStart matches the node reference opening a device-tree block.
var blockStart = regexp.MustCompile(`^\s*(&\S+|&\{[^}]*\})\s*\{`)

// generatedLines returns the generated lines that come from q.
func generatedLines(r *compiler.Result, q *query, facts []fact) []genLine {
	// own holds the src:line of the master's own facts, leaving out
	// positions other elements share (a fact stated once for many).
	own := map[string]bool{}
	var names []*regexp.Regexp
	if q.master != nil {
		owners := map[string]map[string]bool{}
		for _, f := range facts {
			p := f.pos.Short()
			if owners[p] == nil {
				owners[p] = map[string]bool{}
			}
			owners[p][f.owner] = true
		}
		for _, f := range facts {
			if p := f.pos.Short(); f.owner == "master:"+q.master.Key && len(owners[p]) == 1 {
				own[p] = true
			}
		}
		names = append(names, wordRE(q.master.Key))
		if l := q.master.Node.Label; l != "" && l != q.master.Key {
			names = append(names, wordRE(l))
		}
	}
	if q.ownLines && q.master == nil {
		if q.what == "/" {
			// The root node's path is part of every path and comment
			// opener: the bus on the root is matched by the provenance
			// of its facts instead.
			for _, f := range facts {
				if q.owners[f.owner] && strings.HasPrefix(f.owner, "bus:") {
					own[f.pos.Short()] = true
				}
			}
		} else {
			names = append(names, wordRE(q.what))
		}
	}
	whatRE := wordRE(q.what)
	var out []genLine
	for _, f := range r.Files {
		sc := bufio.NewScanner(bytes.NewReader(f.Data))
		sc.Buffer(nil, 1<<20)
		block := ""
		for n := 1; sc.Scan(); n++ {
			l := genLine{file: f.Path, n: n, text: sc.Text(), prov: map[string]bool{}}
			for _, p := range provenance.FindAllString(l.text, -1) {
				l.prov[p] = true
			}
			if m := blockStart.FindStringSubmatch(l.text); m != nil {
				block = m[1]
			}
			var match bool
			switch {
			case q.prop != "":
				match = strings.Contains(l.text, q.prop) &&
					(block == q.master.Node.Ref() || anyMatch(names, l.text))
			case q.ownLines:
				match = anyMatch(names, l.text)
				for p := range l.prov {
					match = match || own[p]
				}
			default:
				match = whatRE.MatchString(l.text)
			}
			if strings.HasPrefix(strings.TrimSpace(l.text), "};") {
				block = ""
			}
			if match {
				out = append(out, l)
			}
		}
	}
	return out
}

// relatedDiags returns the diagnostics at the position of a fact of the
// chain or whose message names what or the master.
func relatedDiags(ds diag.List, q *query, chain []fact) diag.List {
	at := map[string]bool{}
	for _, f := range chain {
		at[fmt.Sprintf("%s:%d", f.pos.File, f.pos.Line)] = true
	}
	res := []*regexp.Regexp{wordRE(q.what)}
	if q.master != nil {
		res = append(res, wordRE(q.master.Key))
	}
	var out diag.List
	for _, d := range ds {
		if at[fmt.Sprintf("%s:%d", d.Pos.File, d.Pos.Line)] || anyMatch(res, d.Message) {
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Severity > out[j].Severity })
	return out
}

// wordRE matches s where it is not part of a longer name: not preceded or
// followed by a letter or digit.
func wordRE(s string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[^A-Za-z0-9])` + regexp.QuoteMeta(s) + `($|[^A-Za-z0-9])`)
}

func anyMatch(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}
