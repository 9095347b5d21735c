package dts_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/testtool"
	"boardc.dev/boardc/outputs/dts"
)

// bridgeBase is a tree with an R-Car-style PCIe host bridge on a 2/2-cell
// /soc whose own dma-ranges is one 32-bit prefetchable memory window over
// the first 4 GiB (Linux arch/arm64/boot/dts/renesas/r8a77951.dtsi,
// pciec0).
const bridgeBase = `/dts-v1/;
/ {
	#address-cells = <2>;
	#size-cells = <2>;
	soc {
		compatible = "simple-bus";
		#address-cells = <2>;
		#size-cells = <2>;
		ranges;
		pciec0: pcie@fe000000 {
			compatible = "renesas,pcie-r8a7795";
			device_type = "pci";
			reg = <0 0xfe000000 0 0x80000>;
			#address-cells = <3>;
			#size-cells = <2>;
			bus-range = <0x00 0xff>;
			ranges = <0x02000000 0 0xfe200000 0 0xfe200000 0 0x00200000>;
			dma-ranges = <0x42000000 0 0x00000000 0 0x00000000 1 0x00000000>;
		};
	};
};
`

// bridgeBoard describes bridgeBase's bridge with the given own
// dma-ranges; none leaves them out.
func bridgeBoard(rs ...ir.DMARange) *ir.Board {
	soc := &ir.Bus{Key: "soc", Pos: at(2), Node: ir.Node{Path: "/soc"}, AddressCells: 2, SizeCells: 2,
		Coherency: ir.BusCoherency{Source: "test", Pos: at(1)}}
	br := &ir.Bridge{Kind: ir.BridgePCIe, Source: "test", Pos: at(10), DMARanges: rs, DMARangesPos: at(11)}
	return &ir.Board{
		Name: "bridge",
		SoC: ir.SoC{
			Name: "bridge-soc", RootAddressCells: 2, RootSizeCells: 2,
			Buses: []*ir.Bus{soc},
			Masters: []*ir.Master{{Key: "pciec0", Node: ir.Node{Label: "pciec0", Path: "/soc/pcie@fe000000"},
				Bus: soc, Bridge: br, Enabled: true}},
		},
	}
}

// TestBridgeDMARanges: a bridge's own dma-ranges are written on its node
// only where the description states them. Stated as upstream has them,
// the built tree is upstream's, cell for cell; stated otherwise, the
// built tree has the description's windows, the flags cell first; not
// stated, the fragment has nothing for the bridge. The overlay restates
// the PCI bus binding's cell counts, and dtc builds both without a
// warning.
func TestBridgeDMARanges(t *testing.T) {
	upstream := []uint32{0x42000000, 0, 0, 0, 0, 1, 0}
	for _, tc := range []struct {
		name string
		rs   []ir.DMARange
		want []uint32
	}{
		{"as upstream", []ir.DMARange{{Flags: 0x4200_0000, Child: 0, Parent: 0, Size: 1 << 32, Pos: at(12)}}, upstream},
		{"two windows", []ir.DMARange{
			{Flags: 0x0200_0000, Child: 0x4000_0000, Parent: 0x4000_0000, Size: 0x4000_0000, Pos: at(12)},
			{Flags: 0x4300_0000, Child: 0x6_0000_0000, Parent: 0x6_0000_0000, Size: 0x2_0000_0000, Pos: at(13)},
		}, []uint32{0x02000000, 0, 0x40000000, 0, 0x40000000, 0, 0x40000000, 0x43000000, 6, 0, 6, 0, 2, 0}},
		{"not stated", nil, upstream},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stated := len(tc.rs) > 0
			files := dts.Emit(bridgeBoard(tc.rs...))
			frag := string(files[0].Data)
			if has := strings.Contains(frag, "&pciec0 {"); has != stated {
				t.Errorf("fragment writes the bridge's node: %v, want %v:\n%s", has, stated, frag)
			}
			if stated && !strings.Contains(frag, "/* soc.masters.pciec0.bridge.dmaRanges */") {
				t.Errorf("the dma-ranges line does not name bridge.dmaRanges:\n%s", frag)
			}
			tree := compileWith(t, bridgeBase, frag)
			got := tree.Cells("/soc/pcie@fe000000", "dma-ranges")
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("built dma-ranges (-want +got):\n%s\n%s", diff, frag)
			}
			if len(files) != 2 {
				t.Fatalf("%d files, want the fragment and the overlay", len(files))
			}
			ov := string(files[1].Data)
			if stated && !strings.Contains(ov, "&pciec0 {\n\t#address-cells = <3>;") {
				t.Errorf("the overlay does not restate the bridge's cell counts:\n%s", ov)
			}
			dtcOverlay(t, ov)
		})
	}
}

// dtcOverlay builds the overlay src with dtc -@ and fails on any output.
func dtcOverlay(t *testing.T, src string) {
	t.Helper()
	bin := testtool.Look(t, "dtc", "device-tree-compiler")
	f := filepath.Join(t.TempDir(), "b.dtso")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "-@", "-I", "dts", "-O", "dtb", "-o", os.DevNull, f).CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("dtc on the overlay: %v\n%s\n%s", err, out, src)
	}
}
