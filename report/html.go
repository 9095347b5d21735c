package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"regexp"
	"strconv"
	"strings"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

//go:embed report.css
var css string

//go:embed report.html.tmpl
var pageText string

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"one": outputs.OneLine,
}).Parse(pageText))

// svgStart finds the svg element of Graphviz's output, after its XML
// declaration, doctype and comments.
var svgStart = regexp.MustCompile(`<svg[\s>]`)

// HTML returns the report page: the picture (svg, as the layout made it,
// inlined) and the tables behind it, with its style inlined, so that the
// page loads nothing. Every text from the description is escaped by
// html/template.
//
// A nil svg is a board too large to lay out (Drawn): the page says so
// where the picture would be, and keeps every table.
func HTML(in *Input, svg []byte) ([]byte, error) {
	d := pageData{
		Board:  in.Board,
		CSS:    template.CSS(css),
		Notice: outputs.GeneratedNotice,
	}
	if svg == nil {
		d.Picture = template.HTML("<p class=\"meta\">" + template.HTMLEscapeString(undrawn(in.Board)) + "</p>")
	} else {
		loc := svgStart.FindIndex(svg)
		if loc == nil {
			return nil, fmt.Errorf("report: the layout made no <svg> element")
		}
		d.Picture = template.HTML(svg[loc[0]:]) // Graphviz's SVG escapes every label
	}
	d.fill(in)
	var b bytes.Buffer
	if err := page.Execute(&b, &d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// pageData is what the page template shows.
type pageData struct {
	Board   *ir.Board
	CSS     template.CSS
	Picture template.HTML
	Notice  string
	RAMTop  string
	Masters []masterRow
	Buses   []busRow
	CPUs    []cpuRow
	Diags   []diagRow
	Outputs []outputRow
	Counts  []countRow
	Short   int
}

type countRow struct {
	Name, Fill, Border string
	N                  int
}

type masterRow struct {
	Key, Node, Compatible, Bus, State, Fill, Border string
	Mask, SetBy, Reach, IRQs, NetDevs, Pos          string
	Short, Disabled                                 bool
}

type busRow struct {
	Key, Node, Parent, Coherency, Source, Width, Ranges, Pos string
}

type cpuRow struct {
	CPU                       int
	Cluster, DPIOs, IRQs, RPS string
	XPS                       string
	Isolated                  bool
}

type diagRow struct {
	Severity, Code, Pos, Message, Quote string
	Notes                               []string
}

type outputRow struct {
	Path  string
	Lines []linesRow
}

type linesRow struct {
	At    string
	Refs  []string
	Facts []fact
}

// fact is a position behind generated lines and the description line
// there.
type fact struct{ Pos, Quote string }

func (d *pageData) fill(in *Input) {
	b := in.Board
	if top := b.RAMTop(); top != 0 {
		d.RAMTop = Addr(top) + " (" + Size(top) + ")"
	}
	count := make([]int, len(legend))
	for _, m := range b.SoC.Masters {
		s := entryOf(m)
		count[s]++
		r := ReachOf(b, m)
		row := masterRow{
			Key: m.Key, Node: m.Node.DTRef() + " " + m.Node.Path, Bus: m.Bus.Key,
			State: legend[s].name, Fill: legend[s].fill, Border: legend[s].border,
			Mask: strconv.Itoa(m.DMABits) + "-bit", SetBy: "boardc's C (dma_set_mask_and_coherent)",
			Pos: m.Pos.String(), Disabled: !m.Enabled, Short: r.Short && m.Enabled && !NoOwnDMA(m) && m.HasOwnWidth(),
		}
		if len(m.Compatible) > 0 {
			row.Compatible = m.Compatible[0]
		}
		if m.CoherentWidth() != m.DMABits {
			row.Mask += " streaming, " + strconv.Itoa(m.CoherentWidth()) + "-bit coherent"
		}
		if b := m.Bridge; b != nil {
			row.Mask, row.SetBy = "none of its own ("+b.KindText()+")", "its endpoints' drivers"
			if len(b.Endpoints) > 0 {
				row.Mask += "; endpoints " + ir.JoinInts(b.Endpoints, "/") + "-bit"
				row.SetBy += ": " + b.EndpointsSource
			}
		}
		if m.DMADeviceKey != "" {
			row.Mask, row.SetBy = "none stated (DMA configured from master "+m.DMADeviceKey+"'s node)", "its driver"
		}
		if m.DriverSets != nil {
			row.SetBy = "its driver: " + m.DriverSets.Source
			if m.DriverSets.Children {
				row.SetBy += ", on the devices it creates below the master's (checked there by the verifier)"
			}
		}
		switch {
		case NoOwnDMA(m):
			row.Reach = "none of its own: the endpoints behind it reach what their masks and the buses allow"
		case r.Short:
			row.Reach = "only up to " + Size(r.Limit) + " (" + r.By + "); described RAM top " + Size(b.RAMTop()) + ": buffers above bounce through swiotlb"
		case r.IOMMU != "" || r.Limit == 0:
			row.Reach = ReachText(r)
		default:
			row.Reach = ReachText(r) + " (" + r.By + ")"
		}
		if row.Short {
			d.Short++
		}
		var irqs, devs []string
		for _, q := range m.IRQs {
			irqs = append(irqs, q.Name)
		}
		for _, n := range m.NetDevs {
			devs = append(devs, fmt.Sprintf("%s (%d rx, %d tx)", n.Name, n.RxQueues, n.TxQueues))
		}
		row.IRQs, row.NetDevs = strings.Join(irqs, ", "), strings.Join(devs, ", ")
		d.Masters = append(d.Masters, row)
	}
	for s, l := range legend {
		if count[s] > 0 {
			d.Counts = append(d.Counts, countRow{l.name, l.fill, l.border, count[s]})
		}
	}
	for _, bus := range b.SoC.Buses {
		row := busRow{Key: bus.Key, Node: bus.Node.DTRef() + " " + bus.Node.Path, Coherency: CoherencyText(bus),
			Source: bus.Coherency.Source, Pos: bus.Pos.String(), Parent: "/"}
		if bus.Parent != nil {
			row.Parent = bus.Parent.Key
		}
		if bus.AddressBits != 0 {
			row.Width = strconv.Itoa(bus.AddressBits) + " bits"
		}
		var rs []string
		for _, r := range bus.DMARanges {
			rs = append(rs, Addr(r.Child)+" → "+Addr(r.Parent)+" + "+Size(r.Size))
		}
		switch {
		case !bus.HasDMARanges:
			row.Ranges = "none"
		case len(rs) == 0:
			row.Ranges = "empty (identity)"
		default:
			row.Ranges = strings.Join(rs, "; ")
		}
		d.Buses = append(d.Buses, row)
	}
	d.fillCPUs(b)
	for _, x := range in.Diagnostics {
		r := diagRow{Severity: x.Severity.String(), Code: x.Code, Pos: x.Pos.String(), Message: x.Message,
			Quote: in.quote(x.Pos.Src, x.Pos.Line)}
		for _, n := range x.Notes {
			if n.Pos.IsValid() {
				r.Notes = append(r.Notes, n.Pos.String()+": "+n.Message)
			} else {
				r.Notes = append(r.Notes, n.Message)
			}
		}
		d.Diags = append(d.Diags, r)
	}
	for _, o := range in.Outputs {
		row := outputRow{Path: o.Path}
		for _, l := range o.Lines {
			lr := linesRow{At: l.Runs.String()}
			for _, r := range l.Refs {
				lr.Refs = append(lr.Refs, string(r))
			}
			for _, p := range l.Pos {
				lr.Facts = append(lr.Facts, fact{Pos: p.String(), Quote: in.quote(p.Src, p.Line)})
			}
			row.Lines = append(row.Lines, lr)
		}
		d.Outputs = append(d.Outputs, row)
	}
}

// fillCPUs lists, per CPU, what lands on it.
func (d *pageData) fillCPUs(b *ir.Board) {
	isolated := map[int]bool{}
	for _, c := range b.Policy.IsolatedCPUs {
		isolated[c] = true
	}
	type acc struct{ dpio, irq, rps, xps []string }
	per := map[int]*acc{}
	get := func(c int) *acc {
		if per[c] == nil {
			per[c] = &acc{}
		}
		return per[c]
	}
	if dp := b.SoC.DPAA2; dp != nil {
		for _, p := range dp.DPIOs {
			a := get(p.CPU)
			a.dpio = append(a.dpio, fmt.Sprintf("DPIO %d (stash destination %d)", p.ID, dp.StashDest(p.CPU)))
		}
	}
	for i := range b.Policy.IRQs {
		p := &b.Policy.IRQs[i]
		for _, l := range IRQLanding(b, p) {
			a := get(l.CPU)
			if l.K >= 0 && p.Count > 1 {
				a.irq = append(a.irq, fmt.Sprintf("%s #%d", p.IRQ, l.K))
			} else {
				a.irq = append(a.irq, p.IRQ)
			}
		}
	}
	for _, n := range b.Policy.Net {
		for i, cpus := range n.RPS {
			for _, c := range ir.SortedCPUs(cpus) {
				a := get(c)
				a.rps = append(a.rps, fmt.Sprintf("%s rx-%d", n.IfName, i))
			}
		}
		for i, cpus := range n.XPS {
			for _, c := range ir.SortedCPUs(cpus) {
				a := get(c)
				a.xps = append(a.xps, fmt.Sprintf("%s tx-%d", n.IfName, i))
			}
		}
	}
	for i, cl := range b.SoC.Clusters {
		for _, c := range cl.CPUs {
			a := get(c)
			d.CPUs = append(d.CPUs, cpuRow{
				CPU: c, Cluster: fmt.Sprintf("%d (%s)", i, cl.Core), Isolated: isolated[c],
				DPIOs: strings.Join(a.dpio, ", "), IRQs: strings.Join(a.irq, ", "),
				RPS: strings.Join(a.rps, ", "), XPS: strings.Join(a.xps, ", "),
			})
		}
	}
}

// MaxDrawn is the most DMA masters a board may have for its picture to be
// laid out. Graphviz's dot layout grows faster than the masters (8.6 s
// for 300 synthetic masters, 54 s for 1,000 on this project's benchmark
// machine); real SoCs have 10 to 300. Every other part of a report is
// linear in the board.
const MaxDrawn = 500

// Drawn reports whether b's picture is laid out: whether it has at most
// MaxDrawn masters.
func Drawn(b *ir.Board) bool { return len(b.SoC.Masters) <= MaxDrawn }

// undrawn says why a board has no picture and how to draw it anyway.
func undrawn(b *ir.Board) string {
	return fmt.Sprintf("No picture: %s has %d DMA masters, more than the %d boardc lays out (Graphviz's layout takes minutes at this size). "+
		"topology.dot beside this page is the picture before layout: boardc-layout <topology.dot >topology.svg draws it.",
		b.Name, len(b.SoC.Masters), MaxDrawn)
}
