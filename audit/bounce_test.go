package audit

import (
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/kernel"
)

const (
	ram8G    = "\tmemory@0 { device_type = \"memory\"; reg = <0 0 0x2 0>; };"
	ramNoSz  = "\tmemory@40000000 { device_type = \"memory\"; reg = <0 0x40000000 0 0>; };"
	usb      = "/soc/usb@58000"
	eth      = "/soc/ethernet@30000"
	cryptoNd = "/soc/crypto@90000"
)

func TestBounce(t *testing.T) {
	r := Board(tree(t, armada(ram8G, "", "")), "board.dts", catalog())
	// OHCI: its driver sets 32 bits, RAM goes to 8 GiB.
	f, ok := classes(r, usb)[Bounce]
	if !ok {
		t.Fatalf("no bounce finding on %s: %+v", usb, r.Findings)
	}
	if f.Severity != Warning || !strings.Contains(f.Message, "below 0x100000000 (32-bit mask)") || f.Evidence[0].Source != "drivers/usb/host/ohci-platform.c:120 ohci_platform_probe()" {
		t.Errorf("finding = %+v", f)
	}
	// mvneta sets no mask: the OF default, a class of its own.
	if f, ok := classes(r, eth)[BounceDefault]; !ok || !strings.Contains(f.Evidence[0].Text, "sets no DMA mask") {
		t.Errorf("bounce-default on %s = %+v (found %v)", eth, f, ok)
	}
	// The EIP97 sets 64 bits.
	if f, ok := classes(r, cryptoNd)[Bounce]; ok {
		t.Errorf("a bounce finding on a 64-bit master: %+v", f)
	}

	for name, src := range map[string]string{
		"1 GiB of RAM": armada(ram1G, "", ""),
		"iommus":       strings.Replace(armada(ram8G, "", ""), `compatible = "generic-ohci";`, `compatible = "generic-ohci"; iommus = <&smmu 1>;`, 1),
	} {
		if src == "" {
			continue
		}
		if name == "iommus" {
			src = strings.Replace(src, "soc {", "smmu: iommu { #iommu-cells = <1>; };\n\tsoc {", 1)
		}
		if f, ok := classes(Board(tree(t, src), "board.dts", catalog()), usb)[Bounce]; ok {
			t.Errorf("%s: a bounce finding: %+v", name, f)
		}
	}
	// mvneta with dmas: a DMA engine maps its transfers.
	src := strings.Replace(armada(ram8G, "", ""), `compatible = "marvell,armada-3700-neta";`, `compatible = "marvell,armada-3700-neta"; dmas = <0>;`, 1)
	if f, ok := classes(Board(tree(t, src), "board.dts", catalog()), eth)[BounceDefault]; ok {
		t.Errorf("dmas: a bounce-default finding: %+v", f)
	}
}

func TestBounceRanges(t *testing.T) {
	// The EIP97 sets 64 bits, but its bus passes only the first 4 GiB.
	src := armada(ram8G, "", "dma-ranges = <0 0 0 0 0x1 0>;")
	r := Board(tree(t, src), "board.dts", catalog())
	f, ok := classes(r, cryptoNd)[Bounce]
	if !ok {
		t.Fatalf("no bounce finding on %s: %+v", cryptoNd, r.Findings)
	}
	if !strings.Contains(f.Message, "64-bit mask narrowed by dma-ranges") || f.Evidence[1].Source != "board.dts:12" {
		t.Errorf("finding = %+v", f)
	}
	// A window that covers the RAM.
	src = armada(ram8G, "", "dma-ranges = <0 0 0 0 0x2 0>;")
	if f, ok := classes(Board(tree(t, src), "board.dts", catalog()), cryptoNd)[Bounce]; ok {
		t.Errorf("a bounce finding with a window over all RAM: %+v", f)
	}
}

func TestBounceRAMSize(t *testing.T) {
	r := Board(tree(t, armada(ramNoSz, "", "")), "board.dts", catalog())
	f, ok := classes(r, usb)[Bounce]
	if !ok {
		t.Fatalf("no bounce finding on %s: %+v", usb, r.Findings)
	}
	if f.Severity != Note || !strings.Contains(f.Message, "with more than 3 GiB of RAM at 0x40000000") {
		t.Errorf("finding = %+v", f)
	}
}

func TestReach(t *testing.T) {
	for _, c := range []struct {
		width   int
		ranges  [][3]uint64
		lo, hi  uint64
		out     uint64
		outside bool
	}{
		{32, nil, 0, 1<<32 - 1, 0, false},
		{32, nil, 0x80000000, 1<<33 - 1, 1 << 32, true},
		{64, [][3]uint64{{0, 0, 1 << 32}}, 0, 1<<33 - 1, 1 << 32, true},
		// A window at 0 on the bus for RAM at 0x80000000.
		{32, [][3]uint64{{0, 0x80000000, 1 << 32}}, 0x80000000, 0x17fffffff, 0, false},
		// Two windows with a hole.
		{64, [][3]uint64{{0, 0, 1 << 30}, {1 << 31, 1 << 31, 1 << 30}}, 0, 1<<32 - 1, 1 << 30, true},
	} {
		w := windowsFor(c.width, c.ranges)
		out, outside := firstOut(c.lo, c.hi, w)
		if out != c.out || outside != c.outside {
			t.Errorf("width %d ranges %v over [%#x, %#x]: %#x, %v; want %#x, %v", c.width, c.ranges, c.lo, c.hi, out, outside, c.out, c.outside)
		}
	}
}

// TestBounceNoMemory: without a memory node, the RAM is taken to start
// where the device's reach does (i.MX8MM: a window at 0x40000000).
func TestBounceNoMemory(t *testing.T) {
	r := Board(tree(t, armada("", "", "dma-ranges = <0 0x40000000 0 0x40000000 0 0xc0000000>;")), "board.dts", catalog())
	f, ok := classes(r, usb)[Bounce]
	if !ok || f.Severity != Note || !strings.Contains(f.Message, "RAM above 0x100000000 bounces") {
		t.Errorf("finding = %+v (found %v), want a note naming 0x100000000", f, ok)
	}
	// A board whose RAM starts below every window: all of it bounces.
	r = Board(tree(t, armada(ramNoSz, "", "dma-ranges = <0 0x80000000 0 0x80000000 0 0x80000000>;")), "board.dts", catalog())
	f, ok = classes(r, usb)[Bounce]
	if !ok || f.Severity != Warning || !strings.Contains(f.Message, "cannot reach the start of RAM at 0x40000000") {
		t.Errorf("finding = %+v (found %v), want a warning on the start of RAM", f, ok)
	}
}

// TestBounceSoCRAM: a note on a board that leaves its RAM size open is
// kept only where a board of the same SoC states RAM beyond the reach.
func TestBounceSoCRAM(t *testing.T) {
	open := Board(tree(t, armada(ramNoSz, "", "")), "open.dts", catalog())
	small := Board(tree(t, armada(ram1G, "", "")), "small.dts", catalog())
	big := Board(tree(t, armada(ram8G, "", "")), "big.dts", catalog())
	has := func(fs []Finding) (Finding, bool) {
		for _, f := range fs {
			if f.Board == "open.dts" && f.Path == usb && f.Class == Bounce {
				return f, true
			}
		}
		return Finding{}, false
	}
	if f, ok := has(Finish([]BoardResult{open, small})); ok {
		t.Errorf("kept with no board of the SoC above the reach: %+v", f)
	}
	f, ok := has(Finish([]BoardResult{open, small, big}))
	if !ok {
		t.Fatal("dropped although big.dts states 8 GiB")
	}
	last := f.Evidence[len(f.Evidence)-1]
	if last.Kind != "memory" || !strings.Contains(last.Text, "big.dts, a board of the same SoC (marvell,armada3720), has RAM up to 0x1ffffffff") || last.Source != "board.dts:6" {
		t.Errorf("evidence = %+v", last)
	}
}

// TestBounceDualRole: a cdns3 core sets 32 bits, but its host role's
// xhci-hcd child sets this device's masks again (xhci_plat_probe()), to
// a width a register decides: only a peripheral-only node keeps the 32.
func TestBounceDualRole(t *testing.T) {
	cat := catalog()
	cat.Drivers = append(cat.Drivers, kernel.Driver{Name: "cdns-usb3", Bus: "platform",
		Site: kernel.Site{File: "drivers/usb/cdns3/cdns3-plat.c", Line: 331}, Probe: kernel.Site{File: "drivers/usb/cdns3/cdns3-plat.c", Line: 53, Func: "cdns3_plat_probe"},
		Compatibles: []string{"cdns,usb3"},
		DMA:         kernel.DMA{Kind: kernel.DMAFixed, Widths: []int{32}, Sets: []kernel.MaskSet{{Call: "dma_set_mask_and_coherent", Arg: "DMA_BIT_MASK(32)", Width: 32, Site: kernel.Site{File: "drivers/usb/cdns3/core.c", Line: 432, Func: "cdns_init"}}}}})
	const node = "/soc/usb@f400000"
	for mode, want := range map[string]bool{"": false, `dr_mode = "host";`: false, `dr_mode = "otg";`: false, `dr_mode = "peripheral";`: true} {
		bus := `usb@f400000 { compatible = "cdns,usb3"; reg = <0 0xf400000 0 0x10000>; ` + mode + ` };`
		f, ok := classes(Board(tree(t, armada(ram8G, "", bus)), "board.dts", cat), node)[Bounce]
		if ok != want {
			t.Errorf("%q: bounce finding %v (%+v), want %v", mode, ok, f, want)
		}
	}
}
