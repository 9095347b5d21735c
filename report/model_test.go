package report

import (
	"fmt"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/ir"
)

// TestReachOf: a master's reach is the narrowest of its mask, its buses'
// widths and the dma-ranges the kernel's walk finds (the first non-empty
// one; a missing one past the master's bus ends the walk with none); an
// IOMMU reaches all RAM.
func TestReachOf(t *testing.T) {
	root := &ir.Bus{Key: "soc", AddressBits: 48, DMARanges: []ir.DMARange{{Child: 0, Parent: 0, Size: 1 << 40}}, HasDMARanges: true}
	narrow := &ir.Bus{Key: "narrow", Parent: root, AddressBits: 36}
	wide := &ir.Bus{Key: "wide", Parent: root}
	// inner's wider window is the one of_dma_get_range() finds: it stops
	// there and never reads soc's narrower one.
	inner := &ir.Bus{Key: "inner", Parent: root, DMARanges: []ir.DMARange{{Child: 0, Parent: 0, Size: 1 << 44}}, HasDMARanges: true}
	// gap has no dma-ranges and is not the first node of the walk: the
	// walk ends there with no limit.
	leaf := &ir.Bus{Key: "leaf", Parent: &ir.Bus{Key: "gap", Parent: root}}
	board := &ir.Board{Memory: []ir.MemRegion{{Base: 0x8000_0000, Size: 0x8000_0000}, {Base: 0x88_0000_0000, Size: 1 << 33}}}
	ramTop := uint64(0x8a_0000_0000) // 552 GiB: past 36 bits, below 40
	for _, c := range []struct {
		name  string
		m     *ir.Master
		limit uint64
		by    string
		short bool
	}{
		{"mask", &ir.Master{DMABits: 32, Bus: wide}, 1 << 32, "mask", true},
		{"bus width", &ir.Master{DMABits: 40, Bus: narrow}, 1 << 36, "bus narrow width", true},
		{"dma-ranges", &ir.Master{DMABits: 48, Bus: wide}, 1 << 40, "bus soc dma-ranges", false},
		{"first dma-ranges", &ir.Master{DMABits: 48, Bus: inner}, 1 << 44, "bus inner dma-ranges", false},
		{"walk ended", &ir.Master{DMABits: 48, Bus: leaf}, 1 << 48, "mask", false},
		{"64 bits on a bus of 64", &ir.Master{DMABits: 64, Bus: &ir.Bus{Key: "top"}}, 0, "mask", false},
		{"iommu", &ir.Master{DMABits: 32, Bus: wide, IOMMU: "smmu"}, 1 << 32, "mask", false},
	} {
		if board.RAMTop() != ramTop {
			t.Fatalf("RAM top %#x", board.RAMTop())
		}
		r := ReachOf(board, c.m)
		if r.Limit != c.limit || r.By != c.by || r.Short != c.short {
			t.Errorf("%s: reach %#x by %q short %v, want %#x by %q short %v", c.name, r.Limit, r.By, r.Short, c.limit, c.by, c.short)
		}
	}
}

// TestEntryOf maps every way a master's coherency is decided to the look
// the report draws, and gives every ir.Coherence a look.
func TestEntryOf(t *testing.T) {
	all := &ir.Bus{Coherency: ir.BusCoherency{Coherent: true, Masters: ir.ScopeAll}}
	verified := &ir.Bus{Coherency: ir.BusCoherency{Coherent: true, Masters: ir.ScopeVerified}}
	none := &ir.Bus{}
	yes := &ir.MasterCoherency{Coherent: true, Source: "s"}
	no := &ir.MasterCoherency{Reason: "r"}
	for _, c := range []struct {
		m    ir.Master
		want string
	}{
		{ir.Master{Bus: all, Enabled: true}, "coherent"},
		{ir.Master{Bus: verified, Coherency: yes, Enabled: true}, "coherent (verified)"},
		{ir.Master{Bus: verified, Enabled: true}, "unverified opportunity"},
		{ir.Master{Bus: none, Coherency: yes, Enabled: true}, "non-coherent"},
		{ir.Master{Bus: all, Coherency: no, Enabled: true}, "opted out"},
		{ir.Master{Bus: all}, "disabled"},
		// A bridge, coherent or not, short of RAM by no width of its own.
		{ir.Master{Bus: all, Enabled: true, Bridge: &ir.Bridge{Kind: ir.BridgePCIe}}, "bridge (no DMA of its own)"},
		{ir.Master{Bus: none, Enabled: true, Bridge: &ir.Bridge{Kind: ir.BridgePCIe}}, "bridge (no DMA of its own)"},
	} {
		if got := legend[entryOf(&c.m)].name; got != c.want {
			t.Errorf("%+v: %s, want %s", c.m, got, c.want)
		}
	}
	seen := map[int]bool{}
	for c := ir.NonCoherentBus; c <= ir.Unverified; c++ {
		e, ok := byCoherence[c]
		if !ok || e == disabled || seen[e] {
			t.Errorf("coherence %d: legend entry %d (known %v), want one of its own", c, e, ok)
		}
		seen[e] = true
	}
}

// TestEscaping: text from the description cannot break out of a DOT
// label or an HTML element.
func TestEscaping(t *testing.T) {
	bus := &ir.Bus{Key: "soc", Node: ir.Node{Path: "/soc"}, Coherency: ir.BusCoherency{Coherent: true, Masters: ir.ScopeAll, Source: `<script>alert(1)</script>`}}
	m := &ir.Master{Key: "dma", Bus: bus, DMABits: 32, Enabled: true, Compatible: []string{`v,"x"&<b>`},
		IRQs: []ir.IRQ{{Key: "q", Name: "irq<b>>\n]; evil [label=x"}}}
	b := &ir.Board{Name: "hostile", Model: "</title><script>x</script>",
		SoC:    ir.SoC{Name: "s", Buses: []*ir.Bus{bus}, Masters: []*ir.Master{m}, Clusters: []ir.Cluster{{Core: "c<", CPUs: []int{0}}}},
		Policy: ir.Policy{IRQs: []ir.IRQPin{{IRQ: "irq<b>>\n]; evil [label=x", CPUs: []int{0}}}},
	}
	b.ResolvePolicy()
	dot := string(DOT(&Input{Board: b}))
	if strings.Contains(dot, "irq<b>>") || strings.Contains(dot, "\n]; evil") || strings.Contains(dot, "cluster 0: c<") {
		t.Errorf("description text unescaped in the DOT:\n%s", dot)
	}
	if !strings.Contains(dot, "IRQ <b>irq&lt;b&gt;&gt;?]; evil [label=x</b>") {
		t.Errorf("the IRQ's name is not escaped as expected:\n%s", dot)
	}
	page, err := HTML(&Input{Board: b}, []byte("<svg></svg>"))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(page); strings.Contains(s, "<script") || !strings.Contains(s, "&lt;/title&gt;&lt;script&gt;") {
		t.Errorf("description text unescaped on the page:\n%s", s)
	}
}

// TestSize prints powers of two by unit and the rest in hex.
func TestSize(t *testing.T) {
	for n, want := range map[uint64]string{
		0: "16 EiB", 1: "1 B", 512 << 20: "512 MiB", 1 << 32: "4 GiB", 1 << 48: "256 TiB", 3 << 30: "0xc0000000",
	} {
		if got := Size(n); got != want {
			t.Errorf("Size(%#x) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[uint64]string{0: "0x0", 0x2000_0000: "0x2000_0000", 1 << 32: "0x1_0000_0000", 0xd007_0000: "0xd007_0000"} {
		if got := Addr(n); got != want {
			t.Errorf("Addr(%#x) = %q, want %q", n, got, want)
		}
	}
}

// TestUndrawn: a board of more than MaxDrawn masters is not laid out, and
// its page says so where the picture would be, escaped, with its tables.
func TestUndrawn(t *testing.T) {
	bus := &ir.Bus{Key: "soc", Node: ir.Node{Path: "/soc"}}
	b := &ir.Board{Name: `big<&>`}
	for i := range MaxDrawn + 1 {
		b.SoC.Masters = append(b.SoC.Masters, &ir.Master{Key: fmt.Sprint("m", i), Bus: bus, DMABits: 32, Enabled: true})
		if i == MaxDrawn-1 && !Drawn(b) {
			t.Fatalf("a board of %d masters is not drawn", MaxDrawn)
		}
	}
	if Drawn(b) {
		t.Fatalf("a board of %d masters is drawn", MaxDrawn+1)
	}
	page, err := HTML(&Input{Board: b}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<p class="meta">No picture: big&lt;&amp;&gt; has 501 DMA masters, more than the 500 boardc lays out`,
		`<td><b>m500</b>`,
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page has no %s", want)
		}
	}
	if strings.Contains(string(page), "<svg") {
		t.Error("the page of an undrawn board has an svg element")
	}
}

// TestBridgeNode: a master described as a bridge is drawn as one, with
// its endpoints' coherency and widths and no reach mark, on a board whose
// RAM is above every 32-bit mask.
func TestBridgeNode(t *testing.T) {
	board := &ir.Board{Memory: []ir.MemRegion{{Base: 0, Size: 1 << 34}}}
	all := &ir.Bus{Key: "soc", Coherency: ir.BusCoherency{Coherent: true, Masters: ir.ScopeAll}}
	verified := &ir.Bus{Key: "soc", Coherency: ir.BusCoherency{Coherent: true, Masters: ir.ScopeVerified}}
	none := &ir.Bus{Key: "soc"}
	for _, c := range []struct {
		m    *ir.Master
		want []string
	}{
		{&ir.Master{Key: "pcie0", Bus: all, Enabled: true, Bridge: &ir.Bridge{Kind: ir.BridgePCIe, Endpoints: []int{32, 64}}},
			[]string{"PCIe host bridge, endpoints 32/64-bit", "endpoints coherent, masks their own"}},
		{&ir.Master{Key: "pcie1", Bus: none, Enabled: true, Bridge: &ir.Bridge{Kind: ir.BridgePCIe}},
			[]string{"PCIe host bridge, no mask of its own", "endpoints non-coherent, masks their own"}},
		{&ir.Master{Key: "pcie2", Bus: verified, Enabled: true, Bridge: &ir.Bridge{Kind: ir.BridgePCIe}},
			[]string{"endpoints coherency unverified, masks their own"}},
	} {
		var w dotWriter
		masterNode(&w, board, c.m)
		got := w.b.String()
		for _, s := range append(c.want, "bridge (no DMA of its own)") {
			if !strings.Contains(got, s) {
				t.Errorf("%s: the node lacks %q:\n%s", c.m.Key, s, got)
			}
		}
		if strings.Contains(got, "reaches") || strings.Contains(got, colShort) {
			t.Errorf("%s: a bridge is drawn with a reach:\n%s", c.m.Key, got)
		}
	}
}
