package explain

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/check"
	"boardc.dev/boardc/compiler/kernel"
)

const testCatalog = `{"series": "6.12", "kernel": "6.12.57",
 "source": {"tarball": "linux-source-6.12.tar.xz", "sha256": "00", "extractor": 1},
 "drivers": [
  {"name": "crypto-safexcel", "bus": "platform", "site": {"file": "drivers/crypto/inside-secure/safexcel.c", "line": 1900},
   "probe": {"file": "drivers/crypto/inside-secure/safexcel.c", "line": 1700, "func": "safexcel_probe"},
   "compatibles": ["inside-secure,safexcel-eip97ies", "marvell,armada-3700-crypto"],
   "dma": {"kind": "fixed", "widths": [64], "sets": [{"call": "dma_set_mask_and_coherent", "arg": "DMA_BIT_MASK(64)", "width": 64,
     "site": {"file": "drivers/crypto/inside-secure/safexcel.c", "line": 1720, "func": "safexcel_probe"}}]},
   "irqs": [{"name": "dev_name(priv->dev)", "kind": "dev_name", "site": {"file": "drivers/crypto/inside-secure/safexcel.c", "line": 1600, "func": "safexcel_request_ring_irq"}}]}
 ]}`

// explainWith compiles an in-tree board against the test catalogue.
func explainWith(t *testing.T, board, what string) *Explanation {
	t.Helper()
	c, err := kernel.Decode(strings.NewReader(testCatalog))
	if err != nil {
		t.Fatal(err)
	}
	c.Lookup(nil)
	cats := check.Fixed(c)
	r, err := boardc.Compile(filepath.Join("..", "boards", board), boardc.Options{Kernel: &cats})
	if err != nil || r.Board == nil {
		t.Fatalf("%s: %v %v", board, err, r.Diagnostics)
	}
	e := Explain(r, what)
	if e == nil {
		t.Fatalf("%s matches nothing", what)
	}
	return e
}

// A master's explanation shows the catalogue's fact behind it: its
// driver, the DMA kind, widths and the call setting them, its IRQ
// requests, with the kernel; a master no driver lists says so.
func TestExplainDriver(t *testing.T) {
	e := explainWith(t, "espressobin", "crypto")
	want := []Driver{{
		Master: "crypto", Kernel: "6.12", Version: "6.12.57", Name: "crypto-safexcel", Matched: "marvell,armada-3700-crypto",
		Bus: "platform", Site: "drivers/crypto/inside-secure/safexcel.c:1900", Probe: "drivers/crypto/inside-secure/safexcel.c:1700 safexcel_probe()",
		DMA: "fixed", Widths: []int{64},
		Sets: []string{"drivers/crypto/inside-secure/safexcel.c:1720 safexcel_probe(): dma_set_mask_and_coherent(DMA_BIT_MASK(64))"},
		IRQs: []string{`dev_name "dev_name(priv->dev)" at drivers/crypto/inside-secure/safexcel.c:1600 safexcel_request_ring_irq()`},
	}}
	if diff := cmp.Diff(want, e.Drivers); diff != "" {
		t.Errorf("drivers (-want +got):\n%s", diff)
	}
	var text bytes.Buffer
	if err := e.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"drivers (the driver-facts catalogue of Linux 6.12):\n",
		`  crypto: driver crypto-safexcel (platform bus, drivers/crypto/inside-secure/safexcel.c:1900), Linux 6.12 (6.12.57), binds "marvell,armada-3700-crypto"; probe drivers/crypto/inside-secure/safexcel.c:1700 safexcel_probe()` + "\n",
		"    DMA masks: fixed: 64 bits\n",
		"    set: drivers/crypto/inside-secure/safexcel.c:1720 safexcel_probe(): dma_set_mask_and_coherent(DMA_BIT_MASK(64))\n",
	} {
		if !strings.Contains(text.String(), line) {
			t.Errorf("no %q in\n%s", line, text.String())
		}
	}
	e = explainWith(t, "espressobin", "eth0")
	if want := []Driver{{Master: "eth0", Kernel: "6.12", Version: "6.12.57"}}; !cmp.Equal(e.Drivers, want) {
		t.Errorf("eth0: %+v, want %+v", e.Drivers, want)
	}
	text.Reset()
	_ = e.WriteText(&text)
	if !strings.Contains(text.String(), "  eth0: no driver of Linux 6.12 (6.12.57) lists its compatibles\n") {
		t.Errorf("eth0:\n%s", text.String())
	}
}
