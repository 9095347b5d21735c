package check

import (
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/ir"
)

// Every check says which facts it reads: one that did not would never run
// on a partial board.
func TestEveryCheckNeeds(t *testing.T) {
	for _, c := range All() {
		if c.Needs == 0 || c.Needs&^AllFacts != 0 {
			t.Errorf("%s (%s): Needs %v, want a set of the kinds of fact", c.ID, c.Name, c.Needs)
		}
	}
}

func TestFactOf(t *testing.T) {
	for _, c := range []struct {
		ref  ir.Ref
		want Fact
	}{
		{"memory", FactMemory},
		{"memory[0].size", FactMemory},
		{"soc.masters.eth0.dma", FactDMA},
		{"soc.masters.eth0.dma.streaming", FactDMA},
		{"soc.masters.eth0.dmaBits", FactDMA},
		{`soc.masters."a.b".dma`, FactDMA},
		{"soc.masters.eth0.dmaRanges", FactMasters},
		{"soc.masters.eth0.compatible", FactMasters},
		{"soc.masters.eth0", FactMasters},
		{"soc.masters", FactMasters | FactDMA},
		{"soc.buses.soc.coherency.masters", FactBuses},
		{"soc.cpus.clusters[0].core", FactCPUs},
		{`soc.root."#size-cells"`, FactRoot},
		{"soc.dpaa2.stash.clusterBase", FactDPAA2},
		{"soc.irqDelivery.source", FactIRQDelivery},
		{"soc.name", FactIdentity},
		{"name", FactIdentity},
		{"dts", FactIdentity},
		{"policy.irqs[0].cpus", FactPolicy},
		{"waivers[1].reason", FactWaivers},
		{"soc", AllFacts},
		{"colour", AllFacts},
	} {
		if got := factOf(c.ref); got != c.want {
			t.Errorf("factOf(%s) = %v, want %v", c.ref, got, c.want)
		}
	}
}

// partials are, per kind of fact, an element that lacks it and how a
// partial board lowered from such a description looks: the fact's
// values are zero.
var partials = []struct {
	fact Fact
	ref  ir.Ref
	zero func(*ir.Board)
}{
	{FactIdentity, "name", func(b *ir.Board) { b.Name, b.Compatible = "", nil }},
	{FactRoot, `soc.root."#size-cells"`, func(b *ir.Board) { b.SoC.RootAddressCells, b.SoC.RootSizeCells = 0, 0 }},
	{FactCPUs, "soc.cpus.clusters[0].cpus", func(b *ir.Board) { b.SoC.Clusters[0].CPUs = nil }},
	{FactBuses, "soc.buses.soc.coherency.source", func(b *ir.Board) {
		for _, x := range b.SoC.Buses {
			x.Node, x.AddressCells, x.SizeCells, x.AddressBits, x.Coherency = ir.Node{}, 0, 0, 0, ir.BusCoherency{}
		}
	}},
	{FactMasters, "soc.masters.eth0.node.path", func(b *ir.Board) {
		for _, m := range b.SoC.Masters {
			m.Node, m.Compatible, m.IRQs, m.NetDevs = ir.Node{}, nil, nil, nil
		}
	}},
	{FactDMA, "soc.masters.dma.dma", func(b *ir.Board) {
		for _, m := range b.SoC.Masters {
			m.DMABits, m.CoherentBits = 0, 0
		}
	}},
	{FactIRQDelivery, "soc.irqDelivery.targets", func(b *ir.Board) { b.SoC.IRQDelivery = &ir.IRQDelivery{} }},
	{FactDPAA2, "soc.dpaa2.stash.clusterSize", func(b *ir.Board) { b.SoC.DPAA2.StashClusterSize, b.SoC.DPAA2.DPIOs = 0, nil }},
	{FactMemory, "memory", func(b *ir.Board) { b.Memory = nil }},
	{FactPolicy, "policy.irqs[0].cpus", func(b *ir.Board) { b.Policy.IRQs[0].CPUs, b.Policy.Net[0].RPS = nil, [][]int{nil} }},
	{FactWaivers, "waivers[0].reason", func(b *ir.Board) {
		b.Waivers = append(b.Waivers, ir.Waiver{Check: "BC0201", On: "soc.masters.eth0", Pos: pos(60)})
	}},
}

// TestPartialBoardsCheck runs the checks on the clean board with every
// combination of kinds of fact missing, their values zero as lowering
// leaves them: no check panics, the checks that need a missing fact are
// skipped, the others run, and the board has no finding, as the whole
// clean board has none: a check never reads a missing fact as a value.
func TestPartialBoardsCheck(t *testing.T) {
	for set := 1; set < 1<<len(partials); set++ {
		b := board()
		var missing []ir.Ref
		var lacking Fact
		for i, p := range partials {
			if set&(1<<i) != 0 {
				p.zero(b)
				missing = append(missing, p.ref)
				lacking |= p.fact
			}
		}
		finish(b)
		var r Result
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("missing %v: panic: %v", lacking, p)
				}
			}()
			r = RunEnv(b, Env{Kernel: testKernel(t), Missing: missing})
		}()
		if len(r.Diagnostics) > 0 {
			var s strings.Builder
			_ = r.Diagnostics.WriteText(&s)
			t.Errorf("missing %v: findings on the clean board:\n%s", lacking, s.String())
		}
		for _, c := range r.Ran {
			if c.Needs&lacking != 0 {
				t.Errorf("missing %v: %s ran, which needs %v", lacking, c.ID, c.Needs)
			}
		}
		for _, c := range r.Skipped {
			if c.Needs&lacking == 0 {
				t.Errorf("missing %v: %s was skipped, which needs only %v", lacking, c.ID, c.Needs)
			}
		}
		if n := len(r.Ran) + len(r.Skipped); n != len(All())-countBase() {
			t.Errorf("missing %v: %d checks ran or were skipped, want %d", lacking, n, len(All())-countBase())
		}
	}
}

// A missing memory skips the checks of DMA widths against RAM and of the
// memory's layout and no other; missing DMA widths skip the two DMA-width
// checks.
func TestPartialSkips(t *testing.T) {
	for _, c := range []struct {
		missing []ir.Ref
		skipped string
	}{
		{[]ir.Ref{"memory"}, "BC0201 BC0210"},
		{[]ir.Ref{"soc.masters.eth0.dma", "soc.masters.dma.dma"}, "BC0201 BC0202"},
		{nil, ""},
	} {
		r := RunPartial(board(), nil, c.missing)
		var got []string
		for _, ck := range r.Skipped {
			got = append(got, ck.ID)
		}
		if strings.Join(got, " ") != c.skipped {
			t.Errorf("missing %v: skipped %v, want %s", c.missing, got, c.skipped)
		}
	}
}

func countBase() int {
	n := 0
	for _, c := range All() {
		if c.NeedsBase {
			n++
		}
	}
	return n
}
