package draft

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"boardc.dev/boardc/compiler/basetree"
)

// What the vendor fills in, and where such a fact is found.
const (
	todoDMA = "Each master needs dma: its DMA mask widths, dma: {streaming: N} (add coherent: M where the driver narrows its coherent mask). " +
		"A device tree does not state them: find the bits the driver passes to dma_set_mask_and_coherent() or dma_set_mask() " +
		"in its probe function, or the device's address width in the SoC's reference manual. " +
		"Where the driver sets its masks itself, also add driverSets: {source: \"<file> <function>()\"}."
	todoIRQs = "irqs are its IRQ action names as /proc/interrupts shows them (the name its driver passes to " +
		"request_irq() or devm_request_irq()), keyed by a short name; needed only for IRQ pinning."
	todoNet = "netdev, on a network interface, gives its name and hardware queue counts " +
		"(netdev: eth0: {rxQueues: N, txQueues: N}), from the driver or /sys/class/net/IF/queues on the board."
)

func (g *gen) socFile(soc, pkg string, compat []string) []byte {
	t, src := g.t, g.o.Source
	var w w
	w.comment(fmt.Sprintf("Draft of the %s SoC, written by boardc import from %s. Every fact below is one that tree states; "+
		"the TODO comments say what it cannot. Review each fact against the SoC's documentation before relying on it.", soc, src))
	w.p("package %s", pkg)
	w.p("")
	w.p("soc: {")
	w.p("name: %s", w.q(soc))
	w.p("compatible: %s", w.qs(socCompatibles(compat, g.board)))
	w.p("")
	root := t.Node("/")
	w.comment(fmt.Sprintf("%s: / { #address-cells = <%d>; #size-cells = <%d>; }", src, root.AddressCells(), root.SizeCells()))
	w.p(`root: {"#address-cells": %d, "#size-cells": %d}`, root.AddressCells(), root.SizeCells())
	w.p("")
	g.cpus(&w)
	w.p("")
	w.p("buses: {")
	for i, b := range g.buses {
		if i > 0 {
			w.p("")
		}
		g.bus(&w, b)
	}
	w.p("}")
	w.p("")
	if len(g.bridges) > 0 {
		var ps []string
		for _, n := range g.bridges {
			ps = append(ps, n.Path)
		}
		w.comment(fmt.Sprintf("PCIe host bridges, drafted as bridges (bridge): %s. Their endpoints do the DMA, with masks their own drivers set, "+
			"and take their coherency and dma-ranges from the bridge's node (pci_dma_configure(), drivers/pci/pci-driver.c): a bridge has no dma to fill in; "+
			"bridge.endpoints may state the widths its endpoints' drivers set, for the runtime verifier.", strings.Join(ps, ", ")))
	}
	if c := g.o.Kernel; c != nil {
		w.comment(fmt.Sprintf("Where a driver of Linux %s lists a master's compatible, the driver-facts catalogue (read from %s) fills its driver, dma, driverSets and, where the name is certain, irqs; "+
			"the comment above each says which fact, at which file:line and function. The TODOs left are what the catalogue does not know.", c.Kernel, c.Source.Tarball))
	}
	w.comment(todoDMA)
	w.comment(todoIRQs)
	w.comment(todoNet)
	w.p("masters: {")
	for i, m := range g.masters {
		if i > 0 {
			w.p("")
		}
		g.master(&w, m)
	}
	w.p("}")
	w.p("}")
	return []byte(w.b.String())
}

func (g *gen) cpus(w *w) {
	cpus := g.t.CPUs()
	topo := g.t.Topology()
	switch topo.From {
	case "cpu-map":
		w.comment(fmt.Sprintf("%s: %d CPU nodes in /cpus, grouped by the leaf clusters of /cpus/cpu-map.", g.o.Source, len(cpus)))
	case "next-level-cache":
		w.comment(fmt.Sprintf("%s: %d CPU nodes in /cpus, grouped by the cache node their next-level-cache names (no cpu-map).", g.o.Source, len(cpus)))
	default:
		w.comment(fmt.Sprintf("%s: %d CPU nodes in /cpus; no cpu-map and no shared cache nodes: one cluster. "+
			"TODO check the clusters (CPUs sharing an L2 cache) in the SoC's reference manual.", g.o.Source, len(cpus)))
	}
	if len(topo.Clusters) == 0 {
		w.comment("TODO cpus: the tree has no CPU nodes (older uniprocessor SoCs have no /cpus); list the clusters and their CPUs from the SoC's reference manual, or leave none: then no IRQ pin, steering mask or isolated CPU can name a CPU.")
		w.p("cpus: clusters: []")
		return
	}
	w.p("cpus: clusters: [")
	for _, c := range topo.Clusters {
		core, others := clusterCores(c, cpus)
		if len(others) == 0 {
			w.p("{core: %s, cpus: [%s]},", w.q(core), intList(c))
			continue
		}
		// A DynamIQ cluster: the first CPU's core, and the others by
		// their CPU nodes' compatible.
		w.p("{")
		w.p("core: %s", w.q(core))
		w.p("cpus: [%s]", intList(c))
		w.p("cores: {")
		for _, o := range others {
			w.p("%s: [%s]", w.q(o.core), intList(o.cpus))
		}
		w.p("}")
		w.p("},")
	}
	w.p("]")
}

// coreCPUs is a core type and the CPUs of a cluster that have it.
type coreCPUs struct {
	core string
	cpus []int
}

// clusterCores returns the core of a cluster's first CPU node with a
// compatible and, in the order they first appear, the other cores of its
// CPUs with their CPUs. A CPU node without a compatible counts as the
// first core.
func clusterCores(c []int, cpus []basetree.CPU) (string, []coreCPUs) {
	coreOf := func(n int) string {
		if n < len(cpus) {
			return cpus[n].Core
		}
		return ""
	}
	if len(c) == 0 {
		return "", nil
	}
	first := ""
	for _, n := range c {
		if first = coreOf(n); first != "" {
			break
		}
	}
	var others []coreCPUs
	for _, n := range c {
		core := coreOf(n)
		if core == first || core == "" {
			continue
		}
		i := slices.IndexFunc(others, func(o coreCPUs) bool { return o.core == core })
		if i < 0 {
			others = append(others, coreCPUs{core: core})
			i = len(others) - 1
		}
		others[i].cpus = append(others[i].cpus, n)
	}
	return first, others
}

// intList writes numbers as the elements of a CUE list.
func intList(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}

func (g *gen) bus(w *w, b *basetree.Node) {
	src := g.o.Source
	n, coh := len(g.onBus[b]), g.coherentOn(b)
	w.comment(fmt.Sprintf("%s: %s { #address-cells = <%d>; #size-cells = <%d>; }, %d DMA master(s) of this draft on it, %d with dma-coherent.",
		src, b.Path, b.AddressCells(), b.SizeCells(), n, coh))
	w.p("%s: {", label(g.keys.of[b]))
	w.p("node: %s", g.nodeText(w, b))
	if p := g.busOf[b]; p != nil {
		w.p("parent: %s", w.q(g.keys.of[p]))
	}
	w.p(`"#address-cells": %d`, b.AddressCells())
	w.p(`"#size-cells": %d`, b.SizeCells())
	w.p("coherency: {")
	switch from := busCoherent(b); {
	case from != nil:
		where := "on the bus node"
		if from != b {
			where = "on " + from.Path + ", above it"
		}
		w.comment(fmt.Sprintf("Upstream sets dma-coherent %s: of_dma_is_coherent() (drivers/of/address.c) walks up from each device, so every master on this bus is coherent; flagAt keeps the fragment's flag where upstream has it.", where))
		w.p("coherent: true")
		w.p("source: %s", w.q(limit(g.propFrom(from, "dma-coherent")+" on "+from.Path, 200)))
		w.p(`masters: "all"`)
		w.p("flagAt: %s", w.q(from.Path))
	case coh > 0:
		w.comment("Upstream marks some masters on this bus dma-coherent, so it can snoop for them; the draft claims no more than that: only masters with their own verified fact are coherent.")
		w.p("coherent: true")
		w.p("source: %s", w.q(limit(fmt.Sprintf("%s: dma-coherent on %d of the masters on %s", src, coh, b.Path), 200)))
		w.p(`masters: "verified"`)
	default:
		w.comment("TODO coherency: no master on this bus has dma-coherent upstream, so Linux treats its DMA as non-coherent; whether the interconnect can snoop is in the SoC's reference manual.")
		w.p("coherent: false")
		w.p("source: %s", w.q(limit(fmt.Sprintf("%s: no master on %s has dma-coherent", src, b.Path), 200)))
	}
	w.p("}")
	if b.Path != "/" {
		g.dmaRanges(w, b)
	}
	w.p("}")
}

func (g *gen) dmaRanges(w *w, b *basetree.Node) {
	rs, has, ok := b.DMARanges()
	switch {
	case !has:
		return
	case !ok:
		w.comment("TODO dmaRanges: upstream's dma-ranges has cells wider than 64 bits or is not a whole number of triplets; not imported.")
		return
	case len(rs) == 0:
		w.comment("dma-ranges; (empty: an identity translation)")
		w.p("dmaRanges: []")
		return
	}
	w.p("dmaRanges: [")
	for _, r := range rs {
		w.p("{child: %s, parent: %s, size: %s},", hex(r[0]), hex(r[1]), hex(r[2]))
	}
	w.p("]")
}

func (g *gen) master(w *w, m *basetree.Node) {
	src := g.o.Source
	why := "named as a DMA master by its generic node name"
	switch {
	case m.Has("dma-coherent"):
		why = "dma-coherent"
	case m.Has("iommus"):
		why = "has iommus"
	case isPCIeHost(m):
		why = "a PCIe host bridge"
	case !dmaNames[strings.SplitN(m.Name, "@", 2)[0]]:
		why = "a DMA-capable compatible"
	}
	w.comment(fmt.Sprintf("%s: %s (%s).", src, m.Path, why))
	w.p("%s: {", label(g.keys.of[m]))
	w.p("node: %s", g.nodeText(w, m))
	compat, _ := m.Strings("compatible")
	if len(compat) == 0 {
		w.comment("TODO compatible: the node has none upstream.")
	}
	w.p("compatible: %s", w.qs(compat))
	w.p("bus: %s", w.q(g.keys.of[g.busOf[m]]))
	switch coherent, from := m.Coherent(); {
	case m.Has("dma-coherent"):
		// Upstream's dma-coherent, a verified fact of this master,
		// sourced to the file and line that set it where the tree
		// was compiled with its sources.
		w.p("coherency: {coherent: true, source: %s}", w.q(limit(g.propFrom(m, "dma-coherent"), 200)))
	case !coherent && from != nil && busCoherent(m.Parent) != nil:
		// A dma-noncoherent on the master, on a bus upstream marks
		// coherent: an opt-out, which of_dma_is_coherent() finds first.
		w.p("coherency: {coherent: false, source: %s, reason: %s}", w.q(limit(g.propFrom(from, "dma-noncoherent"), 200)),
			w.q("upstream sets dma-noncoherent on "+limit(from.Path, 150)))
	}
	if cells, ok := m.Cells("iommus"); ok && len(cells) > 0 {
		if iommu := g.t.ByPhandle(cells[0]); iommu != nil {
			if ls := g.t.LabelsOf(iommu.Path); len(ls) > 0 {
				w.p("iommu: %s", w.q(ls[0]))
			}
		}
	}
	if isPCIeHost(m) {
		g.bridge(w, m, compat)
		return
	}
	if c := g.o.Kernel; c != nil {
		if d, matched := c.Lookup(compat); d != nil {
			g.fromCatalog(w, m, d, matched)
			if strings.HasPrefix(m.Name, "ethernet") {
				w.comment("TODO netdev: its interfaces and queue counts (see above).")
			}
			w.p("}")
			return
		}
		w.comment(fmt.Sprintf("Linux %s (%s): no driver lists its compatibles.", c.Series, c.Kernel))
	}
	w.comment("TODO dma: {streaming: N}, and irqs (see above).")
	w.p("irqs: {}")
	if strings.HasPrefix(m.Name, "ethernet") {
		w.comment("TODO netdev: its interfaces and queue counts (see above).")
	}
	w.p("}")
}

// bridge writes the rest of master m, a PCIe host bridge: its driver,
// where the catalogue names one, and bridge, with no dma (the bridge has
// no width of its own: its endpoints' drivers set theirs) and no irqs
// (the bridge's irqs and netdev are its endpoints', named by their
// drivers, which the tree does not name).
func (g *gen) bridge(w *w, m *basetree.Node, compat []string) {
	if c := g.o.Kernel; c != nil {
		if d, matched := c.Lookup(compat); d != nil {
			w.comment(fmt.Sprintf("Linux %s (%s): driver %s (%s, %s) binds %q; probe %s.", c.Series, c.Kernel, d.Name, d.Bus, d.Site, matched, d.Probe))
			if cNameRE.MatchString(d.Name) {
				w.p("driver: %s", w.q(d.Name))
			}
		} else {
			w.comment(fmt.Sprintf("Linux %s (%s): no driver lists its compatibles.", c.Series, c.Kernel))
		}
	}
	why := "named pcie or pci"
	if dt, _ := m.String("device_type"); dt == "pci" {
		why = `device_type = "pci"`
	}
	source := w.q(limit(fmt.Sprintf("%s: %s, %s; pci_dma_configure(), drivers/pci/pci-driver.c, configures its endpoints from this node", g.o.Source, m.Path, why), 200))
	switch rs, has, ok := m.PCIDMARanges(); {
	case has && ok && len(rs) > 0 && m.SizeCells() == 2:
		// The node's own dma-ranges, its inbound windows: the
		// endpoints' walk (of_dma_get_range(), from the bridge's node)
		// ends on them, and the fragment writes them back as they are.
		w.comment("Upstream's dma-ranges on the bridge's node: its inbound windows, which of_dma_configure_id() (drivers/of/device.c) reads first for the PCI devices behind it (flags: the PCI address's phys.hi cell).")
		w.p("bridge: {")
		w.p("kind: %s", w.q("pcie"))
		w.p("source: %s", source)
		w.p("dmaRanges: [")
		for _, r := range rs {
			w.p("{flags: %s, child: %s, parent: %s, size: %s},", hex(uint64(r.Flags)), hex(r.Bus), hex(r.Parent), hex(r.Size))
		}
		w.p("]")
		w.p("}")
	default:
		switch {
		case has && ok && len(rs) == 0:
			w.comment("Upstream's dma-ranges on the bridge's node is empty: to the endpoints' walk (of_dma_get_range(), drivers/of/address.c) what none is; not imported.")
		case has:
			w.comment("TODO bridge.dmaRanges: upstream's dma-ranges on the bridge's node is not in the PCI bus binding's cells (#address-cells 3, #size-cells 2, a parent address of at most 2 cells) or not whole windows; not imported.")
		}
		w.p("bridge: {kind: %s, source: %s}", w.q("pcie"), source)
	}
	w.comment("irqs and netdev, if the board pins or steers them, are the endpoints': the names their own drivers request.")
	w.p("irqs: {}")
	w.p("}")
}

// boardFile writes the board's package. soc, when not nil, is the SoC
// package the board imports, whose masters the board disables by their
// node's status in the tree, under the SoC's keys; nil: the draft's own
// masters and keys.
func (g *gen) boardFile(board, socPkg string, compat []string, soc map[string]string) []byte {
	t, src := g.t, g.o.Source
	var w w
	w.comment(fmt.Sprintf("Draft of the %s board, written by boardc import from %s. Review it, fill in the TODOs, then run boardc vet.", board, src))
	w.p("package %s", pkgOf(board))
	w.p("")
	w.p("import %s", w.q(g.o.Module+"/soc/"+socPkg))
	w.p("")
	w.p("name: %s", w.q(board))
	if model, ok := t.Node("/").String("model"); ok && model != "" {
		w.p("model: %s", w.q(model))
	}
	w.p("compatible: %s", w.qs(compat))
	if g.o.DTS != "" {
		w.p("dts: %s", w.q(g.o.DTS))
	}
	if c := g.o.Kernel; c != nil {
		w.comment(fmt.Sprintf("The driver-facts catalogue the draft's drivers, DMA widths and IRQ names come from: Linux %s, from %s.", c.Kernel, c.Source.Tarball))
		w.p("kernel: %s", w.q(c.Series))
	}
	w.p("")
	w.p("soc: %s.soc", socPkg)
	var disabled, unknown []string
	for _, m := range g.masters {
		if m.Enabled() {
			continue
		}
		if soc == nil {
			disabled = append(disabled, g.keys.of[m])
		} else if _, ok := soc[m.Path]; !ok {
			unknown = append(unknown, m.Path)
		}
	}
	for p, k := range soc {
		if n := g.t.Node(p); n != nil && !n.Enabled() {
			disabled = append(disabled, k)
		}
	}
	sort.Strings(disabled)
	if len(disabled) > 0 {
		w.comment(fmt.Sprintf("%s: the masters this board leaves disabled (status \"disabled\").", src))
		w.p("soc: masters: {")
		for _, k := range disabled {
			w.p("%s: enabled: false", label(k))
		}
		w.p("}")
	}
	if len(unknown) > 0 {
		w.comment(fmt.Sprintf("%s also leaves disabled %s, which the SoC package does not describe.", src, strings.Join(unknown, ", ")))
	}
	w.p("")
	g.memory(&w)
	w.p("")
	w.comment("TODO policy: the runtime tuning (IRQ pins, RPS/XPS steering, sysctls, isolated CPUs); a device tree has none.")
	w.p("policy: {irqs: [], net: {}, sysctls: {}, isolatedCPUs: []}")
	w.p("waivers: []")
	return []byte(w.b.String())
}

func (g *gen) memory(w *w) {
	var regions []string
	var from []string
	for _, c := range g.t.Node("/").Children {
		if dt, _ := c.String("device_type"); dt != "memory" {
			continue
		}
		regs, ok := c.Reg()
		if !ok {
			continue
		}
		for _, r := range regs {
			if r[1] > 0 {
				regions = append(regions, fmt.Sprintf("{base: %s, size: %s}", hex(r[0]), hex(r[1])))
			}
		}
		from = append(from, c.Path)
	}
	if len(regions) == 0 {
		w.comment("TODO memory: the board's RAM regions, memory: [{base: B, size: S}, ...]; the tree has no memory node with a size (the bootloader writes it), so the board's documentation or /proc/iomem on it says.")
		return
	}
	w.comment(fmt.Sprintf("%s: reg of %s (the bootloader may fix up the size on the board).", g.o.Source, strings.Join(from, ", ")))
	w.p("memory: [%s]", strings.Join(regions, ", "))
}

// limit cuts s to at most n bytes, not inside a UTF-8 sequence.
func limit(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
