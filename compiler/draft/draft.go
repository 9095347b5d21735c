package draft

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/kernel"
)

// Options name what the draft is and where it goes.
type Options struct {
	// Source is the tree's file as the draft's sources name it, e.g.
	// arch/arm64/boot/dts/marvell/armada-3720-espressobin.dts.
	Source string
	// DTS is the board's dts: (a path in the Linux tree), "" when the
	// tree came from elsewhere.
	DTS string
	// Board and SoC are the names; "" derives them from the source's stem
	// and the root's second compatible.
	Board, SoC string
	// Module is the CUE module the packages are written in, e.g.
	// "boardc.dev/boards" (without a major version suffix).
	Module string
	// Kernel is the driver-facts catalogue the draft is filled from: each
	// master's driver, DMA widths, driverSets and, where certain, IRQ
	// names, from the driver that binds its compatibles; the board names
	// its series. nil: the draft leaves them as TODOs.
	Kernel *kernel.Catalog
}

// File is one file of the draft, its path relative to the module root.
type File struct {
	Path string
	Data []byte
}

// Draft is what Generate writes.
type Draft struct {
	Board, SoC string
	// SoCPackage is the SoC package's name and directory (soc/NAME).
	SoCPackage string
	// Files are the SoC's and the board's files, SoC first.
	Files []File

	g      *gen
	compat []string
}

var boardNameRE = regexp.MustCompile(`^[a-z][a-z0-9-]{0,62}$`)

// nameOf turns s into a #BoardName, or "" when nothing is left.
func nameOf(s string) string {
	b := []byte(strings.ToLower(s))
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			b[i] = '-'
		}
	}
	n := strings.Trim(string(b), "-")
	for n != "" && !(n[0] >= 'a' && n[0] <= 'z') {
		n = n[1:]
	}
	if len(n) > 63 {
		n = n[:63]
	}
	if !boardNameRE.MatchString(n) {
		return ""
	}
	return n
}

// boardFields are the top-level fields of the schema's #Board, which the
// board file declares beside the SoC package it imports.
var boardFields = map[string]bool{
	"schema": true, "name": true, "model": true, "compatible": true, "dts": true, "kernel": true,
	"soc": true, "memory": true, "policy": true, "waivers": true,
}

// pkgOf turns a name into a CUE package name: its letters and digits,
// followed by "pkg" where they spell a keyword or predeclared identifier.
func pkgOf(name string) string {
	p := strings.ReplaceAll(name, "-", "")
	if reserved[p] {
		p += "pkg"
	}
	return p
}

// squash keeps the letters and digits of s, in lower case.
func squash(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// socCompatibles returns the SoC's compatibles among the root's, most
// specific first: the entries after the last one that names the board,
// after the board family's entries that extend a later entry with "-"
// (armada8040-mcbin before armada8040 on armada-8040-mcbin-singleshot),
// and after the board vendor's own entries where the SoC's vendor differs
// (solidrun,cn9130-clearfog before marvell,cn9130). The first entry is
// always the board's, the last the SoC's. A compatible names the board when, letters and
// digits only, it holds the board's name or the board's name ends with it
// (armada8040-mcbin on armada-8040-mcbin, rock-5b on rk3588-rock-5b).
// On armada-8040-mcbin ("marvell,armada8040-mcbin", "marvell,armada8040",
// "marvell,armada-ap806-quad", "marvell,armada-ap806") that is every
// entry from "marvell,armada8040" on.
func socCompatibles(compat []string, board string) []string {
	if len(compat) < 2 {
		return []string{}
	}
	stem := squash(board)
	vendor := func(c string) string { v, _, _ := strings.Cut(c, ","); return v }
	last := 0
	for i, c := range compat {
		_, after, _ := strings.Cut(c, ",")
		if p := squash(after); p != "" && (strings.Contains(p, stem) || strings.HasSuffix(stem, p)) {
			last = i
		}
	}
	// A board family's entry extends a later one with "-":
	// armada8040-mcbin before armada8040.
	part := func(c string) string { _, after, _ := strings.Cut(c, ","); return after }
	for extends := true; extends && last+2 < len(compat); {
		extends = false
		for _, c := range compat[last+2:] {
			if p := part(c); p != "" && strings.HasPrefix(part(compat[last+1]), p+"-") {
				extends = true
			}
		}
		if extends {
			last++
		}
	}
	// The last entry is the SoC's, whatever it spells.
	last = min(last, len(compat)-2)
	socVendor := vendor(compat[len(compat)-1])
	if bv := vendor(compat[0]); bv != socVendor {
		for last+1 < len(compat)-1 && vendor(compat[last+1]) == bv {
			last++
		}
	}
	return append([]string{}, compat[last+1:]...)
}

// SoCName picks the SoC's name from the root's compatibles: the first of
// the SoC's (socCompatibles), else the last compatible. On the
// MACCHIATObin board armada-8040-mcbin it is armada8040.
func SoCName(compat []string, board string) string {
	if soc := socCompatibles(compat, board); len(soc) > 0 {
		_, after, _ := strings.Cut(soc[0], ",")
		return nameOf(after)
	}
	if len(compat) > 0 {
		_, after, _ := strings.Cut(compat[len(compat)-1], ",")
		return nameOf(after)
	}
	return ""
}

// MaxElements is the most DMA masters and buses a draft holds. Real SoCs
// have 10 to 300 masters (the largest arm64 board of Linux v7.1 drafts
// under 1,000); a tree of many thousands is no board's, and its draft
// would run to tens of megabytes.
const MaxElements = 20000

// Generate writes the draft of t's SoC and board.
func Generate(t *basetree.Tree, o Options) (*Draft, error) {
	root := t.Node("/")
	compat, _ := root.Strings("compatible")
	board := o.Board
	if board == "" {
		board = nameOf(strings.TrimSuffix(path.Base(o.Source), path.Ext(o.Source)))
	}
	soc := o.SoC
	if soc == "" {
		soc = SoCName(compat, board)
	}
	if nameOf(board) != board || board == "" {
		return nil, fmt.Errorf("board name %q is not a board name (lower-case letters, digits and -, starting with a letter): give one with --board", board)
	}
	if nameOf(soc) != soc || soc == "" {
		return nil, fmt.Errorf("SoC name %q is not a name (lower-case letters, digits and -, starting with a letter): give one with --soc", soc)
	}
	socPkg := pkgOf(soc)
	if socPkg == pkgOf(board) {
		socPkg += "soc"
	}
	if boardFields[socPkg] {
		// The board file imports the SoC package by its name: one
		// spelling a top-level field of #Board is redeclared there.
		socPkg += "pkg"
	}
	g := &gen{t: t, o: o, board: board, keys: newKeys()}
	g.scan()
	if n := len(g.masters) + len(g.buses); n > MaxElements {
		return nil, fmt.Errorf("the tree has %d DMA masters and buses, more than the %d a draft holds: it is not a board's tree", n, MaxElements)
	}
	d := &Draft{Board: board, SoC: soc, SoCPackage: socPkg, g: g, compat: compat}
	d.Files = append(d.Files,
		File{Path: "soc/" + socPkg + "/" + socPkg + ".cue", Data: g.socFile(soc, socPkg, compat)},
		File{Path: board + "/board.cue", Data: g.boardFile(board, socPkg, compat, nil)},
	)
	return d, nil
}

// gen holds what the scan found.
type gen struct {
	t       *basetree.Tree
	o       Options
	board   string
	keys    *keys
	masters []*basetree.Node
	// bridges are the masters drafted as PCIe host bridges.
	bridges []*basetree.Node
	buses   []*basetree.Node                  // sorted by path
	busOf   map[*basetree.Node]*basetree.Node // master or bus -> its bus (nil: under the root)
	onBus   map[*basetree.Node][]*basetree.Node
}

// scan finds the masters and the buses they sit on: each master's parent
// node, and that node's parents up to the root (the root itself only when
// a master sits directly under it).
func (g *gen) scan() {
	g.masters, g.bridges = masters(g.t)
	g.busOf = map[*basetree.Node]*basetree.Node{}
	g.onBus = map[*basetree.Node][]*basetree.Node{}
	seen := map[*basetree.Node]bool{}
	// A bus is drafted for its masters, and for its own dma-coherent
	// even when no master of the draft sits on it (Marvell AC5's
	// /soc/bus@7f000000): the fact is upstream's, and the fragment
	// keeps it there (flagAt).
	starts := append([]*basetree.Node(nil), g.masters...)
	for _, p := range g.t.Paths() {
		if n := g.t.Node(p); p != "/" && isBusNode(n) && n.Has("dma-coherent") {
			starts = append(starts, n)
		}
	}
	for _, m := range starts {
		b := m.Parent
		if isBusNode(m) && m.Has("dma-coherent") && !slices.Contains(g.masters, m) {
			b = m
		} else {
			g.busOf[m] = b
			g.onBus[b] = append(g.onBus[b], m)
		}
		for n := b; n != nil && !seen[n]; n = n.Parent {
			if n.Path == "/" && n != b {
				break
			}
			seen[n] = true
			g.buses = append(g.buses, n)
			if n.Parent != nil && n.Parent.Path != "/" {
				g.busOf[n] = n.Parent
			}
		}
	}
	sort.Slice(g.buses, func(i, j int) bool { return g.buses[i].Path < g.buses[j].Path })
	for _, n := range append(append([]*basetree.Node(nil), g.buses...), g.masters...) {
		g.keys.key(g.t, n)
	}
}

// coherentOn reports how many masters on bus carry dma-coherent.
func (g *gen) coherentOn(bus *basetree.Node) int {
	n := 0
	for _, m := range g.onBus[bus] {
		if m.Has("dma-coherent") {
			n++
		}
	}
	return n
}

// busCoherent returns the node whose dma-coherent makes the whole bus
// coherent, the bus itself or a node above it up to the root, as
// of_dma_is_coherent() (drivers/of/address.c) finds it walking up from
// each device on the bus; nil when none does (or a dma-noncoherent comes
// first).
func busCoherent(bus *basetree.Node) *basetree.Node {
	if ok, from := bus.Coherent(); ok {
		return from
	}
	return nil
}

// propFrom names where a property of n is set, "FILE:LINE: prop" from
// the annotated tree (dtc -T -T), else "SOURCE: prop".
func (g *gen) propFrom(n *basetree.Node, prop string) string {
	if from := g.t.PropSource(n.Path, prop); from != "" {
		return from + ": " + prop
	}
	return g.o.Source + ": " + prop
}

// hex prints a number as the in-tree descriptions do.
func hex(v uint64) string { return fmt.Sprintf("%#x", v) }

// nodeText prints a node's node: value.
func (g *gen) nodeText(w *w, n *basetree.Node) string {
	if ls := g.t.LabelsOf(n.Path); len(ls) > 0 {
		return fmt.Sprintf("{label: %s, path: %s}", w.q(ls[0]), w.q(n.Path))
	}
	return fmt.Sprintf("path: %s", w.q(n.Path))
}

// w is a line writer with indentation. Strings go into its lines
// through q and qs, keys through label (quote.go).
type w struct {
	b      strings.Builder
	indent int
	// notes are comments for the next line, about the strings in it.
	notes []string
}

func (w *w) p(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	if notes := w.notes; len(notes) > 0 {
		w.notes = nil
		for _, n := range notes {
			w.comment(n)
		}
	}
	if strings.HasPrefix(line, "}") || strings.HasPrefix(line, "]") {
		w.indent--
	}
	if line != "" {
		w.b.WriteString(strings.Repeat("\t", w.indent))
	}
	w.b.WriteString(line)
	w.b.WriteByte('\n')
	if strings.HasSuffix(line, "{") || strings.HasSuffix(line, "[") {
		w.indent++
	}
}

// commentWidth is the width comment text wraps at, whatever the
// indentation of the line: the draft's deepest lines are a few tabs in,
// and cue fmt moves them anyway.
const commentWidth = 72

// comment prints text as // lines, wrapped at commentWidth columns (a
// longer word stays whole on a line of its own). Comment lines are
// written as they are: text ending in "{" or starting with "}" does not
// change the indentation of the lines after them.
func (w *w) comment(text string) {
	if notes := w.notes; len(notes) > 0 {
		w.notes = nil
		for _, n := range notes {
			w.comment(n)
		}
	}
	line := "//"
	emit := func() {
		w.b.WriteString(strings.Repeat("\t", w.indent))
		w.b.WriteString(line)
		w.b.WriteByte('\n')
	}
	for _, word := range strings.Fields(text) {
		word = commentText(word)
		if len(line)+1+len(word) > commentWidth && line != "//" {
			emit()
			line = "//"
		}
		line += " " + word
	}
	emit()
}
