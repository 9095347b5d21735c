package report

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// Edge colours by what they draw.
const (
	colTree  = "#636363"
	colIRQ   = "#d94801"
	colRPS   = "#2171b5"
	colXPS   = "#6a51a3"
	colDPIO  = "#238b45"
	colShort = "#cb181d"
	// font is the picture's font, the one the page renders it in (its
	// CSS names it first) and the one the layout measures. The engine has
	// no text-layout plugin: it sizes every label from hard-coded width
	// tables of common fonts (Graphviz lib/common/textspan_lut.h,
	// estimate_text_width_1pt(); Times-Roman for a font it has none of),
	// and has one for DejaVu Sans: a 30-character label of W, m and i at
	// 10 pt lays out 238 pt wide named DejaVu Sans, 213 pt named
	// Helvetica. A label measured in one font and drawn in a wider one
	// overflows its box, as Helvetica's did rendered in DejaVu Sans
	// (report's TestTextFits measures it in Chromium).
	font = "DejaVu Sans"
)

// busState is how a bus is drawn by its coherency fact.
type busState int

// The states of a bus, in the order the legend lists them.
const (
	busAll busState = iota
	busVerified
	busNonCoherent
)

// busStates are the bus states' legend texts and colours, by busState.
var busStates = [...]struct{ name, fill, border string }{
	busAll:         {"coherent for all masters", "#c7e9c0", "#238b45"},
	busVerified:    {"coherent for verified masters", "#ffffcc", "#d94801"},
	busNonCoherent: {"non-coherent", "#deebf7", "#2171b5"},
}

// busStateOf returns the state of bus b.
func busStateOf(b *ir.Bus) busState {
	switch {
	case !b.Coherency.Coherent:
		return busNonCoherent
	case b.Coherency.Masters == ir.ScopeAll:
		return busAll
	}
	return busVerified
}

// dotWriter builds a DOT file line by line.
type dotWriter struct{ b strings.Builder }

func (w *dotWriter) line(indent int, format string, args ...any) {
	w.b.WriteString(strings.Repeat("\t", indent))
	fmt.Fprintf(&w.b, format, args...)
	w.b.WriteByte('\n')
}

// esc makes s safe as the text of a Graphviz HTML-like label: one line
// (outputs' policy for free text), with the characters HTML gives a
// meaning escaped.
func esc(s string) string {
	s = outputs.OneLine(s)
	if !strings.ContainsAny(s, `&<>"`) {
		return s
	}
	return htmlEscaper.Replace(s)
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// clip shortens s to n runes, with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// row is one line of a node's label table: its text already escaped.
type row struct {
	html  string
	color string // font colour; "" for the default
	bold  bool
}

// label returns an HTML-like label: a table of rows, left-aligned.
func label(rows []row) string {
	var b strings.Builder
	b.WriteString(`<<table border="0" cellborder="0" cellspacing="0" cellpadding="1">`)
	for _, r := range rows {
		t := r.html
		if r.bold {
			t = "<b>" + t + "</b>"
		}
		if r.color != "" {
			t = `<font color="` + r.color + `">` + t + "</font>"
		}
		b.WriteString("\n\t\t<tr><td align=\"left\">" + t + "</td></tr>")
	}
	b.WriteString("\n\t</table>>")
	return b.String()
}

// DOT returns the board's picture as Graphviz DOT: memory on the left, the
// bus tree, the masters, then the IRQs and queues they steer to the CPUs
// of each cluster on the right. The text is deterministic.
func DOT(in *Input) []byte {
	b := in.Board
	w := &dotWriter{}
	w.line(0, "// %s", outputs.GeneratedNotice)
	w.line(0, "// The topology of board %s: lay it out with Graphviz dot.", b.Name)
	w.line(0, "digraph %s {", strconv.Quote(b.Name))
	w.line(1, `graph [rankdir=LR, newrank=true, nodesep=0.18, ranksep="0.7", fontname=%q, fontsize=12, bgcolor="white", pad="0.2"];`, font)
	w.line(1, `node [shape=box, style="rounded,filled", fontname=%q, fontsize=10, margin="0.08,0.04"];`, font)
	w.line(1, `edge [fontname=%q, fontsize=9, color=%q, arrowsize=0.6];`, font, colTree)
	w.line(0, "")
	memoryNode(w, b)
	legendNode(w)
	w.line(1, "{rank=min; memory; legend;}")
	w.line(1, "memory -> legend [style=invis];")
	w.line(0, "")
	for _, bus := range b.SoC.Buses {
		busNode(w, bus)
	}
	for _, bus := range b.SoC.Buses {
		from := "memory"
		if bus.Parent != nil {
			from = "bus_" + bus.Parent.Key
		}
		w.line(1, "%s -> bus_%s [penwidth=2];", from, bus.Key)
	}
	w.line(0, "")
	for _, m := range b.SoC.Masters {
		masterNode(w, b, m)
		style := ""
		if !m.Enabled {
			style = `, style=dashed`
		}
		w.line(1, "bus_%s -> m_%s [penwidth=1.5%s];", m.Bus.Key, m.Key, style)
	}
	w.line(0, "")
	cpuClusters(w, b)
	irqPins(w, b)
	steering(w, b)
	w.line(0, "}")
	return []byte(w.b.String())
}

func memoryNode(w *dotWriter, b *ir.Board) {
	rows := []row{{html: "memory", bold: true}}
	for _, m := range b.Memory {
		rows = append(rows, row{html: esc(Addr(m.Base) + " + " + Size(m.Size))})
	}
	if top := b.RAMTop(); top != 0 {
		rows = append(rows, row{html: esc("described RAM top " + Addr(top) + " (" + Size(top) + ")"), bold: true})
	} else {
		rows = append(rows, row{html: "no RAM declared"})
	}
	w.line(1, `memory [fillcolor="#f0f0f0", color="#252525", label=%s];`, label(rows))
}

// legendNode draws the legend: the master states, the bus facts, the
// mark of a master that cannot reach all described RAM, and the edges.
func legendNode(w *dotWriter) {
	var b strings.Builder
	b.WriteString(`<<table border="0" cellborder="1" cellspacing="2" cellpadding="3">`)
	b.WriteString("\n\t\t" + `<tr><td border="0" colspan="2" align="left"><b>legend</b></td></tr>`)
	for _, st := range legend {
		fmt.Fprintf(&b, "\n\t\t"+`<tr><td bgcolor="%s" color="%s" width="18"> </td><td border="0" align="left">master: %s</td></tr>`, st.fill, st.border, st.name)
	}
	fmt.Fprintf(&b, "\n\t\t"+`<tr><td bgcolor="#ffffff" color="%s" width="18"><font color="%s"><b>!</b></font></td><td border="0" align="left"><font color="%s"><b>cannot reach all described RAM</b></font></td></tr>`, colShort, colShort, colShort)
	for _, st := range busStates {
		fmt.Fprintf(&b, "\n\t\t"+`<tr><td bgcolor="%s" color="%s" width="18"> </td><td border="0" align="left">bus: %s</td></tr>`, st.fill, st.border, st.name)
	}
	for _, x := range []struct{ color, text string }{
		{colIRQ, "pinned IRQ (#k: its k-th IRQ by number)"}, {colRPS, "RPS (receive steering)"}, {colXPS, "XPS (transmit steering)"},
	} {
		fmt.Fprintf(&b, "\n\t\t"+`<tr><td border="0" width="18"><font color="%s" point-size="16"><b>&#8594;</b></font></td><td border="0" align="left"><font color="%s">%s</font></td></tr>`, x.color, x.color, x.text)
	}
	fmt.Fprintf(&b, "\n\t\t"+`<tr><td border="0" width="18"><font color="%s">DPIO</font></td><td border="0" align="left"><font color="%s">DPIO portal serving the CPU</font></td></tr>`, colDPIO, colDPIO)
	b.WriteString("\n\t</table>>")
	w.line(1, `legend [shape=box, style="rounded", color="#bdbdbd", fontsize=9, label=%s];`, b.String())
}

func busNode(w *dotWriter, bus *ir.Bus) {
	st := busStates[busStateOf(bus)]
	rows := []row{
		{html: "bus " + esc(bus.Key), bold: true},
		{html: esc(clip(bus.Node.Path, 40))},
		{html: esc(CoherencyText(bus)), color: st.border},
	}
	if bus.AddressBits != 0 {
		rows = append(rows, row{html: fmt.Sprintf("%d address bits", bus.AddressBits)})
	}
	switch {
	case !bus.HasDMARanges:
		rows = append(rows, row{html: "no dma-ranges"})
	case len(bus.DMARanges) == 0:
		rows = append(rows, row{html: "dma-ranges: identity"})
	}
	for _, r := range bus.DMARanges {
		rows = append(rows, row{html: esc("dma-ranges " + Addr(r.Child) + " → " + Addr(r.Parent) + " + " + Size(r.Size))})
	}
	w.line(1, `bus_%s [fillcolor=%q, color=%q, penwidth=2, label=%s];`, bus.Key, st.fill, st.border, label(rows))
}

// widthText describes a master's DMA masks and who sets them.
func widthText(m *ir.Master) string {
	if b := m.Bridge; b != nil {
		if len(b.Endpoints) > 0 {
			return b.KindText() + ", endpoints " + ir.JoinInts(b.Endpoints, "/") + "-bit"
		}
		return b.KindText() + ", no mask of its own"
	}
	if m.DMADeviceKey != "" {
		return "DMA through master " + m.DMADeviceKey + "'s node"
	}
	s := strconv.Itoa(m.DMABits)
	if m.CoherentWidth() != m.DMABits {
		s += "/" + strconv.Itoa(m.CoherentWidth())
	}
	switch {
	case m.DriverSets != nil && m.DriverSets.Children:
		return s + "-bit mask on child devices, driver-set"
	case m.DriverSets != nil:
		return s + "-bit mask, driver-set"
	}
	return s + "-bit mask, boardc's C"
}

func masterNode(w *dotWriter, b *ir.Board, m *ir.Master) {
	st := legend[entryOf(m)]
	rows := []row{{html: esc(m.Key), bold: true}, {html: esc(st.name)}, {html: esc(widthText(m))}}
	r := ReachOf(b, m)
	color, pen, font := st.border, "1.2", ""
	switch {
	case !m.Enabled:
		font = `, fontcolor="#737373", style="rounded,filled,dashed"`
	case m.IsBridge():
		rows = append(rows, row{html: esc(endpointsText(m))})
	case NoOwnDMA(m):
		rows = append(rows, row{html: "endpoints set their own masks"})
	case !m.HasOwnWidth():
		rows = append(rows, row{html: esc("coherency and bus limit of master " + m.DMADeviceKey + "'s node")})
	case r.Short:
		rows = append(rows, row{html: esc("! reaches " + Size(r.Limit) + " < described RAM top " + Size(b.RAMTop())), color: colShort, bold: true})
		color, pen = colShort, "3"
	default:
		rows = append(rows, row{html: esc(ReachText(r))})
	}
	w.line(1, `m_%s [fillcolor=%q, color=%q, penwidth=%s%s, label=%s];`, m.Key, st.fill, color, pen, font, label(rows))
}

// cpuClusters draws each cluster as one node, a table of its CPUs in
// order with the DPIO portals that serve them; edges reach a CPU through
// its port, cpuN.
func cpuClusters(w *dotWriter, b *ir.Board) {
	isolated := map[int]bool{}
	for _, c := range b.Policy.IsolatedCPUs {
		isolated[c] = true
	}
	dpios := map[int][]ir.DPIO{}
	if d := b.SoC.DPAA2; d != nil {
		for _, p := range d.DPIOs {
			dpios[p.CPU] = append(dpios[p.CPU], p)
		}
	}
	var ids []string
	for i, c := range b.SoC.Clusters {
		title := []string{esc(fmt.Sprintf("cluster %d: %s", i, c.Core))}
		if d := b.SoC.DPAA2; d != nil && len(c.CPUs) > 0 {
			title = append(title, esc(fmt.Sprintf("stash destination %d", d.StashDest(c.CPUs[0]))))
		}
		var t strings.Builder
		t.WriteString(`<<table border="1" cellborder="1" cellspacing="5" cellpadding="6" style="rounded" bgcolor="#f7f7f7" color="#969696">`)
		fmt.Fprintf(&t, "\n\t\t<tr><td border=\"0\"><font point-size=\"10\"><b>%s</b></font></td></tr>", strings.Join(title, "<br/>"))
		for _, cpu := range c.CPUs {
			cell := fmt.Sprintf("<b>CPU %d</b>", cpu)
			if isolated[cpu] {
				cell += "<br/>isolated"
			}
			for _, p := range dpios[cpu] {
				cell += fmt.Sprintf(`<br/><font color="%s" point-size="9">DPIO %d</font>`, colDPIO, p.ID)
			}
			fmt.Fprintf(&t, "\n\t\t<tr><td port=\"cpu%d\" bgcolor=\"#ffffff\" color=\"#252525\">%s</td></tr>", cpu, cell)
		}
		t.WriteString("\n\t</table>>")
		id := fmt.Sprintf("cluster%d", i)
		ids = append(ids, id)
		w.line(1, `%s [shape=plain, style="", fontsize=11, label=%s];`, id, t.String())
	}
	if len(ids) > 0 {
		// The clusters in one column, in order, top to bottom.
		w.line(1, "{rank=max; %s;}", strings.Join(ids, "; "))
		if len(ids) > 1 {
			w.line(1, "%s [style=invis];", strings.Join(ids, " -> "))
		}
	}
}

// cpuPort returns the DOT endpoint of a CPU: its cell in its cluster's
// node, entered from the west.
func cpuPort(b *ir.Board, cpu int) string {
	for i, c := range b.SoC.Clusters {
		for _, x := range c.CPUs {
			if x == cpu {
				return fmt.Sprintf("cluster%d:cpu%d:w", i, cpu)
			}
		}
	}
	return fmt.Sprintf("cpu%d", cpu) // a CPU of no cluster: a node of its own
}

// irqPins draws each pinned IRQ: from the masters that declare it, to
// the CPUs it lands on, one edge per IRQ where each IRQ of the name lands
// on one CPU (IRQLanding).
func irqPins(w *dotWriter, b *ir.Board) {
	for i := range b.Policy.IRQs {
		p := &b.Policy.IRQs[i]
		id := fmt.Sprintf("irq%d", i)
		n := ""
		if p.Count > 1 {
			n = fmt.Sprintf(" ×%d", p.Count)
		}
		w.line(1, `%s [shape=box, style="rounded", color=%q, fontcolor=%q, fontsize=9, height=0.3, label=<IRQ <b>%s</b>%s>];`,
			id, colIRQ, colIRQ, esc(p.IRQ), n)
		for _, m := range p.Owners {
			w.line(1, "m_%s -> %s [color=%q];", m.Key, id, colIRQ)
		}
		for _, l := range IRQLanding(b, p) {
			label := ""
			if l.K >= 0 && p.Count > 1 {
				label = fmt.Sprintf(", fontcolor=%q, label=<#%d>", colIRQ, l.K)
			}
			w.line(1, "%s -> %s [color=%q%s];", id, cpuPort(b, l.CPU), colIRQ, label)
		}
	}
}

// steer is one node of queue steering: interfaces whose queues go to the
// same CPUs, and the queues of each CPU.
type steer struct {
	kind   string // "RPS" or "XPS"
	ifs    []string
	owners []*ir.Master
	queues map[int][]string // CPU -> queue names
	key    string
}

// steering draws RPS and XPS: one node per set of interfaces steered
// alike, with an edge to each CPU labelled by its queues.
func steering(w *dotWriter, b *ir.Board) {
	var groups []*steer
	add := func(kind, prefix string, n *ir.NetPolicy, masks [][]int) {
		if len(masks) == 0 {
			return
		}
		q := map[int][]string{}
		for i, cpus := range masks {
			for _, c := range ir.SortedCPUs(cpus) {
				q[c] = append(q[c], fmt.Sprintf("%s-%d", prefix, i))
			}
		}
		key := kind + fmt.Sprint(masks)
		for _, g := range groups {
			if g.key == key {
				g.ifs = append(g.ifs, n.IfName)
				if n.Master != nil && !slices.Contains(g.owners, n.Master) {
					g.owners = append(g.owners, n.Master)
				}
				return
			}
		}
		g := &steer{kind: kind, ifs: []string{n.IfName}, queues: q, key: key}
		if n.Master != nil {
			g.owners = []*ir.Master{n.Master}
		}
		groups = append(groups, g)
	}
	for i := range b.Policy.Net {
		n := &b.Policy.Net[i]
		add("RPS", "rx", n, n.RPS)
		add("XPS", "tx", n, n.XPS)
	}
	for i, g := range groups {
		color := colRPS
		if g.kind == "XPS" {
			color = colXPS
		}
		id := fmt.Sprintf("steer%d", i)
		names := make([]string, len(g.ifs))
		for j, n := range g.ifs {
			names[j] = esc(n)
		}
		w.line(1, `%s [shape=box, style="rounded", color=%q, fontcolor=%q, fontsize=9, label=<<b>%s</b>: %s>];`,
			id, color, color, g.kind, wrap(names, 4))
		for _, m := range g.owners {
			w.line(1, "m_%s -> %s [color=%q];", m.Key, id, color)
		}
		cpus := make([]int, 0, len(g.queues))
		for c := range g.queues {
			cpus = append(cpus, c)
		}
		sort.Ints(cpus)
		for _, c := range cpus {
			w.line(1, "%s -> %s [color=%q, fontcolor=%q, label=<%s>];", id, cpuPort(b, c), color, color, esc(queueList(g.queues[c])))
		}
	}
}

// wrap joins names with ", ", n to a line.
func wrap(names []string, n int) string {
	var b strings.Builder
	for i, s := range names {
		switch {
		case i > 0 && i%n == 0:
			b.WriteString(",<br/>")
		case i > 0:
			b.WriteString(", ")
		}
		b.WriteString(s)
	}
	return b.String()
}

// queueList shortens a list of queue names: "rx-0", or "rx-0 +3".
func queueList(q []string) string {
	if len(q) <= 2 {
		return strings.Join(q, ", ")
	}
	return fmt.Sprintf("%s, %s +%d", q[0], q[1], len(q)-2)
}

// endpointsText says what a bridge's endpoints take from its node, their
// coherency (pci_dma_configure(), drivers/pci/pci-driver.c, configures
// them from it), and who sets their masks.
func endpointsText(m *ir.Master) string {
	c := "non-coherent"
	switch {
	case m.Coherent():
		c = "coherent"
	case m.Coherence() == ir.Unverified:
		c = "coherency unverified"
	}
	return "endpoints " + c + ", masks their own"
}
