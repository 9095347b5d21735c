package ir

import (
	"fmt"
	"iter"
	"strconv"
	"strings"
)

// Element is one element of a board description as All yields it: its
// ref, the position of its own declaration (zero when it has none, as
// for the board's model), and the facts the description states about it.
type Element struct {
	Ref   Ref
	Pos   Pos
	Facts []Fact
}

// Fact is one statement of the description about an element, at the
// position of the CUE that states it, and what it says in words.
type Fact struct {
	Pos  Pos
	Text string
	// Parts are the positions of the parts of the statement that its
	// text covers: a node's label and path, a master's coherent DMA
	// width beside its streaming one, each dma-ranges triplet.
	Parts []Pos
}

// facts collects the facts of one element: a fact is kept when it or one
// of its parts has a position. With skip set it collects none, for a
// walk that wants the refs only.
type facts struct {
	list []Fact
	skip bool
}

func (fs *facts) add(pos Pos, parts []Pos, format string, args ...any) {
	if fs.skip {
		return
	}
	for _, p := range parts {
		pos = pos.Or(p)
	}
	if pos.IsValid() {
		fs.list = append(fs.list, Fact{Pos: pos, Text: fmt.Sprintf(format, args...), Parts: parts})
	}
}

func (fs *facts) at(pos Pos, format string, args ...any) { fs.add(pos, nil, format, args...) }

// All yields every element of b with its ref and facts, in a fixed
// order: the board's own elements, the SoC and its root, its masters,
// buses and CPU clusters, the DPAA2 portals, the memory, the runtime
// policy and the waivers. It is the one walk over a board that refs,
// explain and waivers share: a fact it does not yield is one none of
// them sees, and a test fails on a position of the IR it does not
// yield.
func (b *Board) All() iter.Seq[Element] {
	return func(yield func(Element) bool) { b.walk(yield, false) }
}

// walk yields the elements of b as All does; refsOnly leaves their facts
// out.
func (b *Board) walk(yield func(Element) bool, refsOnly bool) {
	stop := false
	el := func(ref Ref, pos Pos, fs facts) {
		stop = stop || !yield(Element{Ref: ref, Pos: pos, Facts: fs.list})
	}
	fresh := func() facts { return facts{skip: refsOnly} }
	fs := fresh()
	fs.at(b.Pos, "board %s", b.Name)
	el(RefBoard, b.Pos, fs)
	el(RefModel, Pos{}, facts{})
	fs = fresh()
	fs.at(b.CompatiblePos, "board compatible %s", strings.Join(b.Compatible, ", "))
	el(RefCompatible, b.CompatiblePos, fs)
	if b.DTS != "" || b.DTSPos.IsValid() {
		fs = fresh()
		fs.at(b.DTSPos, "board dts %s", b.DTS)
		el(RefDTS, b.DTSPos, fs)
	}
	if b.Kernel != "" || b.KernelPos.IsValid() {
		fs = fresh()
		fs.at(b.KernelPos, "board kernel %s", b.Kernel)
		el(RefKernel, b.KernelPos, fs)
	}
	s := &b.SoC
	fs = fresh()
	fs.at(s.Pos, "SoC %s", s.Name)
	if d := s.IRQDelivery; d != nil {
		fs.at(d.Pos, "SoC interrupt controller delivers each IRQ to one CPU of its mask: %t (source: %s)", d.One, d.Source)
	}
	el(RefSoC, s.Pos, fs)
	fs = fresh()
	fs.at(s.RootPos, "SoC root: #address-cells %d, #size-cells %d", s.RootAddressCells, s.RootSizeCells)
	el(RefRoot, s.RootPos, fs)
	for _, m := range s.Masters {
		el(m.Ref(), m.Pos, masterFacts(m, fresh()))
	}
	for _, x := range s.Buses {
		el(x.Ref(), x.Pos, busFacts(x, fresh()))
	}
	el(RefCPUs, Pos{}, facts{})
	for i, c := range s.Clusters {
		fs = fresh()
		fs.at(c.Pos, "CPU cluster of %s: CPUs %s", c.Core, ints(c.CPUs))
		for _, cc := range c.Cores {
			fs.at(cc.Pos, "of which %s: CPUs %s", cc.Core, ints(cc.CPUs))
		}
		el(ClusterRef(i), c.Pos, fs)
	}
	if d := s.DPAA2; d != nil {
		fs = fresh()
		fs.add(d.Pos, []Pos{d.DPNIPos, d.DPCONPos}, "DPAA2: %d DPIO(s), %d DPNI, %d DPCON", len(d.DPIOs), d.DPNI, d.DPCON)
		fs.at(d.StashPos, "DPAA2 stash destination %d + cpu / %d (source: %s)", d.StashClusterBase, d.StashClusterSize, d.StashSource)
		fs.at(d.RXStashingPos, "DPAA2: RX-queue FLC stashing %t", d.RXStashing)
		fs.at(d.SerDesTablePos, "DPAA2: SerDes protocol table of %d protocols (source: %s)", len(d.SerDesTable), d.SerDesSource)
		for _, r := range d.SerDesTable {
			macs := "none"
			if len(r.DPMACs) > 0 {
				macs = ints(r.DPMACs)
			}
			fs.at(r.Pos, "DPAA2: SerDes %d protocol 0x%02X gives DPMACs %s", r.SerDes, r.Protocol, macs)
		}
		fs.at(d.DPCPos, "DPAA2: DPC qbman wq_ch_conversion %d (source: %s)", d.WQChConversion, d.DPCSource)
		el(RefDPAA2, d.Pos, fs)
		for i := range d.DPIOs {
			p := &d.DPIOs[i]
			fs = fresh()
			fs.at(p.Pos, "DPIO dpio.%d serves CPU %d", p.ID, p.CPU)
			el(p.Ref(), p.Pos, fs)
		}
	}
	if b.HasSerDes {
		fs = fresh()
		protos := make([]string, len(b.SerDes))
		for i, p := range b.SerDes {
			protos[i] = fmt.Sprintf("0x%02X", p)
		}
		fs.add(b.SerDesPos, b.SerDesPositions, "board SerDes protocols %s (SerDes 1 first)", strings.Join(protos, ", "))
		el(RefSerDes, b.SerDesPos, fs)
	}
	for i, m := range b.Memory {
		fs = fresh()
		fs.at(m.Pos, "RAM at 0x%x, 0x%x bytes", m.Base, m.Size)
		el(MemoryRef(i), m.Pos, fs)
	}
	p := &b.Policy
	for i, x := range p.IRQs {
		fs = fresh()
		fs.at(x.Pos, "policy: IRQs named %s on CPUs %s", x.IRQ, ints(x.CPUs))
		el(IRQPinRef(i), x.Pos, fs)
	}
	for i := range p.Net {
		n := &p.Net[i]
		fs = fresh()
		fs.at(n.Pos, "policy: %s RPS %v, rps_flow_cnt %d, XPS %v", n.IfName, n.RPS, n.RPSFlowCount, n.XPS)
		el(n.Ref(), n.Pos, fs)
	}
	for i := range p.Sysctls {
		x := &p.Sysctls[i]
		fs = fresh()
		fs.at(x.Pos, "policy: sysctl %s = %s", x.Key, x.Value)
		el(x.Ref(), x.Pos, fs)
	}
	fs = fresh()
	fs.at(p.IsolatedPos, "policy: isolated CPUs %s", ints(p.IsolatedCPUs))
	el(RefIsolatedCPUs, p.IsolatedPos, fs)
	el(RefIrqbalance, Pos{}, facts{})
	for i, w := range b.Waivers {
		fs = fresh()
		fs.add(w.Pos, []Pos{w.OnPos}, "waiver of %s on %s: %s", w.Check, w.On, w.Reason)
		el(WaiverRef(i), w.Pos, fs)
	}
}

// masterFacts lists the facts of master m: its declaration, node,
// compatible, bus, DMA widths, the driver's part, its coherency, IOMMU,
// IRQs and network devices.
func masterFacts(m *Master, fs facts) facts {
	if fs.skip {
		return fs
	}
	state := "enabled"
	if !m.Enabled {
		state = "disabled on this board"
	}
	fs.add(m.Pos, []Pos{m.EnabledPos}, "master %s (%s), driver %s", m.Key, state, orNone(m.Driver))
	fs.add(m.Node.Pos, []Pos{m.Node.LabelPos, m.Node.PathPos}, "master %s: node %s %s", m.Key, m.Node.DTRef(), m.Node.Path)
	fs.at(m.CompatiblePos, "master %s: compatible %s", m.Key, strings.Join(m.Compatible, ", "))
	bus := "(none)"
	if m.Bus != nil {
		bus = m.Bus.Key
	}
	fs.at(m.BusPos, "master %s: on bus %s", m.Key, bus)
	fs.add(m.DMABitsPos, []Pos{m.CoherentBitsPos}, "master %s: DMA masks %d-bit streaming, %d-bit coherent", m.Key, m.DMABits, m.CoherentWidth())
	if b := m.Bridge; b != nil {
		fs.at(b.Pos, "master %s: a %s (%s): its endpoints do the DMA, with masks their own drivers set, and take their coherency and bus DMA limit from its node; no DMA width of its own, no C for it", m.Key, b.KindText(), b.Source)
		if b.EndpointsPos.IsValid() {
			fs.at(b.EndpointsPos, "master %s: its endpoints' drivers set a %s-bit streaming mask (%s)", m.Key, JoinInts(b.Endpoints, " or "), b.EndpointsSource)
		}
		if b.HasDMARanges() {
			parts := make([]Pos, len(b.DMARanges))
			for i, r := range b.DMARanges {
				parts[i] = r.Pos
			}
			top, _ := m.BridgeDMALimit()
			fs.add(b.DMARangesPos, parts, "master %s: its own dma-ranges, %d inbound window(s): its endpoints' bus DMA limit is %#x", m.Key, len(b.DMARanges), top)
		}
	}
	if m.DMADeviceKey != "" {
		fs.at(m.DMADevicePos, "master %s: its driver configures its DMA from master %s's node (of_dma_configure() with that node): that node's coherency and bus DMA limit apply; no DMA width of its own, no C for it", m.Key, m.DMADeviceKey)
	}
	if d := m.DriverSets; d != nil && d.MC != "" {
		fs.at(d.Pos, "master %s: the DPAA2 Management Complex (bridge kind fsl-mc: %s): its objects, the devices of the fsl-mc bus, do the DMA", m.Key, d.MC)
	}
	if d := m.DriverSets; d != nil {
		fs.at(d.Pos, "master %s: its driver sets the masks (%s); no C for it", m.Key, d.Source)
		if d.Children && m.Bus != nil {
			s, c := m.ChildWidths()
			fs.at(d.ChildrenPos, "master %s: the masks are on the devices below its node's device; the verifier expects %d-bit streaming, %d-bit coherent there once a driver is bound", m.Key, s, c)
		} else if d.Children {
			fs.at(d.ChildrenPos, "master %s: the masks are on the devices below its node's device", m.Key)
		}
		if d.WidthsPos.IsValid() {
			fs.at(d.WidthsPos, "master %s: its driver sets a %s-bit streaming mask", m.Key, JoinInts(d.Widths, " or "))
		}
	}
	if c := m.Coherency; c != nil {
		why := c.Source
		if why == "" {
			why = c.Reason
		}
		fs.at(c.Pos, "master %s coherency: coherent %t (%s)", m.Key, c.Coherent, why)
	}
	fs.at(m.IOMMUPos, "master %s: behind IOMMU %s", m.Key, m.IOMMU)
	for _, irq := range m.IRQs {
		fs.at(irq.Pos, "master %s: irq %s named %q in /proc/interrupts", m.Key, irq.Key, irq.Name)
	}
	if a := m.IRQAffinity; a != nil {
		fs.at(a.Pos, "master %s: its driver places irqs %s with an affinity hint (%s)", m.Key, strings.Join(a.Keys, ", "), a.Source)
	}
	fs.at(m.IRQCountPos, "master %s: irq count of %s", m.Key, strings.Join(m.IRQCountKeys, ", "))
	for _, n := range m.NetDevs {
		fs.at(n.Pos, "master %s: netdev %s, %d rx / %d tx queue(s), RSS %t", m.Key, n.Name, n.RxQueues, n.TxQueues, n.RSS)
		switch {
		case n.HasDPNI && !n.DPNIPos.IsValid():
			fs.at(n.Pos, "master %s: netdev %s is the netdev of dpni.%d, DPNI %d of the data-path layout", m.Key, n.Name, n.DPNI, n.DPNI)
		case n.HasDPNI:
			fs.at(n.DPNIPos, "master %s: netdev %s is the netdev of dpni.%d", m.Key, n.Name, n.DPNI)
		}
		fs.at(n.DPMACPos, "master %s: netdev %s connects to dpmac.%d", m.Key, n.Name, n.DPMAC)
		fs.at(n.DPMACLinkTypePos, "master %s: netdev %s gives its DPMAC link type %s in the DPC", m.Key, n.Name, n.DPMACLinkType)
		if n.HasPort() {
			fs.add(n.Port.Pos, []Pos{n.Port.LabelPos, n.Port.PathPos}, "master %s: netdev %s: port node %s %s", m.Key, n.Name, n.Port.DTRef(), n.Port.Path)
		}
		if d := n.DriverXPS; d != nil {
			fs.add(d.Pos, []Pos{d.ChildrenPos}, "master %s: netdev %s: its driver sets the XPS masks (%s)", m.Key, n.Name, d.Source)
		}
	}
	return fs
}

// busFacts lists the facts of bus x: its node, parent, cells, coherency,
// address width and dma-ranges.
func busFacts(x *Bus, fs facts) facts {
	if fs.skip {
		return fs
	}
	fs.add(x.Pos, []Pos{x.Node.Pos, x.Node.LabelPos, x.Node.PathPos}, "bus %s: node %s", x.Key, x.Node.Path)
	if x.Parent != nil {
		fs.at(x.ParentPos, "bus %s: parent bus %s", x.Key, x.Parent.Key)
	}
	fs.at(x.CellsPos, "bus %s: #address-cells %d, #size-cells %d", x.Key, x.AddressCells, x.SizeCells)
	fs.at(x.Coherency.Pos, "bus %s coherency: %s (source: %s)", x.Key, busCoherency(x.Coherency), x.Coherency.Source)
	fs.at(x.Coherency.FlagAtPos, "bus %s coherency: dma-coherent stated on %s", x.Key, x.Coherency.FlagAt)
	fs.at(x.AddressBitsPos, "bus %s: %d address bits", x.Key, x.AddressBits)
	if x.HasDMARanges {
		parts := make([]Pos, len(x.DMARanges))
		for i, r := range x.DMARanges {
			parts[i] = r.Pos
		}
		fs.add(x.DMARangesPos, parts, "bus %s: dma-ranges with %d translation(s)", x.Key, len(x.DMARanges))
	}
	return fs
}

func busCoherency(c BusCoherency) string {
	if !c.Coherent {
		return "not coherent"
	}
	return "coherent for " + c.Masters + " masters"
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func ints(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ",")
}

// JoinInts joins ns with sep, in decimal: "32 or 64", "32/64".
func JoinInts(ns []int, sep string) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, sep)
}
