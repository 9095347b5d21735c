package draft

import (
	"fmt"
	"math/bits"
	"regexp"
	"strings"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/kernel"
)

var (
	cNameRE   = regexp.MustCompile(`^[a-z_][a-z0-9_-]{0,63}$`)
	irqNameRE = regexp.MustCompile(`^[a-zA-Z0-9_][a-zA-Z0-9_.:@-]{0,63}$`)
)

// ofDefault is where the kernel gives an OF platform device its 32-bit
// masks (Linux 6.1 and 6.12).
const ofDefault = "of_platform_device_create_pdata(), drivers/of/platform.c"

// fromCatalog writes what the catalogue knows of master m's driver d,
// matched by compatible: driver, dma, driverSets, irqs. It writes a TODO
// for each of them the catalogue cannot give.
func (g *gen) fromCatalog(w *w, m *basetree.Node, d *kernel.Driver, matched string) {
	c := g.o.Kernel
	w.comment(fmt.Sprintf("Linux %s (%s): driver %s (%s, %s) binds %q; probe %s.", c.Series, c.Kernel, d.Name, d.Bus, d.Site, matched, d.Probe))
	if cNameRE.MatchString(d.Name) {
		w.p("driver: %s", w.q(d.Name))
	}
	if s, ok := fslMCBridge(d); ok {
		// The DPAA2 Management Complex: its objects do the DMA, each
		// given 64-bit masks as the bus creates it and configured from
		// the MC's node (fsl_mc_dma_configure()); the schema's bridge
		// kind fsl-mc says so.
		w.comment(fmt.Sprintf("Linux %s: %s gives the objects it creates on the fsl-mc bus 64-bit masks, not itself, and configures their DMA from this node: a bridge whose objects do the DMA.", c.Series, d.Name))
		w.p("bridge: {kind: %s, source: %s}", w.q("fsl-mc"), w.q(setSource(s)))
	} else {
		g.dmaFromCatalog(w, m, d, matched)
	}
	g.irqsFromCatalog(w, m, d)
}

// fslMCBridge returns the call that gives the fsl-mc objects their masks
// when d is the DPAA2 Management Complex's bus driver as the catalogue
// knows it (bridge fsl-mc, 64-bit masks on the devices it creates):
// what the schema's bridge kind fsl-mc states (fsl_mc_device_add(),
// drivers/bus/fsl-mc/fsl-mc-bus.c, FSL_MC_DEFAULT_DMA_MASK).
func fslMCBridge(d *kernel.Driver) (kernel.MaskSet, bool) {
	if d.Bridge != "fsl-mc" || d.DMA.Kind != kernel.DMAChildren || len(d.DMA.Widths) != 1 || d.DMA.Widths[0] != 64 {
		return kernel.MaskSet{}, false
	}
	return pickSet(d, 64)
}

// setSource is a driverSets source: "file:line func(): call(arg)".
func setSource(s kernel.MaskSet) string {
	return limit(strings.Join(strings.Fields(fmt.Sprintf("%s: %s(%s)", s.Site, s.Call, s.Arg)), " "), 200)
}

// pickSet returns the driver's first call that sets width w (any width
// for w 0), else its first call; ok is false when it has none.
func pickSet(d *kernel.Driver, w int) (kernel.MaskSet, bool) {
	for _, s := range d.DMA.Sets {
		if w == 0 || s.Width == w {
			return s, true
		}
	}
	if len(d.DMA.Sets) > 0 {
		return d.DMA.Sets[0], true
	}
	return kernel.MaskSet{}, false
}

func (g *gen) dmaFromCatalog(w *w, m *basetree.Node, d *kernel.Driver, matched string) {
	c := g.o.Kernel
	sets := func(s kernel.MaskSet, widths []int, children bool) {
		w.p("driverSets: {")
		w.p("source: %s", w.q(setSource(s)))
		if len(widths) > 1 {
			w.p("widths: [%s]", intList(widths))
		}
		if children {
			w.p("children: true")
		}
		w.p("}")
	}
	switch k := d.DMA.Kind; k {
	case kernel.DMANone:
		width, why := 32, ""
		if walk := g.t.DMAWalk(g.t.DMAParent(m), nil); walk.At != nil && walk.OK && bits.Len64(walk.Limit) < width {
			width = bits.Len64(walk.Limit)
			why = fmt.Sprintf(", narrowed to %d bits by the dma-ranges of %s (of_dma_configure_id(), drivers/of/device.c)", width, walk.At.Path)
		}
		w.comment(fmt.Sprintf("Linux %s: %s sets no mask: the OF default, 32 bits (%s)%s.", c.Series, d.Probe, ofDefault, why))
		w.p("dma: streaming: %d", width)
	case kernel.DMAFixed, kernel.DMAChoice, kernel.DMAMatchData:
		ws := d.WidthFor(matched)
		if len(ws) == 0 {
			w.comment(fmt.Sprintf("TODO dma: Linux %s: %s takes the width from the match data, which gives none for %q: %s.", c.Series, d.Name, matched, orNone(d.DMA.Reason)))
			break
		}
		s, ok := pickSet(d, ws[len(ws)-1])
		switch {
		case k == kernel.DMAChoice:
			why := ""
			if d.DMA.Reason != "" {
				why = " (" + d.DMA.Reason + ")"
			}
			w.comment(fmt.Sprintf("Linux %s: %s sets %s bits, chosen at probe%s; dma states the widest.", c.Series, d.Name, orList(ws), why))
		case k == kernel.DMAMatchData:
			w.comment(fmt.Sprintf("Linux %s: %s takes the width from the match data of %q: %d bits.", c.Series, d.Name, matched, ws[0]))
		}
		w.p("dma: streaming: %d", ws[len(ws)-1])
		if !ok {
			w.comment(fmt.Sprintf("TODO driverSets: Linux %s lists no call for %s; name the function that sets the masks.", c.Series, d.Name))
			break
		}
		var choice []int
		if k == kernel.DMAChoice {
			choice = ws
		}
		sets(s, choice, false)
	case kernel.DMARuntime:
		s, ok := pickSet(d, 0)
		if !ok {
			w.comment(fmt.Sprintf("TODO dma: Linux %s: %s computes the width at probe: %s.", c.Series, d.Name, orNone(d.DMA.Reason)))
			break
		}
		w.comment(fmt.Sprintf("TODO dma: Linux %s: %s sets a width it computes at probe, %s(%s) at %s%s; the width is that expression's value on this SoC (its reference manual, or the register it reads).",
			c.Series, d.Name, s.Call, s.Arg, s.Site, reasonText(d.DMA.Reason)))
		sets(s, nil, false)
	case kernel.DMAChildren:
		s, ok := pickSet(d, 0)
		if len(d.DMA.Widths) == 1 {
			w.comment(fmt.Sprintf("Linux %s: %s sets %d-bit masks on the devices it creates below its own, not on its own.", c.Series, d.Name, d.DMA.Widths[0]))
			w.p("dma: streaming: %d", d.DMA.Widths[0])
		} else {
			w.comment(fmt.Sprintf("TODO dma: Linux %s: %s sets the masks of the devices it creates below its own%s: the width it gives them.", c.Series, d.Name, reasonText(d.DMA.Reason)))
		}
		if !ok {
			s = kernel.MaskSet{Site: d.Probe, Call: "masks set on child devices", Arg: ""}
		}
		sets(s, nil, true)
	default:
		w.comment(fmt.Sprintf("TODO dma: Linux %s's catalogue cannot tell what %s does with the DMA masks: %s. Read %s.", c.Series, d.Name, orNone(d.DMA.Reason), d.Probe))
	}
}

// irqsFromCatalog writes the master's irqs where the catalogue and the
// tree make the name certain: one interrupt in the tree, one request in
// the driver, under a literal name or the device's name.
func (g *gen) irqsFromCatalog(w *w, m *basetree.Node, d *kernel.Driver) {
	c := g.o.Kernel
	n := interruptCount(g.t, m)
	if n != 1 || len(d.IRQs) != 1 {
		if n > 0 {
			w.comment(fmt.Sprintf("TODO irqs: %d interrupt(s) in the tree, %d request(s) in %s (Linux %s): their names (see above).", n, len(d.IRQs), d.Name, c.Series))
		}
		w.p("irqs: {}")
		return
	}
	q := d.IRQs[0]
	name := ""
	switch q.Kind {
	case "literal":
		name = q.Name
		w.comment(fmt.Sprintf("Linux %s: %s requests its one IRQ as %q (%s).", c.Series, d.Name, q.Name, q.Site))
	case "dev_name":
		if name = devName(g.t, m); name != "" && (d.Bus == "platform" || d.Bus == "amba") {
			w.comment(fmt.Sprintf("Linux %s: %s requests its one IRQ under the device's name (%s), which of_device_make_bus_id() (drivers/of/device.c in 6.12, drivers/of/platform.c in 6.1) forms as <translated reg address>.<node name>.", c.Series, d.Name, q.Site))
		} else {
			name = ""
		}
	}
	if name == "" || !irqNameRE.MatchString(name) {
		w.comment(fmt.Sprintf("TODO irqs: Linux %s: %s requests its one IRQ as %s %q (%s) (see above).", c.Series, d.Name, q.Kind, q.Name, q.Site))
		w.p("irqs: {}")
		return
	}
	key := name
	if q.Kind == "dev_name" {
		// "<address>.<node name>": the key is the node's name.
		key, _, _ = strings.Cut(m.Name, "@")
	}
	w.p("irqs: {%s: %s}", label(irqKey(key)), w.q(name))
}

// irqKey turns an IRQ name into a #Key.
func irqKey(name string) string {
	b := []byte(strings.ToLower(name))
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			b[i] = '_'
		}
	}
	k := strings.Trim(string(b), "_")
	for k != "" && !(k[0] >= 'a' && k[0] <= 'z') {
		k = k[1:]
	}
	if k == "" {
		return "irq"
	}
	return limit(k, 63)
}

// interruptCount returns how many interrupts the node has: the entries
// of interrupts-extended (a phandle and its controller's
// #interrupt-cells each), else interrupts divided by its interrupt
// parent's #interrupt-cells (interrupt-parent on it or an ancestor, else
// the parent node: devicetree specification 2.4.1); 0 when it has none
// or they cannot be counted.
func interruptCount(t *basetree.Tree, n *basetree.Node) int {
	if cells, ok := n.Cells("interrupts-extended"); ok {
		count := 0
		for i := 0; i < len(cells); count++ {
			p := t.ByPhandle(cells[i])
			if p == nil {
				return 0
			}
			ic, ok := p.U32("#interrupt-cells")
			if !ok {
				return 0
			}
			i += 1 + int(ic)
			if i > len(cells) {
				return 0
			}
		}
		return count
	}
	cells, ok := n.Cells("interrupts")
	if !ok || len(cells) == 0 {
		return 0
	}
	var parent *basetree.Node
	for a := n; a != nil && parent == nil; a = a.Parent {
		if ph, ok := a.U32("interrupt-parent"); ok {
			parent = t.ByPhandle(ph)
			if parent == nil {
				return 0
			}
		}
	}
	if parent == nil {
		parent = n.Parent
	}
	if parent == nil {
		return 0
	}
	ic, ok := parent.U32("#interrupt-cells")
	if !ok || ic == 0 || len(cells)%int(ic) != 0 {
		return 0
	}
	return len(cells) / int(ic)
}

// devName returns the name the kernel gives the platform device of node
// n, as of_device_make_bus_id() forms it (Linux 6.12
// drivers/of/device.c; 6.1 drivers/of/platform.c): the CPU address of
// its first reg entry, translated through every ranges above it
// (of_translate_address()), in lower-case hex, "." and the node's name
// without its unit address ("%llx.%pOFn"). It returns "" where that is
// not certain: no reg, a "mask" property (which adds a field), a bus on
// the way with #address-cells above 2 or a device_type (PCI and ISA
// translate otherwise), a missing ranges (the kernel then names the
// device by its node and its parents') or an address no ranges covers.
func devName(t *basetree.Tree, n *basetree.Node) string {
	regs, ok := n.Reg()
	if !ok || len(regs) == 0 || n.Has("mask") {
		return ""
	}
	addr := regs[0][0]
	for b := n.Parent; b != nil && b.Parent != nil; b = b.Parent {
		if b.Has("device_type") || b.AddressCells() > 2 || b.Parent.AddressCells() > 2 {
			return ""
		}
		cells, has := b.Cells("ranges")
		if !has {
			return ""
		}
		if len(cells) == 0 {
			continue
		}
		ac, pc, sc := b.AddressCells(), b.Parent.AddressCells(), b.SizeCells()
		wd := ac + pc + sc
		if sc > 2 || wd == 0 || len(cells)%wd != 0 {
			return ""
		}
		found := false
		for i := 0; i < len(cells); i += wd {
			child, parent, size := number(cells[i:i+ac]), number(cells[i+ac:i+ac+pc]), number(cells[i+ac+pc:i+wd])
			if addr >= child && addr-child < size {
				addr, found = parent+(addr-child), true
				break
			}
		}
		if !found {
			return ""
		}
	}
	name, _, _ := strings.Cut(n.Name, "@")
	return fmt.Sprintf("%x.%s", addr, name)
}

// number joins big-endian cells into one number.
func number(cells []uint32) uint64 {
	var v uint64
	for _, c := range cells {
		v = v<<32 | uint64(c)
	}
	return v
}

// orList prints widths as "32", "32 or 64", "32, 40 or 64".
func orList(ws []int) string {
	s := strings.Split(intList(ws), ", ")
	if len(s) < 2 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

func orNone(reason string) string {
	if reason == "" {
		return "no reason given"
	}
	return reason
}

func reasonText(reason string) string {
	if reason == "" {
		return ""
	}
	return " (" + reason + ")"
}
