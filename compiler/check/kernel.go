package check

import (
	"fmt"
	"strconv"
	"strings"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/compiler/kernel"
)

// KernelSeries is a board naming a kernel series boardc has no
// driver-facts catalogue for. It is a plain code: the facade reports it
// when it picks the board's catalogue (Catalogs.For), before any check
// runs.
var KernelSeries = diag.Code{
	ID: "BC0700", Name: "kernel-series", Severity: diag.Warning,
	Doc: "The board's kernel names a Linux series boardc ships no driver-facts catalogue for. The " +
		"catalogue is what the driver checks (BC07xx) compare the description with: the DMA masks each " +
		"master's driver sets and the IRQ names it requests, read from that kernel's sources. Without " +
		"one, those checks do not run and nothing else changes. The message lists the series boardc " +
		"has; a board that names none is checked against the newest. It is a warning, not an error: " +
		"a board may run a kernel boardc has no facts for; --werror makes it one.",
}

// Catalogs are the driver-facts catalogues a board can be checked
// against.
type Catalogs struct {
	// Series are the series there is a catalogue of, oldest first.
	Series []string
	// Default is the series of a board that names none, "" for none.
	Default string
	// Load returns the catalogue of one of Series.
	Load func(series string) (*kernel.Catalog, error)
}

// Shipped returns the catalogues embedded in boardc (compiler/kernel):
// a board that names no kernel is checked against the newest.
func Shipped() Catalogs {
	return Catalogs{Series: kernel.Series(), Default: kernel.Default(), Load: kernel.Load}
}

// Fixed returns catalogues made of cs, oldest first: the last is the
// default. Tests check boards against catalogues of their own with it.
func Fixed(cs ...*kernel.Catalog) Catalogs {
	var out Catalogs
	by := map[string]*kernel.Catalog{}
	for _, c := range cs {
		c.Lookup(nil) // index it now: checks of several boards share it
		out.Series = append(out.Series, c.Series)
		by[c.Series] = c
		out.Default = c.Series
	}
	out.Load = func(s string) (*kernel.Catalog, error) {
		if c, ok := by[s]; ok {
			return c, nil
		}
		return nil, fmt.Errorf("no catalogue for %s", s)
	}
	return out
}

// For returns the catalogue board b is checked against: that of its
// kernel, or the default one when it names none; nil when there is
// none. A kernel with no catalogue is a KernelSeries diagnostic at its
// position.
func (cs Catalogs) For(b *ir.Board) (*kernel.Catalog, []diag.Diagnostic) {
	series := b.Kernel
	if series == "" {
		series = cs.Default
	}
	if series == "" {
		return nil, nil
	}
	known := false
	for _, s := range cs.Series {
		known = known || s == series
	}
	var c *kernel.Catalog
	err := fmt.Errorf("boardc has no driver-facts catalogue for it")
	if known && cs.Load != nil {
		c, err = cs.Load(series)
	}
	if err == nil {
		return c, nil
	}
	has := "none"
	if len(cs.Series) > 0 {
		has = strings.Join(cs.Series, ", ")
	}
	return nil, []diag.Diagnostic{{
		Pos: b.KernelPos.Or(b.Pos), Severity: KernelSeries.Severity, Code: KernelSeries.ID, Ref: ir.RefKernel,
		Message: fmt.Sprintf("kernel %s: %v (boardc has %s); the driver checks do not run", series, err, has),
	}}
}

// driverOf returns the catalogue's driver of master m and the compatible
// it matched, nil when no driver lists any of m's compatibles.
func driverOf(p *Pass, m *ir.Master) (*kernel.Driver, string) {
	return p.Kernel.Lookup(m.Compatible)
}

// driverNote names the catalogue's driver of a master: the kernel, the
// driver and its probe function.
func driverNote(c *kernel.Catalog, d *kernel.Driver, matched string) diag.Note {
	return Note(ir.Pos{}, "kernel %s (%s): %s binds %q, probe %s", c.Series, c.Kernel, d.Name, matched, d.Probe)
}

// setNotes names each call that sets the driver's masks.
func setNotes(c *kernel.Catalog, d *kernel.Driver) []diag.Note {
	var out []diag.Note
	for _, s := range d.DMA.Sets {
		out = append(out, Note(ir.Pos{}, "kernel %s: %s", c.Series, SetText(s)))
	}
	return out
}

// SetText prints a mask-setting call as "file:line func(): call(arg)",
// with its condition and the calls that reach it from probe.
func SetText(s kernel.MaskSet) string {
	t := fmt.Sprintf("%s: %s(%s)", s.Site, s.Call, s.Arg)
	if s.Cond != "" {
		t += " if " + s.Cond
	}
	if len(s.Via) > 0 {
		t += ", via " + strings.Join(s.Via, " -> ")
	}
	return t
}

// DriverWidths returns the streaming-mask widths the driver gives a
// device matched by compatible, as a master's dma states them: the OF
// default of 32 bits for a driver that sets none (DMANone, before
// dma-ranges narrow it), those it sets for DMAFixed, DMAChoice and
// DMAMatchData; nil when the catalogue cannot say (DMARuntime,
// DMAChildren, DMAUnknown, a match-data compatible without a width).
func DriverWidths(d *kernel.Driver, compatible string) []int {
	switch d.DMA.Kind {
	case kernel.DMANone:
		return []int{32}
	case kernel.DMAFixed, kernel.DMAChoice, kernel.DMAMatchData:
		return d.WidthFor(compatible)
	}
	return nil
}

// widthsText prints widths as "32", "32 or 64", "32, 40 or 64".
func widthsText(ws []int) string {
	s := make([]string, len(ws))
	for i, w := range ws {
		s[i] = strconv.Itoa(w)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// setsMasks reports whether the driver sets the masks of the device it
// binds, or of the devices below it (DMAChildren).
func setsMasks(k kernel.DMAKind) bool {
	switch k {
	case kernel.DMAFixed, kernel.DMAChoice, kernel.DMAMatchData, kernel.DMARuntime, kernel.DMAChildren:
		return true
	}
	return false
}

// firstSet returns the driver's first call that sets width w, else its
// first call, else the zero MaskSet and false.
func firstSet(d *kernel.Driver, w int) (kernel.MaskSet, bool) {
	for _, s := range d.DMA.Sets {
		if s.Width == w {
			return s, true
		}
	}
	if len(d.DMA.Sets) > 0 {
		return d.DMA.Sets[0], true
	}
	return kernel.MaskSet{}, false
}
