package check

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/compiler/ir"
)

// bridgeBase is cleanBase with a PCIe host bridge on /soc whose own
// dma-ranges is one 32-bit memory window over the first 4 GiB.
var bridgeBase = strings.Replace(cleanBase, "dma: dma@2 { reg = <0 2 0 1>; };",
	`dma: dma@2 { reg = <0 2 0 1>; };
		pcie0: pcie@3 { device_type = "pci"; reg = <0 3 0 1>; #address-cells = <3>; #size-cells = <2>;
			ranges = <0x02000000 0 0x40000000 0 0x40000000 0 0x10000000>;
			dma-ranges = <0x02000000 0 0 0 0 1 0>; };`, 1)

// bridgeOf adds a bridge on /soc's bus to board() with the given own
// dma-ranges, none when rs is nil.
func bridgeOf(b *ir.Board, rs ...ir.DMARange) *ir.Master {
	m := &ir.Master{Key: "pcie0", Pos: pos(80), Node: ir.Node{Label: "pcie0", Path: "/soc/pcie@3", Pos: pos(81)},
		Bus: b.SoC.Buses[0], BusPos: pos(82), Enabled: true,
		Bridge: &ir.Bridge{Kind: ir.BridgePCIe, Source: "s", Pos: pos(83), DMARanges: rs, DMARangesPos: pos(84)}}
	b.SoC.Masters = append(b.SoC.Masters, m)
	return m
}

// TestBridgeDMARangesBase: a bridge that states its tree's window draws
// nothing from the base-tree checks: BC0608 walks the endpoints from the
// stated window. Stated with other flags, BC0604 says the built tree has
// the description's; not stated, BC0608 says the endpoints' limit is
// upstream's, not the buses'.
func TestBridgeDMARangesBase(t *testing.T) {
	tree := baseOf(t, bridgeBase)
	base := func(rs ...ir.DMARange) []string {
		b := board()
		bridgeOf(b, rs...)
		var got []string
		for _, d := range RunWith(b, tree).Diagnostics {
			if strings.HasPrefix(d.Code, "BC06") || strings.HasPrefix(d.Code, "BC02") {
				got = append(got, d.Code+": "+d.Message)
			}
		}
		return got
	}
	if got := base(ir.DMARange{Flags: 0x0200_0000, Size: 1 << 32, Pos: pos(85)}); len(got) != 0 {
		t.Errorf("as the tree has it: %q", got)
	}
	want := []string{"BC0604: master pcie0: bridge.dmaRanges [{flags: 0x42000000, child: 0x0, parent: 0x0, size: 0x100000000}] differ from the base tree's dma-ranges [{flags: 0x2000000, child: 0x0, parent: 0x0, size: 0x100000000}]; the built tree has the description's"}
	if diff := cmp.Diff(want, base(ir.DMARange{Flags: 0x4200_0000, Size: 1 << 32, Pos: pos(85)})); diff != "" {
		t.Errorf("other flags (-want +got):\n%s", diff)
	}
	want = []string{"BC0608: master pcie0: the description's buses give the PCI devices behind it no bus_dma_limit (no dma-ranges reached), but of_dma_get_range() from the bridge's node over the built tree finds bus_dma_limit 0xffffffff from the dma-ranges of /soc/pcie@3"}
	if diff := cmp.Diff(want, base()); diff != "" {
		t.Errorf("not stated (-want +got):\n%s", diff)
	}
}

// TestBridgeDMARangesWindows: BC0211 refuses a window of configuration or
// I/O space and the defects of any dma-ranges window, each at its
// position; windows of memory space pass.
func TestBridgeDMARangesWindows(t *testing.T) {
	b := board()
	b.SoC.Buses[0].AddressBits = 40
	bridgeOf(b,
		ir.DMARange{Flags: 0x4300_0000, Child: 0, Parent: 0, Size: 1 << 32, Pos: pos(90)},
		ir.DMARange{Flags: 0x0000_0000, Child: 1 << 33, Parent: 1 << 33, Size: 1 << 20, Pos: pos(91)},
		ir.DMARange{Flags: 0x0200_0000, Child: 1 << 31, Parent: 1 << 39, Size: 1 << 40, Pos: pos(92)},
	)
	var got []string
	for _, d := range Run(b) {
		if d.Code == "BC0211" {
			got = append(got, d.String())
		}
	}
	want := []string{
		"board.cue:91:1: error: dma-ranges window of bridge pcie0 has flags 0x0, space code 0 (configuration), not memory (2 or 3): the host bridge driver programs no inbound window for it (devm_of_pci_get_host_bridge_resources(), drivers/pci/of.c), yet of_dma_get_range() counts it in its endpoints' bus_dma_limit [BC0211]",
		"board.cue:92:1: error: dma-ranges windows of bridge pcie0 overlap at child address 0x80000000 [BC0211]",
		"board.cue:92:1: error: dma-ranges windows of bridge pcie0 overlap at child address 0x200000000 [BC0211]",
		"board.cue:92:1: error: dma-ranges window of bridge pcie0 ends past the parent's address space (last address 0xffffffffff) [BC0211]",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("BC0211 (-want +got):\n%s", diff)
	}
}

// TestBridgeDMARangesCells: stated windows are written in the PCI bus
// binding's cells, so a base-tree node with other cell counts is BC0601
// at bridge.dmaRanges.
func TestBridgeDMARangesCells(t *testing.T) {
	src := strings.NewReplacer(
		"#address-cells = <3>; #size-cells = <2>;", "#address-cells = <3>; #size-cells = <1>;",
		"ranges = <0x02000000 0 0x40000000 0 0x40000000 0 0x10000000>;", "ranges = <0x02000000 0 0x40000000 0 0x40000000 0x10000000>;",
		"dma-ranges = <0x02000000 0 0 0 0 1 0>;", "",
	).Replace(bridgeBase)
	if !strings.Contains(src, "#size-cells = <1>;") {
		t.Fatal("the base tree has no bridge node to change")
	}
	tree := baseOf(t, src)
	b := board()
	bridgeOf(b, ir.DMARange{Flags: 0x0200_0000, Size: 1 << 32, Pos: pos(85)})
	var got []string
	for _, d := range RunWith(b, tree).Diagnostics {
		if d.Code == "BC0601" {
			got = append(got, d.String())
		}
	}
	want := []string{"board.cue:84:1: error: master pcie0: bridge.dmaRanges are written with #address-cells 3 and #size-cells 2, the PCI bus binding's, but node /soc/pcie@3 of the base tree has 3 and 1 [BC0601]"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("BC0601 (-want +got):\n%s", diff)
	}
}

// TestFSLMCNode: a master described as the Management Complex (bridge
// kind "fsl-mc") on a node that is not "fsl,qoriq-mc" is BC0601; on one
// that is, nothing.
func TestFSLMCNode(t *testing.T) {
	for _, tc := range []struct {
		compatible string
		want       []string
	}{
		{"vendor,dma", []string{"board.cue:26:1: error: master dma is described as the DPAA2 Management Complex (bridge kind \"fsl-mc\"), but node /soc/dma@2 of the base tree is not compatible \"fsl,qoriq-mc\" [BC0601]"}},
		{"fsl,qoriq-mc", nil},
	} {
		tree := baseOf(t, strings.Replace(cleanBase, "dma: dma@2 { reg = <0 2 0 1>; };", `dma: dma@2 { compatible = "`+tc.compatible+`"; reg = <0 2 0 1>; };`, 1))
		b := board()
		b.SoC.Masters[1].DriverSets = &ir.DriverSet{Source: ir.FSLMCSource, Pos: pos(26), Children: true, ChildrenPos: pos(26), MC: "s"}
		var got []string
		for _, d := range RunWith(b, tree).Diagnostics {
			if d.Code == "BC0601" {
				got = append(got, d.String())
			}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.compatible, diff)
		}
	}
}
