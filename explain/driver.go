package explain

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"boardc.dev/boardc/compiler/check"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/compiler/kernel"
)

// Driver is the driver-facts catalogue's fact behind a master: the
// driver of the board's kernel that binds it and what it does with the
// DMA masks and IRQs, each with its place in that kernel's sources.
type Driver struct {
	// Master is the master's key; Kernel the catalogue's series and
	// Version the full kernel version it was read from.
	Master  string `json:"master"`
	Kernel  string `json:"kernel"`
	Version string `json:"version"`
	// Name is the driver's name, "" when no driver of the catalogue
	// lists the master's compatibles (then only Master and Kernel are
	// set). Matched is the compatible it binds by.
	Name    string `json:"name,omitempty"`
	Matched string `json:"matched,omitempty"`
	Bus     string `json:"bus,omitempty"`
	Site    string `json:"site,omitempty"`
	Probe   string `json:"probe,omitempty"`
	Bridge  string `json:"bridge,omitempty"`
	// DMA is the kind of DMA behaviour ("none", "fixed", "choice",
	// "match-data", "runtime", "children", "unknown"), Widths the
	// streaming widths it gives a device matched by Matched, Reason what
	// chooses among them or why the kind is unknown, Sets the calls that
	// set the masks ("file:line func(): call(arg)").
	DMA    string   `json:"dma,omitempty"`
	Widths []int    `json:"widths,omitempty"`
	Reason string   `json:"reason,omitempty"`
	Sets   []string `json:"sets,omitempty"`
	// IRQs are the IRQ requests: the name, its kind and where.
	IRQs []string `json:"irqs,omitempty"`
}

// drivers returns the catalogue's fact for each master of ms, nil
// without a catalogue.
func drivers(c *kernel.Catalog, b *ir.Board, ms []Master) []Driver {
	if c == nil {
		return nil
	}
	out := []Driver{}
	for _, em := range ms {
		m := b.SoC.Master(em.Key)
		if m == nil {
			continue
		}
		d, matched := c.Lookup(m.Compatible)
		f := Driver{Master: m.Key, Kernel: c.Series, Version: c.Kernel}
		if d != nil {
			f.Name, f.Matched, f.Bus, f.Bridge = d.Name, matched, d.Bus, d.Bridge
			f.Site, f.Probe = d.Site.String(), d.Probe.String()
			f.DMA, f.Reason = string(d.DMA.Kind), d.DMA.Reason
			f.Widths = check.DriverWidths(d, matched)
			if d.DMA.Kind == kernel.DMANone {
				f.Widths = nil
			}
			for _, s := range d.DMA.Sets {
				f.Sets = append(f.Sets, check.SetText(s))
			}
			for _, q := range d.IRQs {
				f.IRQs = append(f.IRQs, fmt.Sprintf("%s %q at %s", q.Kind, q.Name, q.Site))
			}
		}
		out = append(out, f)
	}
	return out
}

// writeDrivers prints the catalogue's facts as explain does.
func writeDrivers(out io.Writer, ds []Driver) {
	for _, d := range ds {
		if d.Name == "" {
			fmt.Fprintf(out, "  %s: no driver of Linux %s (%s) lists its compatibles\n", d.Master, d.Kernel, d.Version)
			continue
		}
		fmt.Fprintf(out, "  %s: driver %s (%s bus, %s), Linux %s (%s), binds %q; probe %s\n",
			d.Master, d.Name, d.Bus, d.Site, d.Kernel, d.Version, d.Matched, d.Probe)
		if d.Bridge != "" {
			fmt.Fprintf(out, "    bridge: %s\n", d.Bridge)
		}
		dma := "DMA masks: " + d.DMA
		switch {
		case d.DMA == string(kernel.DMANone):
			dma += ": sets none; the OF default, 32 bits, narrowed by dma-ranges"
		case len(d.Widths) > 0:
			dma += ": " + joinWidths(d.Widths) + " bits"
		}
		if d.Reason != "" {
			dma += " (" + d.Reason + ")"
		}
		fmt.Fprintf(out, "    %s\n", dma)
		for _, s := range d.Sets {
			fmt.Fprintf(out, "    set: %s\n", s)
		}
		for _, q := range d.IRQs {
			fmt.Fprintf(out, "    irq: %s\n", q)
		}
	}
}

// joinWidths prints widths as "32", "32 or 64".
func joinWidths(ws []int) string {
	s := make([]string, len(ws))
	for i, w := range ws {
		s[i] = strconv.Itoa(w)
	}
	return strings.Join(s, " or ")
}
