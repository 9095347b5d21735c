package ir

import "testing"

// TestDeriveDPNIs: an fsl-mc interface that states no dpni and is not
// found by name takes its place in name order, the DPNI the data-path
// layout gives it, where the layout has one; the others keep what they
// have.
func TestDeriveDPNIs(t *testing.T) {
	stated := Pos{File: "b.cue", Line: 9}
	mc := &Master{Key: "fsl_mc", Compatible: []string{MCCompatible}, NetDevs: []NetDev{
		{Name: "eth0"}, {Name: "eth1"}, {Name: "eth2", ByName: true},
		{Name: "eth3", DPNI: 7, HasDPNI: true, DPNIPos: stated}, {Name: "eth4"},
	}}
	// Listed out of order: the layout's order is the names'.
	mc.NetDevs[0], mc.NetDevs[1] = mc.NetDevs[1], mc.NetDevs[0]
	other := &Master{Key: "pcie", NetDevs: []NetDev{{Name: "eth5"}}}
	s := SoC{Masters: []*Master{mc, other}, DPAA2: &DPAA2{DPNI: 4}}
	s.DeriveDPNIs()
	type want struct {
		dpni int
		has  bool
	}
	got := map[string]want{}
	for _, m := range s.Masters {
		for _, d := range m.NetDevs {
			got[d.Name] = want{d.DPNI, d.HasDPNI}
		}
	}
	for name, w := range map[string]want{
		"eth0": {0, true}, "eth1": {1, true}, "eth2": {0, false},
		"eth3": {7, true}, "eth4": {0, false}, "eth5": {0, false},
	} {
		if got[name] != w {
			t.Errorf("%s: dpni %d (%v), want %d (%v)", name, got[name].dpni, got[name].has, w.dpni, w.has)
		}
	}
	if i, ok := s.DPNIIndex("eth4"); !ok || i != 4 {
		t.Errorf("DPNIIndex(eth4) = %d, %v; want 4, true", i, ok)
	}
	if _, ok := s.DPNIIndex("eth5"); ok {
		t.Error("DPNIIndex finds an interface of a master that is not fsl-mc")
	}
	// No DPAA2 block, no layout: nothing derived.
	bare := SoC{Masters: []*Master{{Compatible: []string{MCCompatible}, NetDevs: []NetDev{{Name: "eth0"}}}}}
	bare.DeriveDPNIs()
	if bare.Masters[0].NetDevs[0].HasDPNI {
		t.Error("a DPNI derived without a data-path layout")
	}
}
