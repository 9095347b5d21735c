package conform

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/compiler/kernel"
)

// CoverageOf counts every board's masters: those a driver with a known
// DMA behaviour binds, those whose driver's is unknown (by compatible,
// driver and reason), those no driver binds (by their most specific
// compatible).
func TestCoverageOf(t *testing.T) {
	c, err := kernel.Decode(strings.NewReader(`{"series": "6.12", "kernel": "6.12.57",
 "source": {"tarball": "linux-source-6.12.tar.xz", "sha256": "00", "extractor": 1},
 "drivers": [
  {"name": "ahci", "bus": "platform", "site": {"file": "drivers/ata/ahci_platform.c", "line": 90},
   "probe": {"file": "drivers/ata/ahci_platform.c", "line": 40, "func": "ahci_probe"},
   "compatibles": ["generic-ahci"], "dma": {"kind": "choice", "widths": [32, 64]}},
  {"name": "vmmc", "bus": "platform", "site": {"file": "drivers/mmc/vmmc.c", "line": 90},
   "probe": {"file": "drivers/mmc/vmmc.c", "line": 40, "func": "vmmc_probe"},
   "compatibles": ["vendor,mmc"], "dma": {"kind": "unknown", "reason": "an ops table"}}
 ]}`))
	if err != nil {
		t.Fatal(err)
	}
	results := []Result{
		{Board: "a.dts", Masters: [][]string{{"vendor,ahci", "generic-ahci"}, {"vendor,mmc"}, {"vendor,gpu"}}},
		{Board: "b.dts", Masters: [][]string{{"generic-ahci"}, {"vendor,gpu"}, nil}},
	}
	got := CoverageOf(results, c)
	want := Coverage{
		DriverCount: DriverCount{Masters: 6, Matched: 3, Known: 2},
		Unmatched:   map[string]int{"vendor,gpu": 2, "(none)": 1},
		Unknown:     map[string]int{"vendor,mmc (vmmc: an ops table)": 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("coverage (-want +got):\n%s", diff)
	}
	if s := got.Share(); s < 33.3 || s > 33.4 {
		t.Errorf("share %.2f %%, want 33.3", s)
	}
	if rows := top(got.Unmatched, 1); len(rows) != 1 || rows[0] != (countRow{"vendor,gpu", 2}) {
		t.Errorf("top 1: %v", rows)
	}
	base := Counts{Drivers: map[string]DriverCount{"6.12": {Masters: 6, Matched: 3, Known: 3}}}
	if reg := Regressions(base, Counts{Drivers: map[string]DriverCount{"6.12": got.DriverCount}}); !cmp.Equal(reg,
		[]string{"kernel 6.12: the catalogue knows the DMA behaviour of 2 of 6 masters, the baseline has 3"}) {
		t.Errorf("regressions %q", reg)
	}
}
