package draft_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/check"
	"boardc.dev/boardc/compiler/draft"
	"boardc.dev/boardc/compiler/kernel"
	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/internal/golden"
	"boardc.dev/boardc/internal/testtool"
	"boardc.dev/boardc/outputs"
)

// testCatalog has a driver per DMA behaviour for testdata/kernel.dts.
const testCatalog = `{"series": "6.12", "kernel": "6.12.57",
 "source": {"tarball": "linux-source-6.12.tar.xz", "sha256": "00", "extractor": 1},
 "drivers": [
  {"name": "eip", "bus": "platform", "site": {"file": "drivers/crypto/eip.c", "line": 900},
   "probe": {"file": "drivers/crypto/eip.c", "line": 800, "func": "eip_probe"},
   "compatibles": ["vendor,eip"],
   "dma": {"kind": "fixed", "widths": [64], "sets": [{"call": "dma_set_mask_and_coherent", "arg": "DMA_BIT_MASK(64)", "width": 64,
     "site": {"file": "drivers/crypto/eip.c", "line": 820, "func": "eip_probe"}}]},
   "irqs": [{"name": "dev_name(&pdev->dev)", "kind": "dev_name", "site": {"file": "drivers/crypto/eip.c", "line": 830, "func": "eip_probe"}}]},
  {"name": "ahci", "bus": "platform", "site": {"file": "drivers/ata/ahci_platform.c", "line": 90},
   "probe": {"file": "drivers/ata/ahci_platform.c", "line": 40, "func": "ahci_probe"},
   "compatibles": ["generic-ahci"],
   "dma": {"kind": "choice", "widths": [32, 64], "reason": "64 when the controller reports HOST_CAP_64",
     "sets": [{"call": "dma_coerce_mask_and_coherent", "arg": "DMA_BIT_MASK(64)", "width": 64, "cond": "hpriv->cap & HOST_CAP_64",
       "site": {"file": "drivers/ata/libahci_platform.c", "line": 650, "func": "ahci_platform_init_host"}}]},
   "irqs": [{"name": "%s", "kind": "format", "site": {"file": "drivers/ata/libahci_platform.c", "line": 700, "func": "ahci_platform_init_host"}}]},
  {"name": "vendor-eth", "bus": "platform", "site": {"file": "drivers/net/eth.c", "line": 90},
   "probe": {"file": "drivers/net/eth.c", "line": 40, "func": "eth_probe"},
   "compatibles": ["vendor,eth"], "dma": {"kind": "none"},
   "irqs": [{"name": "vendor-eth", "kind": "literal", "site": {"file": "drivers/net/eth.c", "line": 55, "func": "eth_probe"}}]},
  {"name": "vusb", "bus": "platform", "site": {"file": "drivers/usb/vusb.c", "line": 90},
   "probe": {"file": "drivers/usb/vusb.c", "line": 40, "func": "vusb_probe"},
   "compatibles": ["vendor,usb", "vendor,usb2"],
   "dma": {"kind": "match-data", "widths": [32, 36], "perCompatible": {"vendor,usb": 36, "vendor,usb2": 32},
     "sets": [{"call": "dma_set_mask_and_coherent", "arg": "DMA_BIT_MASK(data->dma_bits)",
       "site": {"file": "drivers/usb/vusb.c", "line": 60, "func": "vusb_probe"}}]},
   "irqs": [{"name": "vusb", "kind": "literal", "site": {"file": "drivers/usb/vusb.c", "line": 65, "func": "vusb_probe"}}]},
  {"name": "arm-smmu", "bus": "platform", "site": {"file": "drivers/iommu/arm/arm-smmu/arm-smmu.c", "line": 2300},
   "probe": {"file": "drivers/iommu/arm/arm-smmu/arm-smmu.c", "line": 2100, "func": "arm_smmu_device_probe"},
   "compatibles": ["arm,mmu-500"],
   "dma": {"kind": "runtime", "reason": "size from ID2.OAS",
     "sets": [{"call": "dma_set_mask_and_coherent", "arg": "DMA_BIT_MASK(size)",
       "site": {"file": "drivers/iommu/arm/arm-smmu/arm-smmu.c", "line": 1900, "func": "arm_smmu_device_cfg_probe"}, "via": ["arm_smmu_device_cfg_probe"]}]}},
  {"name": "vmmc", "bus": "platform", "site": {"file": "drivers/mmc/host/vmmc.c", "line": 90},
   "probe": {"file": "drivers/mmc/host/vmmc.c", "line": 40, "func": "vmmc_probe"},
   "compatibles": ["vendor,mmc"], "dma": {"kind": "unknown", "reason": "the mask comes from an ops table"}},
  {"name": "fsl_mc_bus", "bus": "platform", "site": {"file": "drivers/bus/fsl-mc/fsl-mc-bus.c", "line": 1200},
   "probe": {"file": "drivers/bus/fsl-mc/fsl-mc-bus.c", "line": 1000, "func": "fsl_mc_bus_probe"},
   "compatibles": ["fsl,qoriq-mc"], "bridge": "fsl-mc",
   "dma": {"kind": "children", "widths": [64], "sets": [{"call": "dma_set_mask_and_coherent", "arg": "FSL_MC_DEFAULT_DMA_MASK", "width": 64,
     "site": {"file": "drivers/bus/fsl-mc/fsl-mc-bus.c", "line": 820, "func": "fsl_mc_device_add"}}]}},
  {"name": "vusbhs", "bus": "platform", "site": {"file": "drivers/usb/vusbhs.c", "line": 90},
   "probe": {"file": "drivers/usb/vusbhs.c", "line": 40, "func": "vusbhs_probe"},
   "compatibles": ["vendor,usbhs"],
   "dma": {"kind": "children", "widths": [32], "sets": [{"call": "dma_set_mask_and_coherent", "arg": "DMA_BIT_MASK(32)", "width": 32,
     "site": {"file": "drivers/usb/vusbhs.c", "line": 70, "func": "vusbhs_add_child"}}]}}
 ]}`

func testKernel(t *testing.T) *kernel.Catalog {
	t.Helper()
	c, err := kernel.Decode(strings.NewReader(testCatalog))
	if err != nil {
		t.Fatal(err)
	}
	c.Lookup(nil)
	return c
}

// kernelDraft imports testdata/kernel.dts filled from the test catalogue.
func kernelDraft(t *testing.T) []outputs.File {
	t.Helper()
	testtool.Look(t, "dtc", "device-tree-compiler")
	out, err := exec.Command("dtc", "-q", "-I", "dts", "-O", "dtb", "-@", "-o", "-", filepath.Join("testdata", "kernel.dts")).Output()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := basetree.Read(out, "kernel.dts")
	if err != nil {
		t.Fatal(err)
	}
	src := "arch/arm64/boot/dts/vendor/kb.dts"
	d, err := draft.Generate(tree, draft.Options{Source: src, DTS: src, Module: "boardc.dev/boards", Kernel: testKernel(t)})
	if err != nil {
		t.Fatal(err)
	}
	var files []outputs.File
	for _, f := range d.Files {
		formatted, err := load.Format(f.Data)
		if err != nil {
			t.Fatalf("%s: %v\n%s", f.Path, err, f.Data)
		}
		files = append(files, outputs.File{Path: f.Path, Data: formatted})
	}
	return files
}

// TestKernelGolden compares the draft filled from the test catalogue
// with the committed one (testdata/kernel): each behaviour gives its
// dma, driverSets, driver and irqs, or the TODO saying what the
// catalogue does not know.
func TestKernelGolden(t *testing.T) {
	files := kernelDraft(t)
	again := kernelDraft(t)
	for i, f := range files {
		if !bytes.Equal(f.Data, again[i].Data) {
			t.Errorf("%s differs between two imports of the same tree", f.Path)
		}
	}
	golden.Check(t, "testdata/kernel", files)
	soc := string(files[0].Data)
	for _, want := range []string{
		// fixed: the width, and the call as driverSets' source.
		"dma: streaming: 64\n\t\t\tdriverSets: {\n\t\t\t\tsource: \"drivers/crypto/eip.c:820 eip_probe(): dma_set_mask_and_coherent(DMA_BIT_MASK(64))\"",
		// dev_name through the bus's ranges: 0xd0000000 + 0x90000.
		`irqs: {crypto: "d0090000.crypto"}`,
		// choice: the widest, and the widths.
		"widths: [32, 64]",
		// none: the OF default narrowed by the bus's dma-ranges.
		"dma: streaming: 30",
		`irqs: {vendor_eth: "vendor-eth"}`,
		// match-data: the matched compatible's width.
		"dma: streaming: 36",
		// children: the width it gives the devices it creates.
		"dma: streaming: 32\n\t\t\tdriverSets: {\n\t\t\t\tsource:   \"drivers/usb/vusbhs.c:70 vusbhs_add_child(): dma_set_mask_and_coherent(DMA_BIT_MASK(32))\"\n\t\t\t\tchildren: true",
		// children, of the fsl-mc bus: its bridge kind.
		`bridge: {kind: "fsl-mc", source: "drivers/bus/fsl-mc/fsl-mc-bus.c:820 fsl_mc_device_add(): dma_set_mask_and_coherent(FSL_MC_DEFAULT_DMA_MASK)"}`,
		"// TODO dma: Linux 6.12's catalogue cannot tell what vmmc does with the\n",
		"// TODO dma: Linux 6.12: arm-smmu sets a width it computes at probe,",
		"Linux 6.12 (6.12.57): no driver lists its compatibles.",
		// dev_name where a bus has no ranges: the kernel's name is not
		// <address>.<name> there.
		"// TODO irqs: Linux 6.12: eip requests its one IRQ as dev_name\n",
	} {
		if !strings.Contains(soc, want) {
			t.Errorf("the SoC draft has no %q", want)
		}
	}
	if !strings.Contains(string(files[1].Data), "kernel: \"6.12\"\n") {
		t.Errorf("the board draft names no kernel:\n%s", files[1].Data)
	}
}

// TestKernelVet vets the filled draft against the same catalogue: it
// lists the widths the catalogue cannot give (runtime, unknown, a
// compatible no driver lists) and no driver check finds the draft at
// odds with the catalogue (testdata/kernel.vet).
func TestKernelVet(t *testing.T) {
	td := testdataDir(t)
	files := kernelDraft(t)
	mod := t.TempDir()
	write(t, filepath.Join(mod, "cue.mod", "module.cue"), []byte("module: \"boardc.dev/boards@v0\"\nlanguage: version: \"v0.17.0\"\n"))
	for _, f := range files {
		write(t, filepath.Join(mod, f.Path), f.Data)
	}
	t.Setenv("CUE_REGISTRY", "none")
	t.Chdir(mod)
	cats := check.Fixed(testKernel(t))
	r, err := boardc.Compile("kb", boardc.Options{Kernel: &cats})
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	if err := r.Diagnostics.WriteText(&got); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got.String(), "[BC07") {
		t.Errorf("a driver check finds the filled draft at odds with its own catalogue:\n%s", got.String())
	}
	want, err := os.ReadFile(filepath.Join(td, "kernel.vet"))
	if golden.Update() {
		write(t, filepath.Join(td, "kernel.vet"), []byte(got.String()))
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("vet on the draft (-want +got):\n%s", diff)
	}
	// With 32 bits where the catalogue gives no width, as a default
	// (the corpus's filler), the draft builds and the driver checks
	// find nothing.
	write(t, filepath.Join(mod, "kb", "fill.cue"), []byte("package kb\n\nsoc: masters: [_]: M={if M.bridge == _|_ {dma: streaming: *32 | int}}\n"))
	r, err = boardc.Compile("kb", boardc.Options{Kernel: &cats})
	if err != nil {
		t.Fatal(err)
	}
	got.Reset()
	_ = r.Diagnostics.WriteText(&got)
	if r.Diagnostics.HasErrors() || strings.Contains(got.String(), "[BC07") || r.Board == nil {
		t.Fatalf("the filled draft:\n%s", got.String())
	}
	widths := map[string]int{}
	for _, m := range r.Board.SoC.Masters {
		widths[m.Key] = m.DMABits
	}
	if want := map[string]int{"crypto_4000": 64, "crypto_90000": 64, "dma_controller_20000": 32, "ethernet_30000": 30, "fsl_mc_80000": 64,
		"iommu_500000": 32, "mmc_10000": 32, "sata_a0000": 64, "usb_58000": 36, "usb_c0000": 32}; !cmp.Equal(widths, want) {
		t.Errorf("widths (-want +got):\n%s", cmp.Diff(want, widths))
	}
}
