package draft_test

import (
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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

// TestBridgeDMARanges imports bridges whose nodes carry their own
// dma-ranges: each window is drafted as bridge.dmaRanges with its flags
// cell, and the draft builds with the
// windows lowered as the tree has them. The fragment it builds, included
// at the end of the tree, changes nothing: the dtb is byte-identical.
func TestBridgeDMARanges(t *testing.T) {
	files := importDTS(t, "bridge-ranges.dts")
	dts, err := os.ReadFile(filepath.Join("testdata", "bridge-ranges.dts"))
	if err != nil {
		t.Fatal(err)
	}
	var soc string
	for _, f := range files {
		if strings.HasPrefix(f.Path, "soc/") {
			soc = string(f.Data)
		}
	}
	for _, want := range []string{
		"\t\t\t\tdmaRanges: [\n\t\t\t\t\t{flags: 0x42000000, child: 0x0, parent: 0x0, size: 0x100000000},\n\t\t\t\t\t{flags: 0x43000000, child: 0x800000000, parent: 0x800000000, size: 0x80000000},\n\t\t\t\t]",
		"\t\t\t\tdmaRanges: [\n\t\t\t\t\t{flags: 0x2000000, child: 0x80000000, parent: 0x0, size: 0x40000000},\n\t\t\t\t]",
	} {
		if !strings.Contains(soc, want) {
			t.Errorf("the SoC draft lacks %q:\n%s", want, soc)
		}
	}
	if n := strings.Count(soc, "dmaRanges: ["); n != 2 {
		t.Errorf("%d bridges drafted with dmaRanges, want 2:\n%s", n, soc)
	}

	r := compileDraft(t, files, "bridge-ranges", "")
	if r.Diagnostics.HasErrors() {
		var b strings.Builder
		_ = r.Diagnostics.WriteText(&b)
		t.Fatalf("the draft does not build:\n%s", b.String())
	}
	got := map[string][]ir.DMARange{}
	for _, m := range r.Board.SoC.Masters {
		if m.IsBridge() && m.Bridge.HasDMARanges() {
			for _, w := range m.Bridge.DMARanges {
				got[m.Key] = append(got[m.Key], ir.DMARange{Flags: w.Flags, Child: w.Child, Parent: w.Parent, Size: w.Size})
			}
		}
	}
	want := map[string][]ir.DMARange{
		"pcie0": {{Flags: 0x4200_0000, Size: 1 << 32}, {Flags: 0x4300_0000, Child: 8 << 32, Parent: 8 << 32, Size: 0x8000_0000}},
		"pcie1": {{Flags: 0x0200_0000, Child: 0x8000_0000, Size: 0x4000_0000}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lowered bridge.dmaRanges (-want +got):\n%s", diff)
	}

	var frag []byte
	for _, f := range r.Files {
		if strings.HasSuffix(f.Path, ".dtsi") {
			frag = f.Data
		}
	}
	if !strings.Contains(string(frag), "&pcie1 {\n\tdma-ranges = <0x2000000 0x0 0x80000000 0x0 0x0 0x40000000>;") {
		t.Errorf("the fragment does not write pcie1's window in a one-cell parent address:\n%s", frag)
	}
	if a, b := dtb(t, string(dts)), dtb(t, string(dts)+"\n"+string(frag)); !bytes.Equal(a, b) {
		t.Errorf("the tree with the fragment differs from the tree:\n%s", frag)
	}
}

// dtb compiles src with dtc and fails on any warning.
func dtb(t *testing.T, src string) []byte {
	t.Helper()
	f := filepath.Join(t.TempDir(), "b.dts")
	write(t, f, []byte(src))
	cmd := exec.Command("dtc", "-I", "dts", "-O", "dtb", "-o", "-", f)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("dtc: %v\n%s", err, stderr.String())
	}
	return out
}

// TestBridgeDMARangesNotImported: an empty dma-ranges on a bridge's node,
// or one not in the PCI bus binding's cells, is not drafted as
// bridge.dmaRanges (the schema takes one window at least, and the
// fragment writes the binding's cells); each is said in a comment, and
// the draft builds.
func TestBridgeDMARangesNotImported(t *testing.T) {
	files := importDTS(t, "bridge-odd.dts")
	var soc string
	for _, f := range files {
		if strings.HasPrefix(f.Path, "soc/") {
			soc = string(f.Data)
		}
	}
	if strings.Contains(soc, "dmaRanges: [") {
		t.Errorf("a bridge's dma-ranges is drafted:\n%s", soc)
	}
	for _, want := range []string{
		"// Upstream's dma-ranges on the bridge's node is empty",
		"// TODO bridge.dmaRanges: upstream's dma-ranges on the bridge's node is\n",
	} {
		if !strings.Contains(soc, want) {
			t.Errorf("the SoC draft lacks %q:\n%s", want, soc)
		}
	}
	if r := compileDraft(t, files, "bridge-odd", ""); r.Diagnostics.HasErrors() {
		var b strings.Builder
		_ = r.Diagnostics.WriteText(&b)
		t.Fatalf("the draft does not build:\n%s", b.String())
	}
}
