package draft

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"boardc.dev/boardc/compiler/basetree"
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

// pkgOf turns a name into a CUE package name: its letters and digits,
// followed by "pkg" where they spell a keyword or predeclared identifier.
func pkgOf(name string) string {
	p := strings.ReplaceAll(name, "-", "")
	if reserved[p] {
		p += "pkg"
	}
	return p
}

// SoCName picks the SoC's name from the root's compatibles, most specific
// first: the first after the board's own that does not name the board
// (armada8040-mcbin-doubleshot, armada8040-mcbin, armada8040 on the
// MACCHIATObin board armada-8040-mcbin gives armada8040). A compatible
// names the board when, letters and digits only, it holds the board's
// name or the board's name ends with it (espressobin).
func SoCName(compat []string, board string) string {
	squash := func(s string) string {
		var b strings.Builder
		for _, r := range strings.ToLower(s) {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	stem := squash(board)
	part := func(c string) string {
		_, after, _ := strings.Cut(c, ",")
		return after
	}
	for i, c := range compat {
		p := squash(part(c))
		if i == 0 || p == "" || strings.Contains(p, stem) || strings.HasSuffix(stem, p) {
			continue
		}
		return nameOf(part(c))
	}
	if len(compat) > 0 {
		return nameOf(part(compat[len(compat)-1]))
	}
	return ""
}

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
	g := &gen{t: t, o: o, keys: newKeys()}
	g.scan()
	d := &Draft{Board: board, SoC: soc, SoCPackage: socPkg}
	d.Files = append(d.Files,
		File{Path: "soc/" + socPkg + "/" + socPkg + ".cue", Data: g.socFile(soc, socPkg, compat)},
		File{Path: board + "/board.cue", Data: g.boardFile(board, socPkg, compat)},
	)
	return d, nil
}

// gen holds what the scan found.
type gen struct {
	t       *basetree.Tree
	o       Options
	keys    *keys
	masters []*basetree.Node
	buses   []*basetree.Node                  // sorted by path
	busOf   map[*basetree.Node]*basetree.Node // master or bus -> its bus (nil: under the root)
	onBus   map[*basetree.Node][]*basetree.Node
}

// scan finds the masters and the buses they sit on: each master's parent
// node, and that node's parents up to the root (the root itself only when
// a master sits directly under it).
func (g *gen) scan() {
	g.masters = masters(g.t)
	g.busOf = map[*basetree.Node]*basetree.Node{}
	g.onBus = map[*basetree.Node][]*basetree.Node{}
	seen := map[*basetree.Node]bool{}
	for _, m := range g.masters {
		b := m.Parent
		g.busOf[m] = b
		g.onBus[b] = append(g.onBus[b], m)
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

// comment prints text as // lines, wrapped at about 72 columns.
func (w *w) comment(text string) {
	words := strings.Fields(text)
	line := "//"
	for _, word := range words {
		word = commentText(word)
		if len(line)+1+len(word) > 72-4*w.indent && line != "//" {
			w.p("%s", line)
			line = "//"
		}
		line += " " + word
	}
	w.p("%s", line)
}
