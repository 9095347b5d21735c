package check

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/testtool"
)

// baseOf compiles a device tree source with dtc -@ and reads it.
func baseOf(t *testing.T, src string) *basetree.Tree {
	t.Helper()
	testtool.Look(t, "dtc", "device-tree-compiler")
	cmd := exec.Command("dtc", "-q", "-I", "dts", "-O", "dtb", "-@", "-o", "-", "-")
	cmd.Stdin = strings.NewReader(src)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := basetree.Read(out, "base.dts")
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// cleanBase is the tree board() describes.
const cleanBase = `/dts-v1/;
/ {
	#address-cells = <2>; #size-cells = <2>;
	cpus { #address-cells = <1>; #size-cells = <0>;
		cpu@0 { device_type = "cpu"; compatible = "arm,cortex-a53"; reg = <0>; };
		cpu@1 { device_type = "cpu"; compatible = "arm,cortex-a53"; reg = <1>; };
	};
	soc { #address-cells = <2>; #size-cells = <2>; ranges; dma-coherent;
		eth0: eth@1 { reg = <0 1 0 1>; };
		dma: dma@2 { reg = <0 2 0 1>; };
	};
};
`

// TestBaseClean: the board against the tree it describes has no
// base-tree finding, and without a tree none of the checks runs.
func TestBaseClean(t *testing.T) {
	b := board()
	for _, d := range RunWith(b, baseOf(t, cleanBase)).Diagnostics {
		if strings.HasPrefix(d.Code, "BC06") {
			t.Errorf("clean board against its tree: %s", d)
		}
	}
}

// TestBaseWaiver: a waiver of a base-tree finding silences it when a tree
// is given, and is not "unused" when none is (vet without --dts-root).
func TestBaseWaiver(t *testing.T) {
	tree := baseOf(t, strings.Replace(cleanBase, "dma: dma@2 {", "dma: dma@2 { status = \"disabled\";", 1))
	b := board()
	if got := codes(RunWith(b, tree).Diagnostics); !slices.Contains(got, "BC0606:warning") {
		t.Fatalf("findings %v, want BC0606 for the disabled dma node", got)
	}
	b.Waivers = []ir.Waiver{{Check: "BC0606", On: "soc.masters.dma", Reason: "the bootloader enables it", Pos: pos(60), OnPos: pos(61)}}
	finish(b)
	b.Waivers[0].Target = "soc.masters.dma"
	if got := codes(RunWith(b, tree).Diagnostics); slices.Contains(got, "BC0606:warning") || slices.Contains(got, "BC0011:warning") {
		t.Errorf("with the tree: findings %v, want the BC0606 waived and the waiver used", got)
	}
	if got := codes(Run(b)); slices.Contains(got, "BC0011:warning") {
		t.Errorf("without a tree: findings %v, want no unused-waiver warning for a base-tree check", got)
	}
}

// TestBaseClusters: clusters are compared as a partition of the CPUs, so
// the same clusters listed in another order agree with cpu-map, and a
// different grouping does not.
func TestBaseClusters(t *testing.T) {
	tree := baseOf(t, `/dts-v1/;
/ {
	#address-cells = <2>; #size-cells = <2>;
	cpus { #address-cells = <1>; #size-cells = <0>;
		c0: cpu@0 { device_type = "cpu"; compatible = "arm,cortex-a53"; reg = <0>; };
		c1: cpu@1 { device_type = "cpu"; compatible = "arm,cortex-a53"; reg = <1>; };
		c2: cpu@100 { device_type = "cpu"; compatible = "arm,cortex-a53"; reg = <0x100>; };
		c3: cpu@101 { device_type = "cpu"; compatible = "arm,cortex-a53"; reg = <0x101>; };
		cpu-map {
			cluster0 { core0 { cpu = <&c0>; }; core1 { cpu = <&c1>; }; };
			cluster1 { core0 { cpu = <&c2>; }; core1 { cpu = <&c3>; }; };
		};
	};
};
`)
	for _, tc := range []struct {
		clusters [][]int
		want     bool
	}{
		{[][]int{{2, 3}, {0, 1}}, false},
		{[][]int{{0, 1}, {2, 3}}, false},
		{[][]int{{0, 2}, {1, 3}}, true},
	} {
		b := board()
		b.SoC.Clusters = nil
		for _, c := range tc.clusters {
			b.SoC.Clusters = append(b.SoC.Clusters, ir.Cluster{Core: "arm,cortex-a53", CPUs: c, Pos: pos(4)})
		}
		b.SoC.DPAA2 = nil
		finish(b)
		p := &Pass{Board: b, Base: tree, check: BaseCPUs}
		BaseCPUs.Run(p)
		if got := len(p.found) > 0; got != tc.want {
			t.Errorf("clusters %v: reported %v, want %v (%v)", tc.clusters, got, tc.want, p.found)
		}
	}
}

// TestBaseClustersDynamIQ: a cpu-map cluster of two core types (MediaTek
// MT8195's cluster0 of Cortex-A55 and Cortex-A78) is one cluster whose
// cores names the CPUs of the second type; each CPU is compared with its
// own node's compatible, and splitting the cluster by core type differs
// from cpu-map.
func TestBaseClustersDynamIQ(t *testing.T) {
	tree := baseOf(t, `/dts-v1/;
/ {
	#address-cells = <2>; #size-cells = <2>;
	cpus { #address-cells = <1>; #size-cells = <0>;
		c0: cpu@0 { device_type = "cpu"; compatible = "arm,cortex-a55"; reg = <0>; };
		c1: cpu@100 { device_type = "cpu"; compatible = "arm,cortex-a55"; reg = <0x100>; };
		c2: cpu@200 { device_type = "cpu"; compatible = "arm,cortex-a78"; reg = <0x200>; };
		c3: cpu@300 { device_type = "cpu"; compatible = "arm,cortex-a78"; reg = <0x300>; };
		cpu-map {
			cluster0 {
				core0 { cpu = <&c0>; }; core1 { cpu = <&c1>; };
				core2 { cpu = <&c2>; }; core3 { cpu = <&c3>; };
			};
		};
	};
};
`)
	a55, a78 := "arm,cortex-a55", "arm,cortex-a78"
	for _, tc := range []struct {
		name     string
		clusters []ir.Cluster
		want     []string
	}{
		{"one core type", []ir.Cluster{{Core: a55, CPUs: []int{0, 1, 2, 3}}},
			[]string{`cluster 0: CPU 2 is "arm,cortex-a78" in the base tree, not "arm,cortex-a55"`}},
		{"cores per CPU", []ir.Cluster{{Core: a55, CPUs: []int{0, 1, 2, 3}, Cores: []ir.CoreCPUs{{Core: a78, CPUs: []int{2, 3}}}}},
			nil},
		{"cores on the wrong CPU", []ir.Cluster{{Core: a55, CPUs: []int{0, 1, 2, 3}, Cores: []ir.CoreCPUs{{Core: a78, CPUs: []int{1, 3}}}}},
			[]string{`cluster 0: CPU 1 is "arm,cortex-a55" in the base tree, not "arm,cortex-a78"`}},
		{"split by core type", []ir.Cluster{{Core: a55, CPUs: []int{0, 1}}, {Core: a78, CPUs: []int{2, 3}}},
			[]string{`the clusters [[0 1] [2 3]] differ from the base tree's [[0 1 2 3]] (from its cpu-map)`}},
	} {
		b := board()
		b.SoC.Clusters = tc.clusters
		for i := range b.SoC.Clusters {
			b.SoC.Clusters[i].Pos = pos(4)
		}
		b.SoC.DPAA2 = nil
		finish(b)
		p := &Pass{Board: b, Base: tree, check: BaseCPUs}
		BaseCPUs.Run(p)
		var got []string
		for _, d := range p.found {
			got = append(got, d.d.Message)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
