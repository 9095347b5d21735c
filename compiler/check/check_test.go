package check

import (
	"slices"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

func pos(line int) ir.Pos { return ir.Pos{File: "board.cue", Src: "board.cue", Line: line, Col: 1} }

// board returns a small, clean board: two CPUs, a coherent bus for all
// masters, two masters, DPAA2 with one DPIO per CPU, and a policy that
// names only what the masters declare.
func board() *ir.Board {
	soc := &ir.Bus{
		Key: "soc", Pos: pos(1), Node: ir.Node{Path: "/soc", Pos: pos(1)},
		AddressCells: 2, SizeCells: 2, AddressBits: 40, AddressBitsPos: pos(2),
		Coherency: ir.BusCoherency{Coherent: true, Source: "datasheet", Masters: ir.ScopeAll, Pos: pos(3)},
	}
	b := &ir.Board{
		Name: "t",
		SoC: ir.SoC{
			RootAddressCells: 2, RootSizeCells: 2,
			Clusters: []ir.Cluster{{Core: "arm,cortex-a53", CPUs: []int{0, 1}, Pos: pos(4)}},
			Buses:    []*ir.Bus{soc},
			Masters: []*ir.Master{
				{Key: "eth0", Pos: pos(10), Node: ir.Node{Label: "eth0", Path: "/soc/eth@1", Pos: pos(11)}, Bus: soc,
					DMABits: 32, DMABitsPos: pos(12), Enabled: true,
					IRQs:    []ir.IRQ{{Key: "port", Name: "eth0", Pos: pos(13)}},
					NetDevs: []ir.NetDev{{Name: "eth0", RxQueues: 1, TxQueues: 1, Pos: pos(14)}}},
				{Key: "dma", Pos: pos(20), Node: ir.Node{Label: "dma", Path: "/soc/dma@2", Pos: pos(21)}, Bus: soc, BusPos: pos(24),
					DMABits: 40, DMABitsPos: pos(22), Enabled: true},
			},
			DPAA2: &ir.DPAA2{DPIOs: []ir.DPIO{{ID: 0, CPU: 0, Pos: pos(30)}, {ID: 1, CPU: 1, Pos: pos(31)}},
				StashClusterSize: 2, Pos: pos(29), RXStashingPos: pos(32)},
		},
		Memory: []ir.MemRegion{{Base: 0, Size: 0x8000_0000, Pos: pos(40)}},
		Policy: ir.Policy{
			IRQs:          []ir.IRQPin{{IRQ: "eth0", CPUs: []int{1}, Pos: pos(50)}},
			Net:           []ir.NetPolicy{{IfName: "eth0", RPS: [][]int{{0, 1}}, RPSFlowCount: -1, Pos: pos(51)}},
			IsolatedPos:   pos(52),
			IrqbalanceBan: true,
		},
	}
	finish(b)
	return b
}

func codes(l diag.List) []string {
	var out []string
	for _, d := range l {
		out = append(out, d.Code+":"+d.Severity.String())
	}
	return out
}

func TestCleanBoard(t *testing.T) {
	if got := Run(board()); len(got) != 0 {
		var b strings.Builder
		_ = got.WriteText(&b)
		t.Fatalf("clean board has findings:\n%s", b.String())
	}
}

// TestChecks breaks the clean board one way per case and expects exactly
// the named finding, at the named line. Removing a check from the registry
// makes its cases fail.
func TestChecks(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(b *ir.Board)
		want string // code:severity
		line int
	}{
		{"coherent on non-coherent bus", func(b *ir.Board) {
			b.SoC.Buses[0].Coherency.Coherent = false
			b.SoC.Masters[1].Coherency = &ir.MasterCoherency{Coherent: true, Source: "x", Pos: pos(23)}
		}, "BC0101:error", 23},
		{"opt-out without reason", func(b *ir.Board) {
			b.SoC.Masters[1].Coherency = &ir.MasterCoherency{Coherent: false, Pos: pos(23)}
		}, "BC0102:error", 23},
		{"verified without source", func(b *ir.Board) {
			b.SoC.Buses[0].Coherency.Masters = ir.ScopeVerified
			b.SoC.Masters[0].Coherency = &ir.MasterCoherency{Coherent: true, Pos: pos(15)}
			b.SoC.Masters[1].Coherency = &ir.MasterCoherency{Coherent: true, Source: "s", Pos: pos(23)}
		}, "BC0102:error", 15},
		{"opt-out costs", func(b *ir.Board) {
			b.SoC.Masters[1].Coherency = &ir.MasterCoherency{Coherent: false, Reason: "port does not snoop", Pos: pos(23)}
		}, "BC0103:warning", 23},
		{"unverified opportunity", func(b *ir.Board) {
			b.SoC.Buses[0].Coherency.Masters = ir.ScopeVerified
			b.SoC.Masters[0].Coherency = &ir.MasterCoherency{Coherent: true, Source: "s", Pos: pos(15)}
		}, "BC0104:info", 24},
		{"dma width below RAM", func(b *ir.Board) {
			b.Memory = append(b.Memory, ir.MemRegion{Base: 0x1_0000_0000, Size: 0x1000, Pos: pos(41)})
		}, "BC0201:warning", 12},
		{"dma width above bus", func(b *ir.Board) { b.SoC.Masters[1].DMABits = 48 }, "BC0202:error", 22},
		{"dma-ranges cells", func(b *ir.Board) {
			b.SoC.Buses[0].AddressCells = 1
			b.SoC.Buses[0].DMARanges = []ir.DMARange{{Child: 1 << 33, Size: 1, Pos: pos(5)}}
		}, "BC0203:error", 5},
		{"dma-ranges overlap", func(b *ir.Board) {
			b.SoC.Buses[0].DMARanges = []ir.DMARange{{Child: 0, Size: 0x2000, Pos: pos(5)}, {Child: 0x1000, Parent: 0x10000, Size: 0x1000, Pos: pos(6)}}
		}, "BC0204:error", 6},
		{"more DPIOs than CPUs", func(b *ir.Board) {
			b.SoC.DPAA2.DPIOs = append(b.SoC.DPAA2.DPIOs, ir.DPIO{ID: 2, CPU: 0, Pos: pos(33)})
		}, "BC0301:error", 29},
		{"fewer DPIOs than CPUs", func(b *ir.Board) { b.SoC.DPAA2.DPIOs = b.SoC.DPAA2.DPIOs[:1] }, "BC0301:warning", 29},
		{"stash destination overflow", func(b *ir.Board) { b.SoC.DPAA2.StashClusterBase, b.SoC.DPAA2.StashClusterSize = 255, 1 }, "BC0301:error", 31},
		{"RX stashing", func(b *ir.Board) { b.SoC.DPAA2.RXStashing = true }, "BC0302:error", 32},
		{"CPU topology gap", func(b *ir.Board) { b.SoC.Clusters[0].CPUs = []int{0, 0} }, "BC0401:error", 4},
		{"pin out of range", func(b *ir.Board) { b.Policy.IRQs[0].CPUs = []int{2} }, "BC0402:error", 50},
		{"pin on isolated CPU", func(b *ir.Board) { b.Policy.IsolatedCPUs = []int{1} }, "BC0403:error", 50},
		{"irqbalance moves", func(b *ir.Board) { b.Policy.IrqbalanceBan = false }, "BC0404:warning", 50},
		{"RPS redundant", func(b *ir.Board) {
			b.SoC.Masters[0].NetDevs[0].RSS, b.SoC.Masters[0].NetDevs[0].RxQueues = true, 2
		}, "BC0405:info", 51},
		{"RPS queue out of range", func(b *ir.Board) { b.Policy.Net[0].RPS = [][]int{{0}, {1}} }, "BC0406:error", 51},
		{"XPS queue out of range", func(b *ir.Board) { b.Policy.Net[0].XPS = [][]int{{0}, {1}} }, "BC0406:error", 51},
		{"flow count rounding", func(b *ir.Board) { b.Policy.Net[0].RPSFlowCount = 1000 }, "BC0407:info", 51},
		{"sock flow entries rounding", func(b *ir.Board) {
			b.Policy.Sysctls = []ir.Sysctl{{Key: "net.core.rps_sock_flow_entries", Value: "30000", Pos: pos(53)}}
		}, "BC0407:info", 53},
		{"duplicate label", func(b *ir.Board) { b.SoC.Masters[1].Node.Label = "eth0" }, "BC0501:error", 21},
		{"undeclared IRQ", func(b *ir.Board) { b.Policy.IRQs[0].IRQ = "eth9" }, "BC0502:error", 50},
		{"root bus with a label", func(b *ir.Board) { rootBus(b).Node.Label = "root" }, "BC0503:error", 1},
		{"root bus with a parent", func(b *ir.Board) {
			top := &ir.Bus{Key: "top", Node: ir.Node{Path: "/top"}, AddressCells: 2, SizeCells: 2,
				Coherency: ir.BusCoherency{Coherent: true, Source: "s", Masters: ir.ScopeAll}}
			b.SoC.Buses = append(b.SoC.Buses, top)
			r := rootBus(b)
			r.Parent, r.ParentPos = top, pos(6)
		}, "BC0503:error", 6},
		{"root bus cell counts", func(b *ir.Board) { rootBus(b).SizeCells = 1 }, "BC0503:error", 7},
		{"root bus dma-ranges", func(b *ir.Board) {
			r := rootBus(b)
			r.HasDMARanges, r.DMARangesPos = true, pos(5)
		}, "BC0503:error", 5},
		{"opt-out needs the .dtsi", func(b *ir.Board) {
			b.SoC.Masters[1].Coherency = &ir.MasterCoherency{Coherent: false, Reason: "r", Pos: pos(23)}
		}, "BC0105:warning", 23},
		{"waiver without reason", func(b *ir.Board) {
			b.Waivers = []ir.Waiver{{Check: "BC0404", On: "policy.irqs", Pos: pos(60)}}
		}, "BC0010:error", 60},
		{"unused waiver", func(b *ir.Board) {
			b.Waivers = []ir.Waiver{{Check: "BC0404", On: "policy.irqs[0]", Reason: "r", Pos: pos(60)}}
		}, "BC0011:warning", 60},
		{"waiver on a whole list", func(b *ir.Board) {
			b.Policy.IrqbalanceBan = false
			b.Waivers = []ir.Waiver{{Check: "BC0404", On: "policy.irqs", Reason: "r", Pos: pos(60), OnPos: pos(61)}}
		}, "BC0012:error", 61},
		{"waiver on nothing", func(b *ir.Board) {
			b.Waivers = []ir.Waiver{{Check: "BC0201", On: "soc.masters.eht0", Reason: "r", Pos: pos(60), OnPos: pos(61)}}
		}, "BC0012:error", 61},
		{"waiver target in the old spelling", func(b *ir.Board) {
			b.Waivers = []ir.Waiver{{Check: "BC0404", On: "masters.dma", Reason: "r", Pos: pos(60), OnPos: pos(61)}}
		}, "BC0012:warning", 61},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := board()
			tc.edit(b)
			finish(b)
			got := Run(b)
			if !slices.Contains(codes(got), tc.want) {
				t.Fatalf("want %s, got %v", tc.want, codes(got))
			}
			var lines []int
			for _, d := range got {
				if d.Code+":"+d.Severity.String() == tc.want {
					lines = append(lines, d.Pos.Line)
				}
			}
			if !slices.Contains(lines, tc.line) {
				t.Errorf("%s at lines %v, want one at %d", tc.want, lines, tc.line)
			}
		})
	}
}

// rootBus makes the clean board's bus the root node, with the root's cell
// counts (declared at line 7), and returns it.
func rootBus(b *ir.Board) *ir.Bus {
	r := b.SoC.Buses[0]
	r.Node.Path, r.CellsPos = "/", pos(7)
	return r
}

// A bus on the root node with the root's cell counts is clean.
func TestCleanRootBus(t *testing.T) {
	b := board()
	rootBus(b)
	if got := Run(b); len(got) != 0 {
		t.Fatalf("board with a root bus has findings: %v", codes(got))
	}
}

// TestWaiver silences exactly the waived finding: one check on the one
// element the waiver names, in the current spelling or the old one.
func TestWaiver(t *testing.T) {
	for _, on := range []string{"policy.irqs[0]", "policy.irqs[1]"} {
		b := board()
		b.Policy.IrqbalanceBan = false
		b.SoC.Masters[1].IRQs = []ir.IRQ{{Key: "irq", Name: "dma0", Pos: pos(23)}}
		b.Policy.IRQs = append(b.Policy.IRQs, ir.IRQPin{IRQ: "dma0", CPUs: []int{1}, Pos: pos(53)})
		finish(b)
		b.Waivers = []ir.Waiver{{Check: "BC0404", On: on, Reason: "pinned by firmware", Pos: pos(60)}}
		got := Run(b)
		if len(got) != 1 || got[0].Code != "BC0404" {
			t.Fatalf("waiver on %s: findings %v, want the other pin's BC0404 only", on, codes(got))
		}
		if other := map[string]ir.Ref{"policy.irqs[0]": "policy.irqs[1]", "policy.irqs[1]": "policy.irqs[0]"}[on]; got[0].Ref != other {
			t.Errorf("waiver on %s left the finding on %s, want the one on %s", on, got[0].Ref, other)
		}
	}
	b := board()
	b.SoC.Masters[1].Coherency = &ir.MasterCoherency{Coherent: false, Pos: pos(23)}
	b.Waivers = []ir.Waiver{
		{Check: "BC0102", On: "soc.masters.dma", Reason: "r", Pos: pos(60), OnPos: pos(61)},
		{Check: "BC0103", On: "masters.dma", Reason: "r", Pos: pos(62), OnPos: pos(63)},
	}
	want := []string{"BC0105:warning", "BC0012:warning"}
	if got := codes(Run(b)); !slices.Equal(got, want) {
		t.Errorf("waivers in both spellings: findings %v, want %v", got, want)
	}
}

// TestRegistry keeps IDs and names unique among every code, every code
// documented, and every check with a run function.
func TestRegistry(t *testing.T) {
	ids, names := map[string]bool{}, map[string]bool{}
	all := Codes()
	if len(all) < len(All())+len(diag.Loader())+3 {
		t.Errorf("%d codes, want the %d checks' and the loader's and waivers'", len(all), len(All()))
	}
	for _, c := range all {
		if ids[c.ID] || names[c.Name] {
			t.Errorf("duplicate code %s %s", c.ID, c.Name)
		}
		ids[c.ID], names[c.Name] = true, true
		if len(c.Doc) < 80 {
			t.Errorf("%s: doc too short", c.ID)
		}
	}
	for _, c := range All() {
		if c.Run == nil {
			t.Errorf("%s: no run function", c.ID)
		}
	}
}

// finish does what lowering does once a board is built: it resolves the
// policy's references.
func finish(b *ir.Board) {
	b.ResolvePolicy()
}
