package ir

import (
	"slices"
	"testing"
)

func TestRefSpelling(t *testing.T) {
	for _, tc := range []struct {
		got  Ref
		want string
	}{
		{MasterRef("crypto"), "soc.masters.crypto"},
		{BusRef("internal"), "soc.buses.internal"},
		{ClusterRef(1), "soc.cpus.clusters[1]"},
		{DPIORef(3), "soc.dpaa2.dpios[3]"},
		{MemoryRef(0), "memory[0]"},
		{IRQPinRef(2), "policy.irqs[2]"},
		{NetRef("eth0"), "policy.net.eth0"},
		{NetRef("eth0.100"), `policy.net."eth0.100"`},
		{NetRef("lan-1"), `policy.net."lan-1"`},
		{SysctlRef("net.core.netdev_budget"), `policy.sysctls."net.core.netdev_budget"`},
		{TopRef("#address-cells"), `"#address-cells"`},
		{BusRef("soc").Field("#size-cells"), `soc.buses.soc."#size-cells"`},
	} {
		if string(tc.got) != tc.want {
			t.Errorf("got %s, want %s", tc.got, tc.want)
		}
	}
}

func TestRefContains(t *testing.T) {
	for _, tc := range []struct {
		r, other Ref
		want     bool
	}{
		{"policy.irqs", "policy.irqs[0]", true},
		{"policy.irqs", "policy.irqs", true},
		{"soc.masters.eth", "soc.masters.eth0", false},
		{"soc.masters", "soc.masters.eth0", true},
		{"policy.net", `policy.net."eth0.100"`, true},
		{"policy.irqs[1]", "policy.irqs[10]", false},
	} {
		if got := tc.r.Contains(tc.other); got != tc.want {
			t.Errorf("%s.Contains(%s) = %v, want %v", tc.r, tc.other, got, tc.want)
		}
	}
}

// TestRefs gives every element of a board built by hand the ref of its
// key or place, a DPIO the ref of its place in the description across
// sorting, in the order All yields them.
func TestRefs(t *testing.T) {
	b := &Board{
		SoC: SoC{
			Clusters: []Cluster{{}, {}},
			Buses:    []*Bus{{Key: "soc"}},
			Masters:  []*Master{{Key: "eth0"}},
			DPAA2:    &DPAA2{DPIOs: []DPIO{{ID: 0, Decl: 1}, {ID: 1, Decl: 0}}},
		},
		Memory: []MemRegion{{}},
		Policy: Policy{
			IRQs:    []IRQPin{{}, {}},
			Net:     []NetPolicy{{IfName: "eth0"}},
			Sysctls: []Sysctl{{Key: "vm.swappiness"}},
		},
		Waivers: []Waiver{{}},
	}
	want := []Ref{"name", "model", "compatible", "soc", "soc.root", "soc.masters.eth0", "soc.buses.soc",
		"soc.cpus", "soc.cpus.clusters[0]", "soc.cpus.clusters[1]", "soc.dpaa2", "soc.dpaa2.dpios[1]",
		"soc.dpaa2.dpios[0]", "memory[0]", "policy.irqs[0]", "policy.irqs[1]", "policy.net.eth0",
		`policy.sysctls."vm.swappiness"`, "policy.isolatedCPUs", "policy.irqbalanceBan", "waivers[0]"}
	if got := b.Refs(); !slices.Equal(got, want) {
		t.Errorf("Refs:\n got %v\nwant %v", got, want)
	}
	if r := b.SoC.DPAA2.DPIOs[0].Ref(); r != "soc.dpaa2.dpios[1]" {
		t.Errorf("DPIO 0 declared second: ref %s", r)
	}
}

func TestFlowTableSize(t *testing.T) {
	for n, want := range map[uint64]uint64{0: 0, 1: 1, 2: 2, 3: 4, 4096: 4096, 4097: 8192} {
		if got := FlowTableSize(n); got != want {
			t.Errorf("FlowTableSize(%d) = %d, want %d", n, got, want)
		}
	}
}

// TestResolvePolicy points pins and steering at what declares them, and at
// nothing where nothing does.
func TestResolvePolicy(t *testing.T) {
	a := &Master{Key: "a", IRQs: []IRQ{{Name: "q"}, {Name: "q"}}, NetDevs: []NetDev{{Name: "eth0"}}}
	c := &Master{Key: "c", IRQs: []IRQ{{Name: "q"}}}
	b := &Board{SoC: SoC{Masters: []*Master{a, c}}, Policy: Policy{
		IRQs: []IRQPin{{IRQ: "q"}, {IRQ: "r"}},
		Net:  []NetPolicy{{IfName: "eth0"}, {IfName: "eth1"}},
	}}
	b.ResolvePolicy()
	p := b.Policy
	if len(p.IRQs[0].Owners) != 2 || p.IRQs[0].Owners[0] != a || p.IRQs[0].Owners[1] != c || p.IRQs[1].Owners != nil {
		t.Errorf("owners: %v and %v, want [a c] and none", p.IRQs[0].Owners, p.IRQs[1].Owners)
	}
	if p.Net[0].Master != a || p.Net[0].Dev != &a.NetDevs[0] || p.Net[1].Dev != nil || p.Net[1].Master != nil {
		t.Errorf("net: %+v", p.Net)
	}
}

func TestHighestRAM(t *testing.T) {
	b := &Board{Memory: []MemRegion{{Base: 0x1_0000_0000, Size: 0x1000}, {Base: 0, Size: 0x1000}}}
	if top, r := b.HighestRAM(); top != 0x1_0000_1000 || r != &b.Memory[0] {
		t.Errorf("HighestRAM = %#x, %v", top, r)
	}
	b.Memory = append(b.Memory, MemRegion{Base: 0xffff_ffff_0000_0000, Size: 0x2_0000_0000})
	if top, r := b.HighestRAM(); top != ^uint64(0) || r != &b.Memory[2] {
		t.Errorf("wrapping region: HighestRAM = %#x, %v", top, r)
	}
	if top, r := (&Board{}).HighestRAM(); top != 0 || r != nil {
		t.Errorf("no memory: HighestRAM = %#x, %v", top, r)
	}
}

func TestLabel(t *testing.T) {
	for name, want := range map[string]string{
		"eth0": "eth0", "_x": "_x", "A9": "A9", "0a": `"0a"`, "": `""`,
		"eth0.100": `"eth0.100"`, "lan-1": `"lan-1"`, "#size-cells": `"#size-cells"`, "é": `"é"`,
	} {
		if got := label(name); got != want {
			t.Errorf("label(%q) = %s, want %s", name, got, want)
		}
	}
}
