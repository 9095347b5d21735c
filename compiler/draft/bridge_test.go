package draft_test

import (
	"maps"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/ir"
)

// TestBridge imports a tree with a coherent and a non-coherent PCIe host
// bridge: both are drafted as bridges, with no dma to fill in, and
// nothing below them is a master. The draft with a width for every other
// master builds: no bridge needs one, and the coherent bridge's
// dma-coherent is carried as a fact of its own.
func TestBridge(t *testing.T) {
	files := importDTS(t, "bridge.dts")
	var soc string
	for _, f := range files {
		if strings.HasPrefix(f.Path, "soc/") {
			soc = string(f.Data)
		}
	}
	for _, want := range []string{
		`bridge: {kind: "pcie", source: "arch/arm64/boot/dts/vendor/bridge.dts: /soc/pcie@40000000, device_type = \"pci\"; pci_dma_configure(), drivers/pci/pci-driver.c, configures its endpoints from this node"}`,
		`bridge: {kind: "pcie", source: "arch/arm64/boot/dts/vendor/bridge.dts: /soc/pcie@50000000, device_type = \"pci\"; pci_dma_configure(), drivers/pci/pci-driver.c, configures its endpoints from this node"}`,
		"PCIe host bridges, drafted as bridges (bridge): /soc/pcie@40000000,",
		"/soc/pcie@50000000 (a PCIe",
	} {
		if !strings.Contains(soc, want) {
			t.Errorf("the SoC draft lacks %s:\n%s", want, soc)
		}
	}
	if strings.Contains(soc, "ethernet") {
		t.Errorf("the endpoint below pcie1 is drafted:\n%s", soc)
	}

	// Unfilled, only the DMA engine lacks a width.
	r := compileDraft(t, files, "bridge", "")
	var missing []string
	for _, d := range r.Diagnostics {
		if d.Code == "BC0004" && strings.Contains(d.Message, ".dma:") {
			missing = append(missing, d.Message)
		}
	}
	if len(missing) != 1 || !strings.Contains(missing[0], "soc.masters.dma0.dma") {
		t.Errorf("missing widths %q, want dma0's alone", missing)
	}

	r = compileDraft(t, files, "bridge", "package bridge\n\nsoc: masters: dma0: dma: streaming: 32\n")
	if r.Diagnostics.HasErrors() {
		var b strings.Builder
		_ = r.Diagnostics.WriteText(&b)
		t.Fatalf("the filled draft does not build:\n%s", b.String())
	}
	got := map[string]bool{}
	for _, m := range r.Board.SoC.Masters {
		if m.IsBridge() {
			if m.Bridge.Kind != ir.BridgePCIe || m.DMABits != 0 {
				t.Errorf("master %s: bridge %+v, %d DMA bits", m.Key, m.Bridge, m.DMABits)
			}
			got[m.Key] = m.Coherent()
		}
	}
	if want := map[string]bool{"pcie0": true, "pcie1": false}; !maps.Equal(got, want) {
		t.Errorf("bridges and their coherency %v, want %v", got, want)
	}
}
