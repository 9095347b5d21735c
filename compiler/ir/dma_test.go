package ir

import "testing"

// TestBusDMALimit walks the dma-ranges of a master's buses as
// of_dma_get_range() (drivers/of/address.c) does.
func TestBusDMALimit(t *testing.T) {
	r40 := []DMARange{{Child: 0, Parent: 0, Size: 1 << 40}}
	two := []DMARange{{Child: 0, Parent: 0, Size: 1 << 30}, {Child: 1 << 32, Parent: 1 << 32, Size: 1 << 34}}
	for _, tc := range []struct {
		name   string
		top    *Bus // the bus above the master's bus
		bus    *Bus
		limit  uint64
		fromOf string
	}{
		{"none anywhere", &Bus{Key: "top"}, &Bus{Key: "bus"}, 0, ""},
		{"on the bus", &Bus{Key: "top"}, &Bus{Key: "bus", HasDMARanges: true, DMARanges: r40}, 1<<40 - 1, "bus"},
		{"missing on the bus, found above", &Bus{Key: "top", HasDMARanges: true, DMARanges: r40}, &Bus{Key: "bus"}, 1<<40 - 1, "top"},
		{"empty on the bus, found above", &Bus{Key: "top", HasDMARanges: true, DMARanges: r40}, &Bus{Key: "bus", HasDMARanges: true}, 1<<40 - 1, "top"},
		{"empty on the bus, missing above", &Bus{Key: "top"}, &Bus{Key: "bus", HasDMARanges: true}, 0, ""},
		{"the highest of several", &Bus{Key: "top"}, &Bus{Key: "bus", HasDMARanges: true, DMARanges: two}, 1<<32 + 1<<34 - 1, "bus"},
		{"the nearest non-empty wins", &Bus{Key: "top", HasDMARanges: true, DMARanges: two}, &Bus{Key: "bus", HasDMARanges: true, DMARanges: r40}, 1<<40 - 1, "bus"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.bus.Parent = tc.top
			root := &Bus{Key: "root"} // no dma-ranges: a walk that reaches it ends
			tc.top.Parent = root
			m := &Master{Key: "m", Bus: tc.bus}
			limit, from := m.BusDMALimit()
			got := ""
			if from != nil {
				got = from.Key
			}
			if limit != tc.limit || got != tc.fromOf {
				t.Errorf("BusDMALimit() = %#x from %q, want %#x from %q", limit, got, tc.limit, tc.fromOf)
			}
		})
	}
}

// TestEndpointDMALimit: behind a host bridge the walk starts on the
// bridge's node, so a bus without dma-ranges ends it.
func TestEndpointDMALimit(t *testing.T) {
	r40 := []DMARange{{Child: 0, Parent: 0, Size: 1 << 40}}
	top := &Bus{Key: "top", HasDMARanges: true, DMARanges: r40}
	m := &Master{Key: "pcie", Bus: &Bus{Key: "bus", Parent: top}}
	if l, _ := m.BusDMALimit(); l != 1<<40-1 {
		t.Errorf("BusDMALimit() = %#x, want the ranges of top", l)
	}
	if l, from := m.EndpointDMALimit(); l != 0 || from != nil {
		t.Errorf("EndpointDMALimit() = %#x, want none: the bus is the walk's second node and has no dma-ranges", l)
	}
	m.Bus.HasDMARanges = true // empty: identity, the walk goes on
	if l, from := m.EndpointDMALimit(); l != 1<<40-1 || from != top {
		t.Errorf("EndpointDMALimit() = %#x, want the ranges of top through the bus's empty dma-ranges", l)
	}
	// The bridge's own windows end the walk on its node, at their
	// highest bus address + size - 1, flags aside; its own device's
	// walk, from its bus, is unchanged.
	m.Bridge = &Bridge{Kind: BridgePCIe, DMARanges: []DMARange{
		{Flags: 0x4300_0000, Child: 8 << 30, Parent: 0, Size: 1 << 30},
		{Flags: 0x0200_0000, Child: 0, Parent: 0, Size: 1 << 32},
	}}
	if l, from := m.EndpointDMALimit(); l != 9<<30-1 || from != nil {
		t.Errorf("EndpointDMALimit() = %#x from %v, want 0x23fffffff from the bridge's own windows", l, from)
	}
	if l, _ := m.BusDMALimit(); l != 1<<40-1 {
		t.Errorf("BusDMALimit() = %#x, want the ranges of top still", l)
	}
}

// TestNarrowedWidth: a mask anded with DMA_BIT_MASK(ilog2(limit) + 1), as
// of_dma_configure_id() narrows it; no limit narrows nothing.
func TestNarrowedWidth(t *testing.T) {
	for _, c := range []struct {
		width int
		limit uint64
		want  int
	}{
		{64, 0, 64},
		{64, 1<<48 - 1, 48},
		{40, 1<<48 - 1, 40},
		{64, 0x17fffffff, 33},
		{32, 1<<32 - 1, 32},
	} {
		if got := NarrowedWidth(c.width, c.limit); got != c.want {
			t.Errorf("NarrowedWidth(%d, %#x) = %d, want %d", c.width, c.limit, got, c.want)
		}
	}
}

// TestDMADevice: a master configured from another master's node takes
// that node's coherency and the walk from that node itself, where the
// node's own bus is the walk's second node: a bus without dma-ranges
// there ends it, though it is passed over for the DMA device's own walk.
func TestDMADevice(t *testing.T) {
	coh := BusCoherency{Coherent: true, Masters: ScopeAll}
	top := &Bus{Key: "top", HasDMARanges: true, DMARanges: []DMARange{{Size: 1 << 32}}, Coherency: coh}
	bus := &Bus{Key: "bus", Parent: top, Coherency: coh}
	mixer := &Master{Key: "mixer", Bus: bus, DMABits: 32}
	de := &Master{Key: "de", Bus: &Bus{Key: "root"}, DMADeviceKey: "mixer", DMADevice: mixer}
	if !de.Coherent() || de.Coherence() != Inherited {
		t.Errorf("de: coherence %v, want the mixer's, inherited", de.Coherence())
	}
	if de.HasOwnWidth() || !mixer.HasOwnWidth() {
		t.Errorf("HasOwnWidth: de %v, mixer %v", de.HasOwnWidth(), mixer.HasOwnWidth())
	}
	if l, _ := mixer.BusDMALimit(); l != 1<<32-1 {
		t.Errorf("mixer: BusDMALimit() = %#x, want top's", l)
	}
	if l, from := de.BusDMALimit(); l != 0 || from != nil {
		t.Errorf("de: BusDMALimit() = %#x, want none: the mixer's bus is the walk's second node and has no dma-ranges", l)
	}
	bus.HasDMARanges = true
	if l, from := de.BusDMALimit(); l != 1<<32-1 || from != top {
		t.Errorf("de: BusDMALimit() = %#x, want top's through the bus's empty dma-ranges", l)
	}
}
