package basetree_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/internal/groundtruth"
	"boardc.dev/boardc/internal/testtool"
)

// TestGroundTruth compiles every board of the shared reference set as
// kbuild does and reads it back: the CPU count, the model, the nodes that
// carry dma-coherent and their labels must be those GROUND-TRUTH.md lists.
func TestGroundTruth(t *testing.T) {
	testtool.Look(t, "dtc", "device-tree-compiler")
	testtool.Look(t, "cpp", "cpp")
	root, inc, shared := testtool.UpstreamTree(t, "../..")
	boards, err := groundtruth.Read(filepath.Join(shared, "upstream-dts", "GROUND-TRUTH.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(boards) < 10 {
		t.Fatalf("%d boards in GROUND-TRUTH.md, want the 12 of the set", len(boards))
	}
	for _, gt := range boards {
		t.Run(gt.Name, func(t *testing.T) {
			tree, err := basetree.Compile{Root: root, DTS: gt.DTS, Include: inc}.Build(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got := len(tree.CPUs()); got != gt.CPUs {
				t.Errorf("%d CPUs, want %d", got, gt.CPUs)
			}
			if model, _ := tree.Node("/").String("model"); model != gt.Model {
				t.Errorf("model %q, want %q", model, gt.Model)
			}
			var got, want []string
			for _, p := range tree.Paths() {
				if tree.Node(p).Has("dma-coherent") {
					got = append(got, p)
				}
			}
			for _, n := range gt.Coherent {
				want = append(want, n.Path)
				for _, l := range n.Labels {
					if p, ok := tree.Label(l); !ok || p != n.Path {
						t.Errorf("label %s: %q (found %v), want %s", l, p, ok, n.Path)
					}
				}
				if st := tree.Node(n.Path); st != nil && st.Status() != n.Status {
					t.Errorf("%s: status %s, want %s", n.Path, st.Status(), n.Status)
				}
			}
			sort.Strings(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("dma-coherent nodes (-ground truth +read):\n%s", diff)
			}
		})
	}
}

// TestTopology reads the CPU clusters of three kinds of tree: cpu-map
// (RK3588: four Cortex-A55 and two pairs of Cortex-A76), shared L2 caches
// without cpu-map (LS2088A: four clusters of two), and neither (Armada
// 3720: one cluster).
func TestTopology(t *testing.T) {
	testtool.Look(t, "dtc", "device-tree-compiler")
	testtool.Look(t, "cpp", "cpp")
	root, inc, _ := testtool.UpstreamTree(t, "../..")
	for _, tc := range []struct {
		dts  string
		want basetree.Topology
	}{
		{"arch/arm64/boot/dts/rockchip/rk3588-rock-5b.dts", basetree.Topology{From: "cpu-map", Clusters: [][]int{{0, 1, 2, 3}, {4, 5}, {6, 7}}}},
		{"arch/arm64/boot/dts/freescale/fsl-ls2088a-rdb.dts", basetree.Topology{From: "next-level-cache", Clusters: [][]int{{0, 1}, {2, 3}, {4, 5}, {6, 7}}}},
		{"arch/arm64/boot/dts/marvell/armada-3720-espressobin.dts", basetree.Topology{Clusters: [][]int{{0, 1}}}},
	} {
		tree, err := basetree.Compile{Root: root, DTS: tc.dts, Include: inc}.Build(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, tree.Topology()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.dts, diff)
		}
	}
}

// TestBuildErrors pins what a missing .dts and a tree without include
// prefixes say.
func TestBuildErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := basetree.Compile{Root: dir, DTS: "arch/arm64/boot/dts/x.dts"}.Build(context.Background())
	if err == nil || err.Error() != "arch/arm64/boot/dts/x.dts: the description's dts: is not in the kernel tree "+dir {
		t.Errorf("missing dts: %v", err)
	}
	_, err = basetree.Read([]byte("not a dtb"), "x.dtb")
	if err == nil {
		t.Error("garbage read as a tree")
	}
}

// TestPropSource: with Annotate, a property's source is the file and line
// that set it, named as in the kernel tree, through the include prefixes
// too (LS2088A's crypto in fsl-ls208xa.dtsi, MACCHIATObin's AP XOR engines
// in armada-ap80x.dtsi).
func TestPropSource(t *testing.T) {
	testtool.Look(t, "dtc", "device-tree-compiler")
	testtool.Look(t, "cpp", "cpp")
	root, inc, _ := testtool.UpstreamTree(t, "../..")
	for _, tc := range []struct{ dts, path, want string }{
		{"arch/arm64/boot/dts/freescale/fsl-ls2088a-rdb.dts", "/soc/crypto@8000000", "arch/arm64/boot/dts/freescale/fsl-ls208xa.dtsi:480"},
		{"arch/arm64/boot/dts/marvell/armada-8040-mcbin.dts", "/soc/bus@f0000000/xor@400000", "arch/arm64/boot/dts/marvell/armada-ap80x.dtsi:181"},
	} {
		tree, err := basetree.Compile{Root: root, DTS: tc.dts, Include: inc, Annotate: true}.Build(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got := tree.PropSource(tc.path, "dma-coherent"); got != tc.want {
			t.Errorf("%s %s: dma-coherent from %q, want %q", tc.dts, tc.path, got, tc.want)
		}
	}
}

// TestPropSourceDTCInclude: the annotating dtc run finds a dtc /include/
// next to the .dts as the build does (dtc reads the source from its
// standard input, so it looks there only through -i).
func TestPropSourceDTCInclude(t *testing.T) {
	testtool.Look(t, "dtc", "device-tree-compiler")
	testtool.Look(t, "cpp", "cpp")
	dir := t.TempDir()
	dts := filepath.Join(dir, "board.dts")
	if err := os.WriteFile(dts, []byte("/dts-v1/;\n/include/ \"soc.dtsi\"\n/ { model = \"b\"; };\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "soc.dtsi"), []byte("/ {\n\tdma-coherent;\n};\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tree, err := basetree.Compile{DTS: dts, Annotate: true}.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tree.PropSource("/", "dma-coherent"), filepath.ToSlash(filepath.Join(dir, "soc.dtsi"))+":2"; got != want {
		t.Errorf("dma-coherent from %q, want %q", got, want)
	}
	// SourceFiles lists each file once, whatever it sets.
	want := []string{filepath.ToSlash(dts), filepath.ToSlash(filepath.Join(dir, "soc.dtsi"))}
	if got := tree.SourceFiles(); !slices.Equal(got, want) {
		t.Errorf("SourceFiles() = %q, want %q", got, want)
	}
}

// TestReg decodes reg with the parent's cell counts: two-cell addresses
// and sizes under the root, one-cell under a bus, the root's defaults for
// the root itself, and a bus with three address cells as not decodable.
func TestReg(t *testing.T) {
	testtool.Look(t, "dtc", "device-tree-compiler")
	src := `/dts-v1/;
/ {
	#address-cells = <2>; #size-cells = <2>;
	reg = <0 1 2>;
	memory@80000000 { device_type = "memory"; reg = <0 0x80000000 0 0x80000000 0x8 0x80000000 0x1 0x0>; };
	bus { #address-cells = <1>; #size-cells = <1>; dev@1000 { reg = <0x1000 0x100 0x2000>; }; };
	wide { #address-cells = <3>; #size-cells = <1>; dev@0 { reg = <0 0 0 1>; }; };
};
`
	cmd := exec.Command("dtc", "-q", "-I", "dts", "-O", "dtb", "-o", "-", "-")
	cmd.Stdin = strings.NewReader(src)
	dtb, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := basetree.Read(dtb, "reg.dts")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want [][2]uint64
		ok   bool
	}{
		{"/", [][2]uint64{{1, 2}}, true},
		{"/memory@80000000", [][2]uint64{{0x8000_0000, 0x8000_0000}, {0x8_8000_0000, 0x1_0000_0000}}, true},
		{"/bus/dev@1000", [][2]uint64{{0x1000, 0x100}}, true},
		{"/wide/dev@0", nil, false},
	} {
		got, ok := tree.Node(tc.path).Reg()
		if ok != tc.ok || !cmp.Equal(got, tc.want) {
			t.Errorf("%s: Reg() = %v, %v, want %v, %v", tc.path, got, ok, tc.want, tc.ok)
		}
	}
}
