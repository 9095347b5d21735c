package boardc_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/check"
	"boardc.dev/boardc/compiler/kernel"
)

// kernelBoard is a board with a master whose driver, in the catalogue
// below, chooses 32 or 64 bits; kernelBoard's KERNEL line names the
// kernel, and its WIDTH the described width.
const kernelBoard = `package board

name: "kernel-board"
compatible: ["vendor,tiny-board", "vendor,tiny-soc"]
KERNEL
soc: {
	name: "tiny-soc"
	compatible: ["vendor,tiny-soc"]
	root: {"#address-cells": 1, "#size-cells": 1}
	cpus: clusters: [{core: "arm,cortex-a53", cpus: [0, 1]}]
	buses: soc: {
		node: path:       "/soc"
		"#address-cells": 1
		"#size-cells":    1
		coherency: {coherent: false, source: "vendor datasheet 4.2"}
	}
	masters: sata: {
		node: {label: "sata", path: "/soc/sata@1000"}
		compatible: ["vendor,ahci", "generic-ahci"]
		bus: "soc"
		dma: streaming: WIDTH
		driverSets: source: "drivers/ata/libahci_platform.c ahci_platform_init_host()"
		irqs: {}
	}
}
memory: [{base: 0, size: 0x4000_0000}]
policy: {irqs: [], net: {}, sysctls: {}, isolatedCPUs: []}
waivers: []
`

const kernelCatalog = `{"series": "SERIES", "kernel": "SERIES.9",
 "source": {"tarball": "linux-source-SERIES.tar.xz", "sha256": "00", "extractor": 1},
 "drivers": [
  {"name": "ahci", "bus": "platform", "site": {"file": "drivers/ata/ahci_platform.c", "line": 90},
   "probe": {"file": "drivers/ata/ahci_platform.c", "line": 40, "func": "ahci_probe"},
   "compatibles": ["generic-ahci"],
   "dma": {"kind": "choice", "widths": [32, 64],
     "sets": [{"call": "dma_coerce_mask_and_coherent", "arg": "DMA_BIT_MASK(64)", "width": 64,
       "site": {"file": "drivers/ata/libahci_platform.c", "line": 650, "func": "ahci_platform_init_host"}}]}}
 ]}`

// compileKernelBoard compiles kernelBoard with kernel line k and width w
// against catalogues of series 6.1 and 6.12.
func compileKernelBoard(t *testing.T, k, w string) *boardc.Result {
	t.Helper()
	var cs []*kernel.Catalog
	for _, s := range []string{"6.1", "6.12"} {
		c, err := kernel.Decode(strings.NewReader(strings.ReplaceAll(kernelCatalog, "SERIES", s)))
		if err != nil {
			t.Fatal(err)
		}
		c.Lookup(nil)
		cs = append(cs, c)
	}
	cats := check.Fixed(cs...)
	dir := t.TempDir()
	files := map[string]string{
		"cue.mod/module.cue": "module: \"cases.example/kernel@v0\"\nlanguage: version: \"v0.17.0\"\n",
		"board.cue":          strings.NewReplacer("KERNEL", k, "WIDTH", w).Replace(kernelBoard),
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("CUE_REGISTRY", "none")
	t.Chdir(dir)
	r, err := boardc.Compile(".", boardc.Options{Kernel: &cats})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// diagText prints a result's diagnostics as vet does.
func diagText(t *testing.T, r *boardc.Result) string {
	t.Helper()
	var b strings.Builder
	if err := r.Diagnostics.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A board's kernel selects its catalogue; none selects the newest, and a
// series with none is a BC0700 warning at kernel naming the series
// there are, the driver checks then not running.
func TestKernelCatalogue(t *testing.T) {
	for _, c := range []struct{ name, kernel, width, series, want string }{
		{"default, clean", "", "64", "6.12", ""},
		{"6.1, 48 bits", `kernel: "6.1"`, "48", "6.1",
			"board.cue:21:19: warning: master sata is described with a 48-bit streaming DMA mask, but its driver ahci sets 32 or 64 " +
				"(kernel 6.1, drivers/ata/libahci_platform.c:650 ahci_platform_init_host(): dma_coerce_mask_and_coherent(DMA_BIT_MASK(64))) [BC0701]\n" +
				"    note: kernel 6.1 (6.1.9): ahci binds \"generic-ahci\", probe drivers/ata/ahci_platform.c:40 ahci_probe()\n" +
				"    note: kernel 6.1: drivers/ata/libahci_platform.c:650 ahci_platform_init_host(): dma_coerce_mask_and_coherent(DMA_BIT_MASK(64))\n"},
		{"unknown series", `kernel: "5.4"`, "48", "",
			"board.cue:5:9: warning: kernel 5.4: boardc has no driver-facts catalogue for it (boardc has 6.1, 6.12); the driver checks do not run [BC0700]\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := compileKernelBoard(t, c.kernel, c.width)
			if got := diagText(t, r); got != c.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, c.want)
			}
			series := ""
			if r.Kernel != nil {
				series = r.Kernel.Series
			}
			if series != c.series {
				t.Errorf("checked against kernel %q, want %q", series, c.series)
			}
			ran := false
			for _, code := range r.Checks {
				ran = ran || code.ID == "BC0701"
			}
			if ran != (c.series != "") {
				t.Errorf("BC0701 ran: %v", ran)
			}
		})
	}
}
