package dts_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/fdt"
	"boardc.dev/boardc/internal/testtool"
	"boardc.dev/boardc/outputs/dts"
)

func at(line int) ir.Pos { return ir.Pos{File: "b.cue", Src: "b.cue", Line: line, Col: 1} }

// deepBoard has a translating /soc and a master two buses below it:
// /soc (2/2 cells, dma-ranges) > bus@f0000000 (1/1) > sub@100000 (1/1) >
// dma@1000. of_dma_get_range() starts at sub@100000, which may lack
// dma-ranges, but must then find one on bus@f0000000 to reach /soc.
func deepBoard(midCells int) *ir.Board {
	coh := ir.BusCoherency{Coherent: true, Source: "test", Masters: ir.ScopeAll, Pos: at(1)}
	soc := &ir.Bus{Key: "soc", Pos: at(2), Node: ir.Node{Path: "/soc"}, AddressCells: 2, SizeCells: 2, Coherency: coh,
		HasDMARanges: true, DMARangesPos: at(3),
		DMARanges: []ir.DMARange{{Child: 0, Parent: 0x8000_0000, Size: 0x8000_0000, Pos: at(3)}}}
	mid := &ir.Bus{Key: "mid", Pos: at(4), Node: ir.Node{Path: "/soc/bus@f0000000"}, Parent: soc,
		AddressCells: midCells, SizeCells: midCells, Coherency: coh}
	sub := &ir.Bus{Key: "sub", Pos: at(5), Node: ir.Node{Path: "/soc/bus@f0000000/sub@100000"}, Parent: mid,
		AddressCells: 1, SizeCells: 1, Coherency: coh}
	return &ir.Board{
		Name: "deep",
		SoC: ir.SoC{
			Name: "deep-soc", RootAddressCells: 2, RootSizeCells: 2,
			Buses: []*ir.Bus{mid, soc, sub},
			Masters: []*ir.Master{{Key: "dma", Node: ir.Node{Label: "dma", Path: "/soc/bus@f0000000/sub@100000/dma@1000"},
				Bus: sub, DMABits: 32, Enabled: true}},
		},
	}
}

// baseTree is deepBoard's tree with only what dtc needs; midCells sets
// bus@f0000000's cell counts.
func baseTree(midCells int) string {
	mid := `#address-cells = <1>; #size-cells = <1>; ranges = <0x0 0x0 0xf0000000 0x1000000>;`
	sub := `ranges = <0x0 0x100000 0x10000>;`
	if midCells == 2 {
		mid = `#address-cells = <2>; #size-cells = <2>; ranges = <0x0 0x0 0x0 0xf0000000 0x0 0x1000000>;`
		sub = `ranges = <0x0 0x0 0x100000 0x10000>;`
	}
	return `/dts-v1/;
/ {
	#address-cells = <2>;
	#size-cells = <2>;
	soc {
		compatible = "simple-bus";
		#address-cells = <2>;
		#size-cells = <2>;
		ranges;
		bus@f0000000 {
			compatible = "simple-bus";
			` + mid + `
			sub@100000 {
				compatible = "simple-bus";
				#address-cells = <1>;
				#size-cells = <1>;
				` + sub + `
				dma: dma@1000 {
					compatible = "vendor,dma";
					reg = <0x1000 0x100>;
				};
			};
		};
	};
};
`
}

// TestIntermediateRanges checks that the fragment writes a dma-ranges only
// where the description states one. With nothing stated on the buses
// between the master and the translating /soc, it writes /soc's and
// nothing else: no window on bus@f0000000, which would end
// of_dma_get_range()'s walk there with a limit nobody stated. Where the
// description states an identity on bus@f0000000, it writes an empty
// dma-ranges whatever the cell counts (dtc then warns where they differ
// from the parent's: check BC0206). dtc accepts the result.
func TestIntermediateRanges(t *testing.T) {
	for _, tc := range []struct {
		midCells int
		stated   bool
	}{
		{1, false},
		{2, false},
		{2, true},
		{1, true},
	} {
		b := deepBoard(tc.midCells)
		if tc.stated {
			b.SoC.Buses[0].HasDMARanges, b.SoC.Buses[0].DMARangesPos = true, at(6)
		}
		frag := string(dts.Emit(b)[0].Data)
		mid := strings.Contains(frag, "&{/soc/bus@f0000000} {")
		if mid != tc.stated {
			t.Errorf("cells %d, stated %v: fragment writes bus@f0000000: %v:\n%s", tc.midCells, tc.stated, mid, frag)
		}
		if tc.stated && !strings.Contains(frag, "&{/soc/bus@f0000000} {\n\tdma-ranges; /* b.cue:6 */") {
			t.Errorf("cells %d: fragment lacks the stated empty dma-ranges:\n%s", tc.midCells, frag)
		}
		if strings.Contains(frag, "&{/soc/bus@f0000000/sub@100000}") {
			t.Errorf("cells %d: the master's own bus states no dma-ranges:\n%s", tc.midCells, frag)
		}
		if tc.stated && tc.midCells != 2 {
			// dtc warns, as BC0206 says.
			if w := dtcStderr(t, baseTree(tc.midCells)+frag); !strings.Contains(w, "Warning (dma_ranges_format)") {
				t.Errorf("cells %d: dtc does not warn on the empty dma-ranges:\n%s", tc.midCells, w)
			}
			continue
		}
		tree := compileWith(t, baseTree(tc.midCells), frag)
		if _, has := tree["/soc/bus@f0000000"]["dma-ranges"]; has != tc.stated {
			t.Errorf("cells %d, stated %v: bus@f0000000 has dma-ranges in the dtb: %v", tc.midCells, tc.stated, has)
		}
		if diff := cmp.Diff([]uint32{0, 0, 0, 0x80000000, 0, 0x80000000}, tree.Cells("/soc", "dma-ranges")); diff != "" {
			t.Errorf("cells %d: /soc dma-ranges (-want +got):\n%s", tc.midCells, diff)
		}
		if got := tree.WithProperty("dma-coherent"); !cmp.Equal(got, []string{"/soc/bus@f0000000/sub@100000/dma@1000"}) {
			t.Errorf("cells %d: dma-coherent on %v", tc.midCells, got)
		}
	}
}

// compileWith builds base with the fragment appended and fails on any
// dtc output.
func compileWith(t *testing.T, base, frag string) fdt.Tree {
	t.Helper()
	bin := testtool.Look(t, "dtc", "device-tree-compiler")
	dir := t.TempDir()
	src, out := filepath.Join(dir, "b.dts"), filepath.Join(dir, "b.dtb")
	if err := os.WriteFile(src, []byte(base+frag), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-I", "dts", "-O", "dtb", "-o", out, src)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("dtc: %v\n%s\n%s", err, stderr.String(), base+frag)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := fdt.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// dtcStderr compiles src with dtc and returns what it printed.
func dtcStderr(t *testing.T, src string) string {
	t.Helper()
	bin := testtool.Look(t, "dtc", "device-tree-compiler")
	f := filepath.Join(t.TempDir(), "b.dts")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-I", "dts", "-O", "dtb", "-o", os.DevNull, f).CombinedOutput()
	if err != nil {
		t.Fatalf("dtc: %v\n%s", err, out)
	}
	return string(out)
}

// TestCells splits values most significant cell first.
func TestCells(t *testing.T) {
	if got := dts.Cells(0x1_0000_0000_0000, 2); !cmp.Equal(got, []string{"0x10000", "0x0"}) {
		t.Errorf("Cells(2^48, 2) = %v", got)
	}
	if got := dts.Cells(0xd0000000, 1); !cmp.Equal(got, []string{"0xd0000000"}) {
		t.Errorf("Cells(0xd0000000, 1) = %v", got)
	}
}

// TestOptOutDeletes: a master declared non-coherent deletes dma-coherent,
// and the board gets no overlay, which could not delete it. With no
// dma-coherent above the node, that is all: of_dma_is_coherent() then
// ends at arm64's non-coherent default, and no dma-noncoherent (which
// bindings such as virtio/mmio.yaml refuse) is written. Over a tree whose
// node carries dma-coherent, the built node has neither property.
func TestOptOutDeletes(t *testing.T) {
	b := deepBoard(1)
	b.SoC.Masters[0].Coherency = &ir.MasterCoherency{Coherent: false, Reason: "r", Pos: at(9)}
	files := dts.Emit(b)
	if len(files) != 1 || files[0].Path != "deep.dtsi" {
		var names []string
		for _, f := range files {
			names = append(names, f.Path)
		}
		t.Fatalf("files %v, want deep.dtsi alone", names)
	}
	src := string(files[0].Data)
	if !strings.Contains(src, "\t/delete-property/ dma-coherent;") || strings.Contains(src, "dma-noncoherent") {
		t.Fatalf("want /delete-property/ dma-coherent; and no dma-noncoherent, got:\n%s", src)
	}
	bin := testtool.Look(t, "dtc", "device-tree-compiler")
	dir := t.TempDir()
	base := strings.Replace(baseTree(1), "dma: dma@1000 {", "dma: dma@1000 {\n\t\t\t\t\tdma-coherent;", 1)
	if base == baseTree(1) {
		t.Fatal("the base tree has no dma@1000 node to mark")
	}
	frag := filepath.Join(dir, "deep.dtsi")
	if err := os.WriteFile(frag, files[0].Data, 0o644); err != nil {
		t.Fatal(err)
	}
	dtsFile := filepath.Join(dir, "board.dts")
	if err := os.WriteFile(dtsFile, []byte(base+"\n/include/ \""+frag+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "board.dtb")
	if msg, err := exec.Command(bin, "-q", "-I", "dts", "-O", "dtb", "-o", out, dtsFile).CombinedOutput(); err != nil {
		t.Fatalf("dtc: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := fdt.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	path := b.SoC.Masters[0].Node.Path
	if got := tree.WithProperty("dma-coherent"); len(got) != 0 {
		t.Errorf("dma-coherent still on %v", got)
	}
	if got := tree.WithProperty("dma-noncoherent"); len(got) != 0 {
		t.Errorf("dma-noncoherent on %v, want none (%s has no coherent ancestor)", got, path)
	}
}

// TestFlagAt: a bus coherent for all masters whose flag upstream states
// on an ancestor (flagAt) gets dma-coherent there, once, and its masters
// none of their own; an opted-out master still opts out on its node.
func TestFlagAt(t *testing.T) {
	b := deepBoard(1)
	for _, bus := range b.SoC.Buses {
		bus.Coherency.FlagAt, bus.Coherency.FlagAtPos = "/soc", at(7)
	}
	b.SoC.Masters = append(b.SoC.Masters, &ir.Master{Key: "out", Node: ir.Node{Label: "out", Path: "/soc/bus@f0000000/sub@100000/out@2000"},
		Bus: b.SoC.Masters[0].Bus, DMABits: 32, Enabled: true, Coherency: &ir.MasterCoherency{Reason: "r", Pos: at(9)}})
	src := string(dts.Emit(b)[0].Data)
	if n := strings.Count(src, "\tdma-coherent;"); n != 1 {
		t.Errorf("%d dma-coherent properties, want 1 (on /soc):\n%s", n, src)
	}
	soc := strings.Index(src, "&{/soc} {")
	if soc < 0 || !strings.Contains(src[soc:], "\tdma-coherent; /* bus ") {
		t.Errorf("no dma-coherent on &{/soc}:\n%s", src)
	}
	if strings.Contains(src, "&dma {") {
		t.Errorf("the inheriting master has a node of its own:\n%s", src)
	}
	// Below /soc's dma-coherent, deleting its own flag is not enough:
	// of_dma_is_coherent() would meet /soc's. dma-noncoherent stops it.
	if !strings.Contains(src, "&out {\n\t/delete-property/ dma-coherent;") || !strings.Contains(src, "\tdma-noncoherent; /* opts out") {
		t.Errorf("the opted-out master does not opt out:\n%s", src)
	}
}
