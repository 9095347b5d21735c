package basetree_test

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/internal/testtool"
)

// walkSrc has a translating /soc; under it rp > edge > fastrpc > cb, the
// Qualcomm remoteproc shape, with no dma-ranges below /soc; id, an empty
// dma-ranges over leaf > dev; and mem, whose DMA parent is the dma-mem
// interconnect ic.
const walkSrc = `/dts-v1/;
/ {
	#address-cells = <2>; #size-cells = <2>;
	soc {
		#address-cells = <2>; #size-cells = <2>; ranges;
		dma-ranges = <0x0 0x0 0x0 0x0 0x10 0x0>;
		ic: ic { #interconnect-cells = <1>; dma-ranges = <0x0 0x0 0x0 0x0 0x1 0x0>; #address-cells = <2>; #size-cells = <2>; };
		rp { #address-cells = <2>; #size-cells = <1>;
			edge { #address-cells = <2>; #size-cells = <1>;
				fastrpc { #address-cells = <1>; #size-cells = <0>; cb { }; };
			};
		};
		id { #address-cells = <2>; #size-cells = <2>; dma-ranges;
			leaf { #address-cells = <2>; #size-cells = <2>; dev { }; };
		};
		mem { interconnects = <&ic 7>, <&ic 8>; interconnect-names = "cpu", "dma-mem"; };
	};
};
`

// walkText prints what the walk from a device's DMA parent finds.
func walkText(w basetree.DMAWalk) string {
	if w.At == nil {
		return "-ENODEV"
	}
	return fmt.Sprintf("%s %#x", w.At.Path, w.Limit)
}

// TestDMAWalk pins the model of of_dma_get_range() to the kernel's rules
// (drivers/of/address.c): a missing dma-ranges on the device's parent is
// passed over, an empty one is an identity, a missing one further up ends
// the walk with none, and a dma-mem interconnect replaces the parent. With
// a fragment's windows (over), the compute bank's -ENODEV becomes the
// 4 GiB limit an identity window on rp sets.
func TestDMAWalk(t *testing.T) {
	testtool.Look(t, "dtc", "device-tree-compiler")
	cmd := exec.Command("dtc", "-q", "-I", "dts", "-O", "dtb", "-o", "-", "-")
	cmd.Stdin = strings.NewReader(walkSrc)
	dtb, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := basetree.Read(dtb, "walk.dts")
	if err != nil {
		t.Fatal(err)
	}
	over := func(n *basetree.Node) ([][3]uint64, bool, bool) {
		switch n.Path {
		case "/soc/rp":
			return [][3]uint64{{0, 0, 0xffff_ffff}}, true, true
		case "/soc/rp/edge":
			return [][3]uint64{}, true, true
		}
		return nil, false, false
	}
	for _, tc := range []struct {
		dev      string
		want     string
		withOver string
	}{
		{"/soc/rp", "/soc 0xfffffffff", "/soc 0xfffffffff"},
		{"/soc/rp/edge", "/soc 0xfffffffff", "/soc/rp 0xfffffffe"},
		{"/soc/rp/edge/fastrpc", "-ENODEV", "/soc/rp 0xfffffffe"},
		{"/soc/rp/edge/fastrpc/cb", "-ENODEV", "/soc/rp 0xfffffffe"},
		{"/soc/id/leaf/dev", "/soc 0xfffffffff", "/soc 0xfffffffff"},
		{"/soc/mem", "/soc/ic 0xffffffff", "/soc/ic 0xffffffff"},
	} {
		n := tree.Node(tc.dev)
		if got := walkText(tree.DMAWalk(tree.DMAParent(n), nil)); got != tc.want {
			t.Errorf("%s: walk finds %q, want %q", tc.dev, got, tc.want)
		}
		if got := walkText(tree.DMAWalk(tree.DMAParent(n), over)); got != tc.withOver {
			t.Errorf("%s with the windows: walk finds %q, want %q", tc.dev, got, tc.withOver)
		}
	}
}
