package audit

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/kernel"
	"boardc.dev/boardc/internal/testtool"
)

// tree compiles a hand-written .dts, named board.dts in the positions.
func tree(t *testing.T, src string) *basetree.Tree {
	t.Helper()
	testtool.Look(t, "cpp", "cpp")
	testtool.Look(t, "dtc", "device-tree-compiler")
	dir := t.TempDir()
	p := filepath.Join(dir, "board.dts")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	tr, err := basetree.Compile{DTS: "board.dts", Annotate: true}.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// catalog is a driver-facts catalogue of three drivers: a crypto engine
// that sets 64 bits, a network driver that sets none, and a USB host that
// sets 32.
func catalog() *kernel.Catalog {
	site := func(f string, l int, fn string) kernel.Site { return kernel.Site{File: f, Line: l, Func: fn} }
	return &kernel.Catalog{Series: "6.12", Drivers: []kernel.Driver{
		{Name: "crypto-safexcel", Bus: "platform", Site: site("drivers/crypto/inside-secure/safexcel.c", 2000, ""), Probe: site("drivers/crypto/inside-secure/safexcel.c", 1733, "safexcel_probe"),
			Compatibles: []string{"inside-secure,safexcel-eip97ies"},
			DMA:         kernel.DMA{Kind: kernel.DMAFixed, Widths: []int{64}, Sets: []kernel.MaskSet{{Call: "dma_set_mask_and_coherent", Arg: "DMA_BIT_MASK(64)", Width: 64, Site: site("drivers/crypto/inside-secure/safexcel.c", 1782, "safexcel_probe")}}}},
		{Name: "mvneta", Bus: "platform", Site: site("drivers/net/ethernet/marvell/mvneta.c", 5900, ""), Probe: site("drivers/net/ethernet/marvell/mvneta.c", 5455, "mvneta_probe"),
			Compatibles: []string{"marvell,armada-3700-neta"}, DMA: kernel.DMA{Kind: kernel.DMANone}},
		{Name: "ohci-platform", Bus: "platform", Site: site("drivers/usb/host/ohci-platform.c", 300, ""), Probe: site("drivers/usb/host/ohci-platform.c", 90, "ohci_platform_probe"),
			Compatibles: []string{"generic-ohci"},
			DMA:         kernel.DMA{Kind: kernel.DMAFixed, Widths: []int{32}, Sets: []kernel.MaskSet{{Call: "dma_coerce_mask_and_coherent", Arg: "DMA_BIT_MASK(32)", Width: 32, Site: site("drivers/usb/host/ohci-platform.c", 120, "ohci_platform_probe")}}}},
	}}
}

// armada is a board of the armada-37xx family: the EIP97 at line 13, a
// network port, an OHCI controller; memory and extra properties come
// from the arguments.
func armada(memory, crypto, bus string) string {
	return `/dts-v1/;
/ {
	compatible = "test,board", "marvell,armada3720";
	#address-cells = <2>;
	#size-cells = <2>;
` + memory + `
	soc {
		compatible = "simple-bus";
		#address-cells = <2>;
		#size-cells = <2>;
		ranges;
` + bus + `
		crypto: crypto@90000 {
			compatible = "marvell,armada-3700-crypto", "inside-secure,safexcel-eip97ies";
			reg = <0 0x90000 0 0x20000>;
` + crypto + `
		};
		eth0: ethernet@30000 {
			compatible = "marvell,armada-3700-neta";
			reg = <0 0x30000 0 0x4000>;
		};
		usb@58000 {
			compatible = "generic-ohci";
			reg = <0 0x58000 0 0x1000>;
		};
	};
};
`
}

const ram1G = "\tmemory@0 { device_type = \"memory\"; reg = <0 0 0 0x40000000>; };"

// classes returns the findings of r on path, by class.
func classes(r BoardResult, path string) map[Class]Finding {
	out := map[Class]Finding{}
	for _, f := range r.Findings {
		if f.Path == path {
			out[f.Class] = f
		}
	}
	return out
}

func TestCoherency(t *testing.T) {
	const crypto = "/soc/crypto@90000"
	r := Board(tree(t, armada(ram1G, "", "")), "board.dts", catalog())
	f, ok := classes(r, crypto)[Coherency]
	if !ok {
		t.Fatalf("no coherency finding on %s: %+v", crypto, r.Findings)
	}
	if f.Severity != Error || f.Source != "board.dts:14" || f.Label != "crypto" || r.Family != "armada-37xx" {
		t.Errorf("finding = %+v, family %q; want an error at board.dts:14 on &crypto, family armada-37xx", f, r.Family)
	}
	if !strings.Contains(f.Suggest, "add `dma-coherent;` to &crypto in board.dts") {
		t.Errorf("suggest = %q", f.Suggest)
	}
	if len(f.Evidence) != 3 || f.Evidence[2].Kind != "soc" || !strings.Contains(f.Evidence[2].Source, "5dd98e0389545b302b0c46cef2264b5b09c01677") {
		t.Errorf("evidence = %+v, want the DT line, the interconnect fact and the verified master's source", f.Evidence)
	}
	// The network port sits on the same interconnect, but no source
	// verifies its coherency.
	if _, ok := classes(r, "/soc/ethernet@30000")[Coherency]; ok {
		t.Errorf("a coherency finding on the unverified network port")
	}

	for name, src := range map[string]string{
		"dma-coherent":           armada(ram1G, "dma-coherent;", ""),
		"dma-coherent on a bus":  armada(ram1G, "", "dma-coherent;"),
		"dma-noncoherent stated": armada(ram1G, "dma-noncoherent;", ""),
		"disabled":               armada(ram1G, `status = "disabled";`, ""),
		"on a disabled bus":      armada(ram1G, "", `status = "disabled";`),
		"another family":         strings.Replace(armada(ram1G, "", ""), "marvell,armada3720", "acme,soc", 1),
	} {
		r := Board(tree(t, src), "board.dts", catalog())
		if f, ok := classes(r, crypto)[Coherency]; ok {
			t.Errorf("%s: a coherency finding: %+v", name, f)
		}
	}
}

func TestNonCoherentBus(t *testing.T) {
	saved := Families
	defer func() { Families = saved }()
	Families = []Family{{Name: "acme", SoCs: []string{"acme,soc"}, Interconnect: NotCoherent, Source: "acme reference manual 3.2"}}
	src := strings.Replace(armada(ram1G, "dma-coherent;", ""), "marvell,armada3720", "acme,soc", 1)
	f, ok := classes(Board(tree(t, src), "board.dts", catalog()), "/soc/crypto@90000")[NonCoherentBus]
	if !ok || f.Severity != Error || f.Evidence[0].Source != "board.dts:16" {
		t.Fatalf("finding = %+v (found %v), want an error citing dma-coherent at board.dts:16", f, ok)
	}
	src = strings.Replace(armada(ram1G, "", ""), "marvell,armada3720", "acme,soc", 1)
	if f, ok := classes(Board(tree(t, src), "board.dts", catalog()), "/soc/crypto@90000")[NonCoherentBus]; ok {
		t.Errorf("a finding without dma-coherent: %+v", f)
	}
}
