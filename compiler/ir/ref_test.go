package ir

import "testing"

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

// TestAssignRefs gives every element the ref of its key or place, and
// keeps a DPIO's ref of its place in the description across sorting.
func TestAssignRefs(t *testing.T) {
	b := &Board{
		SoC: SoC{
			Clusters: []Cluster{{}, {}},
			Buses:    []*Bus{{Key: "soc"}},
			Masters:  []*Master{{Key: "eth0"}},
			DPAA2:    &DPAA2{DPIOs: []DPIO{{ID: 0, Ref: DPIORef(1)}, {ID: 1, Ref: DPIORef(0)}}},
		},
		Memory: []MemRegion{{}},
		Policy: Policy{
			IRQs:    []IRQPin{{}, {}},
			Net:     []NetPolicy{{IfName: "eth0"}},
			Sysctls: []Sysctl{{Key: "vm.swappiness"}},
		},
	}
	b.AssignRefs()
	got := []Ref{b.SoC.Clusters[1].Ref, b.SoC.Buses[0].Ref, b.SoC.Masters[0].Ref, b.SoC.DPAA2.DPIOs[0].Ref,
		b.SoC.DPAA2.DPIOs[1].Ref, b.Memory[0].Ref, b.Policy.IRQs[1].Ref, b.Policy.Net[0].Ref, b.Policy.Sysctls[0].Ref}
	want := []Ref{"soc.cpus.clusters[1]", "soc.buses.soc", "soc.masters.eth0", "soc.dpaa2.dpios[1]",
		"soc.dpaa2.dpios[0]", "memory[0]", "policy.irqs[1]", "policy.net.eth0", `policy.sysctls."vm.swappiness"`}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("element %d: ref %s, want %s", i, got[i], want[i])
		}
	}
}
