package main

import (
	"fmt"
	"strings"

	"boardc.dev/boardc/compiler/ir"
)

// fact is one statement of a board description, at its CUE position,
// and the element it is about.
type fact struct {
	pos  ir.Pos
	ref  ir.Ref
	text string
}

// boardFacts lists the facts of b that explain can show, in description
// order: board, masters, buses, CPUs, DPAA2, memory, then the runtime
// policy.
func boardFacts(b *ir.Board) []fact {
	var fs []fact
	add := func(pos ir.Pos, ref ir.Ref, format string, args ...any) {
		if pos.IsValid() {
			fs = append(fs, fact{pos, ref, fmt.Sprintf(format, args...)})
		}
	}
	add(b.Pos, ir.RefBoard, "board %s", b.Name)
	add(b.CompatiblePos, ir.RefCompatible, "board compatible %s", strings.Join(b.Compatible, ", "))
	add(b.SoC.Pos, ir.RefSoC, "SoC %s", b.SoC.Name)
	for _, m := range b.SoC.Masters {
		o := m.Ref
		state := "enabled"
		if !m.Enabled {
			state = "disabled on this board"
		}
		add(m.Pos, o, "master %s (%s), driver %s", m.Key, state, orNone(m.Driver))
		add(m.Node.Pos, o, "master %s: node %s %s", m.Key, m.Node.Ref(), m.Node.Path)
		add(m.CompatiblePos, o, "master %s: compatible %s", m.Key, strings.Join(m.Compatible, ", "))
		add(m.BusPos, o, "master %s: on bus %s", m.Key, m.Bus.Key)
		add(m.DMABitsPos, o, "master %s: DMA masks %d-bit streaming, %d-bit coherent", m.Key, m.DMABits, m.CoherentWidth())
		if d := m.DriverSets; d != nil {
			add(d.Pos, o, "master %s: its driver sets the masks (%s); no C for it", m.Key, d.Source)
			if d.Children {
				s, c := m.ChildWidths()
				add(d.ChildrenPos, o, "master %s: the masks are on the devices below its node's device; the verifier expects %d-bit streaming, %d-bit coherent there once a driver is bound", m.Key, s, c)
			}
		}
		if c := m.Coherency; c != nil {
			why := c.Source
			if why == "" {
				why = c.Reason
			}
			add(c.Pos, o, "master %s coherency: coherent %t (%s)", m.Key, c.Coherent, why)
		}
		for _, irq := range m.IRQs {
			add(irq.Pos, o, "master %s: irq %s named %q in /proc/interrupts", m.Key, irq.Key, irq.Name)
		}
		for _, n := range m.NetDevs {
			add(n.Pos, o, "master %s: netdev %s, %d rx / %d tx queue(s), RSS %t", m.Key, n.Name, n.RxQueues, n.TxQueues, n.RSS)
			if n.HasDPNI && !n.DPNIPos.IsValid() {
				add(n.Pos, o, "master %s: netdev %s is the netdev of dpni.%d, DPNI %d of the data-path layout", m.Key, n.Name, n.DPNI, n.DPNI)
			}
		}
	}
	for _, bus := range b.SoC.Buses {
		o := bus.Ref
		add(bus.Pos, o, "bus %s: node %s", bus.Key, bus.Node.Path)
		add(bus.CellsPos, o, "bus %s: #address-cells %d, #size-cells %d", bus.Key, bus.AddressCells, bus.SizeCells)
		add(bus.Coherency.Pos, o, "bus %s coherency: %s (source: %s)", bus.Key, busCoherency(bus.Coherency), bus.Coherency.Source)
		add(bus.AddressBitsPos, o, "bus %s: %d address bits", bus.Key, bus.AddressBits)
		if bus.HasDMARanges {
			add(bus.DMARangesPos, o, "bus %s: dma-ranges with %d translation(s)", bus.Key, len(bus.DMARanges))
		}
	}
	for _, c := range b.SoC.Clusters {
		add(c.Pos, c.Ref, "CPU cluster of %s: CPUs %s", c.Core, ints(c.CPUs))
	}
	if d := b.SoC.DPAA2; d != nil {
		add(d.Pos, ir.RefDPAA2, "DPAA2: %d DPIO(s), %d DPNI, %d DPCON", len(d.DPIOs), d.DPNI, d.DPCON)
		add(d.StashPos, ir.RefDPAA2, "DPAA2 stash destination %d + cpu / %d (source: %s)", d.StashClusterBase, d.StashClusterSize, d.StashSource)
		for _, p := range d.DPIOs {
			add(p.Pos, p.Ref, "DPIO dpio.%d serves CPU %d", p.ID, p.CPU)
		}
	}
	for _, m := range b.Memory {
		add(m.Pos, m.Ref, "RAM at 0x%x, 0x%x bytes", m.Base, m.Size)
	}
	for _, p := range b.Policy.IRQs {
		add(p.Pos, p.Ref, "policy: IRQs named %s on CPUs %s", p.IRQ, ints(p.CPUs))
	}
	for _, n := range b.Policy.Net {
		add(n.Pos, n.Ref, "policy: %s RPS %v, rps_flow_cnt %d, XPS %v", n.IfName, n.RPS, n.RPSFlowCount, n.XPS)
	}
	for _, s := range b.Policy.Sysctls {
		add(s.Pos, s.Ref, "policy: sysctl %s = %s", s.Key, s.Value)
	}
	add(b.Policy.IsolatedPos, ir.RefIsolatedCPUs, "policy: isolated CPUs %s", ints(b.Policy.IsolatedCPUs))
	for i, w := range b.Waivers {
		add(w.Pos, ir.WaiverRef(i), "waiver of %s on %s: %s", w.Check, w.On, w.Reason)
	}
	return fs
}

// coherenceText says how a master's effective coherency was decided.
func coherenceText(m *ir.Master) string {
	switch m.Coherence() {
	case ir.Inherited:
		return "coherent, inherited from bus " + m.Bus.Key + " (dma-coherent)"
	case ir.Verified:
		return "coherent, verified for this master (dma-coherent)"
	case ir.OptedOut:
		return "not coherent: the master opts out on a coherent bus"
	case ir.Unverified:
		return "not coherent: bus " + m.Bus.Key + " covers only verified masters and this one has no fact"
	}
	return "not coherent: bus " + m.Bus.Key + " cannot snoop the CPU caches"
}

func busCoherency(c ir.BusCoherency) string {
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
