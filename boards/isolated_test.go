package boards_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/internal/intree"
)

// isolatedDir holds the LS2088A-RDB with CPUs 6-7 isolated, as it must be
// described (isolated/) and as the in-tree board with only isolatedCPUs
// changed (isolated-refused/, its diagnostics in want.diag).
const isolatedDir = "ls2088a-rdb/testdata"

// TestLS2088AIsolated: the LS2088A-RDB with CPUs 6-7 isolated gets a
// data-path layout and tuning that put nothing of dpaa2-eth on CPUs 6-7:
// six DPIOs, so dpaa2_dpio_probe() gives CPUs 6-7 none and hints no
// dpio.N IRQ there; six queues per DPNI, so dpaa2_eth_setup_dpio() makes
// its channels, frame queues and RSS spread on CPUs 0-5 only; no pin,
// steering or ban on CPUs 6-7; the kernel command line isolates them.
func TestLS2088AIsolated(t *testing.T) {
	r := intree.Compile(t, filepath.Join(isolatedDir, "isolated"))
	if n := r.Diagnostics.Count(diag.Error) + r.Diagnostics.Count(diag.Warning); n != 0 {
		var b strings.Builder
		_ = r.Diagnostics.WriteText(&b)
		t.Errorf("%d errors or warnings:\n%s", n, b.String())
	}
	dpl := string(output(t, r, "ls2088a-rdb-isolated-dpl.dts"))
	if ios := regexp.MustCompile(`(?m)^\t\tdpio@(\d+) \{\t/\* CPU (\d+),`).FindAllStringSubmatch(dpl, -1); len(ios) != 6 {
		t.Errorf("the layout has %d DPIOs, want 6 (CPUs 0-5)", len(ios))
	} else {
		for _, m := range ios {
			if m[2] >= "6" {
				t.Errorf("dpio@%s serves CPU %s", m[1], m[2])
			}
		}
	}
	if q := regexp.MustCompile(`num_queues = <(\d+)>;`).FindAllStringSubmatch(dpl, -1); len(q) != 8 {
		t.Errorf("the layout has %d DPNIs, want 8", len(q))
	} else {
		for _, m := range q {
			if m[1] != "6" {
				t.Errorf("num_queues = <%s>, want 6", m[1])
			}
		}
	}
	if !strings.Contains(dpl, "  48 DPCONs; the DPNIs' channels take 48.\n") {
		t.Error("the layout's DPCONs are not 8 DPNIs × 6 channels")
	}
	tune := string(output(t, r, "tune.sh"))
	for _, bad := range []string{"'dpio.6'", "'dpio.7'", "tx-6", "tx-7", "' '40' ", "' '80' "} {
		if strings.Contains(tune, bad) {
			t.Errorf("tune.sh has %s", bad)
		}
	}
	if !strings.Contains(tune, "follow_irq 'dpio.5' '5' hint ") || !strings.Contains(tune, "expect net mask '/sys/class/net/eth7/queues/tx-5/xps_cpus' '20' ") {
		t.Error("tune.sh does not place dpio.5 and check eth7's tx-5 on CPU 5")
	}
	if c := string(output(t, r, "cmdline.txt")); !strings.Contains(c, "\nirqaffinity=0-5 isolcpus=managed_irq,domain,6-7 nohz_full=6-7 rcu_nocbs=6-7\n") {
		t.Errorf("cmdline.txt:\n%s", c)
	}
	if e := string(output(t, r, "irqbalance.env")); !strings.Contains(e, "\nIRQBALANCE_BANNED_CPULIST=6-7\n") {
		t.Errorf("irqbalance.env:\n%s", e)
	}
	// The verifier expects a DPIO on CPUs 0-5 and none on 6-7, rather
	// than one on every online CPU.
	if v := string(output(t, r, "boardc_ls2088a_rdb_isolated_verify.c")); !strings.Contains(v, "\tstatic const unsigned int described[] = { 0, 1, 2, 3, 4, 5 };\n") {
		t.Error("the verifier does not expect DPIOs on CPUs 0-5 only")
	}
	// The DPC converts QBMan channels for the 48 DPCONs; the layout
	// declares a DPMCP per DPIO, per DPNI and for the DPRTC, and one for
	// restool: 6 + 8 + 1 + 1.
	if dpc := string(output(t, r, "ls2088a-rdb-isolated-dpc.dts")); !strings.Contains(dpc, "\twq_ch_conversion = <32>;\n") {
		t.Errorf("the DPC has no wq_ch_conversion:\n%s", dpc)
	}
	if !strings.Contains(dpl, " 1 DPRTC, 16 DPMCPs,\n") {
		t.Error("the layout's DPMCPs are not 6 DPIOs + 8 DPNIs + 1 DPRTC + 1")
	}
}

// TestLS2088AIsolatedRefused: the in-tree LS2088A-RDB with only CPUs
// 6-7 isolated is refused, each thing dpaa2-eth would put on them named
// at its position: the DPIOs past CPU 5, every interface's eight queues,
// the pins of dpio.6 and dpio.7, the XPS of tx-6 and tx-7.
func TestLS2088AIsolatedRefused(t *testing.T) {
	c, err := boardc.New()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(isolatedDir, "isolated-refused")
	r := c.Compile(dir, boardc.Options{})
	if len(r.Files) != 0 {
		t.Errorf("a refused board got %d files", len(r.Files))
	}
	var got strings.Builder
	if err := r.Diagnostics.WriteText(&got); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "want.diag")
	if os.Getenv("BOARDC_UPDATE") == "1" {
		if err := os.WriteFile(want, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(w) {
		t.Errorf("diagnostics:\n%s\nwant (%s):\n%s", got.String(), want, w)
	}
}
