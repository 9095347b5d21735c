package audit

import (
	"strings"
	"testing"
)

func TestRanges(t *testing.T) {
	for _, c := range []struct {
		name, bus, want string
	}{
		{"clean", "dma-ranges = <0 0 0 0 0x1 0>;", ""},
		{"not whole triplets", "dma-ranges = <0 0 0 0 0x1>;", "dma-ranges on /soc is 5 cells, not a whole number of (child, parent, size) triplets of #address-cells 2, parent #address-cells 2, #size-cells 2"},
		{"overlap", "dma-ranges = <0 0 0 0 0x1 0>, <0 0x80000000 0x1 0 0 0x1000>;", "dma-ranges on /soc has overlapping windows: bus addresses 0x0+0x100000000 and 0x80000000+0x1000"},
	} {
		r := Board(tree(t, armada(ram1G, "", c.bus)), "board.dts", catalog())
		f, ok := classes(r, "/soc")[Ranges]
		switch {
		case c.want == "" && ok:
			t.Errorf("%s: a finding: %+v", c.name, f)
		case c.want != "" && !ok:
			t.Errorf("%s: no finding: %+v", c.name, r.Findings)
		case ok && (f.Message != c.want || f.Source != "board.dts:12"):
			t.Errorf("%s: %s at %s\nwant %s at board.dts:12", c.name, f.Message, f.Source, c.want)
		}
	}
	// A PCI child address is three cells: seven in all.
	pci := `pcie@1000 { device_type = "pci"; reg = <0 0x1000 0 0x1000>; #address-cells = <3>; #size-cells = <2>;
		dma-ranges = <0x02000000 0 0 0 0 0x1 0>; };`
	if f, ok := classes(Board(tree(t, armada(ram1G, "", pci)), "board.dts", catalog()), "/soc/pcie@1000")[Ranges]; ok {
		t.Errorf("pci: a finding: %+v", f)
	}
	bad := strings.Replace(pci, "0x1 0>", "0x1>", 1)
	if _, ok := classes(Board(tree(t, armada(ram1G, "", bad)), "board.dts", catalog()), "/soc/pcie@1000")[Ranges]; !ok {
		t.Errorf("pci with 6 cells: no finding")
	}
	// A malformed dma-ranges is reported once, as Ranges, not as Bounce.
	r := Board(tree(t, armada(ram8G, "", "dma-ranges = <0 0 0 0 0x1>;")), "board.dts", catalog())
	for _, f := range r.Findings {
		if strings.HasPrefix(string(f.Class), "bounce") && f.Path == cryptoNd {
			t.Errorf("a bounce finding under a malformed dma-ranges: %+v", f)
		}
	}
}

func TestSibling(t *testing.T) {
	m := func(path string, coherent, own bool) Master {
		return Master{Path: path, Compatible: []string{"snps,dwc3"}, Driver: "dwc3 drivers/usb/dwc3/core.c", Coherent: coherent, Own: own, Enabled: true, CoherentAt: "fsl-ls1088a.dtsi:500"}
	}
	esdhc := func(coherent bool) Master {
		return Master{Path: "/soc/mmc@2140000", Driver: "sdhci-esdhc drivers/mmc/host/sdhci-of-esdhc.c", Coherent: coherent, Own: coherent, Enabled: true, CoherentAt: "fsl-lx2160a.dtsi:943"}
	}
	rs := []BoardResult{
		{Board: "a.dts", Family: "layerscape", SoC: "fsl,ls1088a", Masters: []Master{m("/soc/usb@3100000", true, true)}},
		{Board: "b.dts", Family: "layerscape", SoC: "fsl,ls2088a", Masters: []Master{m("/soc/usb@3100000", false, false)}},
		// The same SoC: no sibling.
		{Board: "c.dts", Family: "layerscape", SoC: "fsl,ls1088a", Masters: []Master{m("/soc/usb@3100000", false, false)}},
		// Coherent by a flag on its bus only: no evidence for a sibling.
		{Board: "d.dts", Family: "layerscape", SoC: "fsl,ls1046a", Masters: []Master{{Path: "/soc/mmc@1", Driver: "esdhc x.c", Coherent: true, Enabled: true}}},
		{Board: "e.dts", Family: "layerscape", SoC: "fsl,ls1028a", Masters: []Master{{Path: "/soc/mmc@1", Driver: "esdhc x.c", Enabled: true}}},
		// A SoC of the family with no interconnect fact of its own: the
		// finding would claim what no source says.
		{Board: "f.dts", Family: "layerscape", SoC: "fsl,ls9999a", Masters: []Master{m("/soc/usb@3100000", false, false)}},
		// A driver read to snoop only with dma-coherent: its fact joins
		// the evidence.
		{Board: "g.dts", Family: "layerscape", SoC: "fsl,lx2160a", Masters: []Master{esdhc(true)}},
		{Board: "h.dts", Family: "layerscape", SoC: "fsl,ls1028a", Masters: []Master{esdhc(false)}},
	}
	fs := Finish(rs)
	if len(fs) != 2 {
		t.Fatalf("findings = %+v, want one on b.dts and one on h.dts", fs)
	}
	kinds := func(f Finding) string {
		var k []string
		for _, e := range f.Evidence {
			k = append(k, e.Kind)
		}
		return strings.Join(k, " ")
	}
	f := fs[0]
	if f.Class != Sibling || f.Board != "b.dts" || f.Severity != Note || kinds(f) != "dt soc sibling" ||
		f.Evidence[1].Source != familyNamed("layerscape").PerSoC["fsl,ls2088a"] || f.Evidence[2].Source != "fsl-ls1088a.dtsi:500" {
		t.Errorf("finding = %+v", f)
	}
	f = fs[1]
	if f.Board != "h.dts" || kinds(f) != "dt soc sibling driver" || !strings.Contains(f.Evidence[3].Source, "sdhci-of-esdhc.c:545-548") {
		t.Errorf("finding = %+v", f)
	}
}
