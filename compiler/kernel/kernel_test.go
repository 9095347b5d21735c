package kernel

import (
	"slices"
	"strings"
	"testing"
)

const sample = `{"series": "6.12", "kernel": "6.12.57",
 "source": {"tarball": "linux-source-6.12.tar.xz", "sha256": "00", "extractor": 1},
 "drivers": [
  {"name": "ahci", "bus": "platform", "site": {"file": "drivers/ata/ahci_platform.c", "line": 90},
   "probe": {"file": "drivers/ata/ahci_platform.c", "line": 40, "func": "ahci_probe"},
   "compatibles": ["generic-ahci", "snps,spear-ahci"],
   "dma": {"kind": "choice", "widths": [32, 64]}},
  {"name": "other", "bus": "platform", "site": {"file": "drivers/x/other.c", "line": 9},
   "probe": {"file": "drivers/x/other.c", "line": 5, "func": "other_probe"},
   "compatibles": ["vendor,x", "generic-ahci"],
   "dma": {"kind": "match-data", "widths": [36, 40], "perCompatible": {"vendor,x": 40}}}
 ]}`

// Lookup takes the most specific compatible any driver lists, and the
// first driver in file order that lists it.
func TestLookup(t *testing.T) {
	c, err := Decode(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	d, m := c.Lookup([]string{"vendor,unknown", "generic-ahci", "vendor,x"})
	if d == nil || d.Name != "ahci" || m != "generic-ahci" {
		t.Fatalf("Lookup = %v, %q; want ahci by generic-ahci", d, m)
	}
	if w := d.WidthFor(m); !slices.Equal(w, []int{32, 64}) {
		t.Errorf("WidthFor = %v, want [32 64]", w)
	}
	d, m = c.Lookup([]string{"vendor,x"})
	if d == nil || d.Name != "other" {
		t.Fatalf("Lookup(vendor,x) = %v, %q", d, m)
	}
	if w := d.WidthFor("vendor,x"); !slices.Equal(w, []int{40}) {
		t.Errorf("WidthFor(vendor,x) = %v, want [40]", w)
	}
	if d, _ := c.Lookup([]string{"vendor,none"}); d != nil {
		t.Errorf("Lookup of an unlisted compatible = %v, want nil", d)
	}
	if got := d.Probe.String(); got != "drivers/x/other.c:5 other_probe()" {
		t.Errorf("Site.String = %q", got)
	}
}

// A catalogue whose kernel is not of its series is refused, as is a
// field the format does not have.
func TestDecodeRefuses(t *testing.T) {
	for _, bad := range []string{
		strings.Replace(sample, `"kernel": "6.12.57"`, `"kernel": "6.1.57"`, 1),
		strings.Replace(sample, `"bus": "platform", "site": {"file": "drivers/x`, `"bus": "platform", "typo": 1, "site": {"file": "drivers/x`, 1),
	} {
		if _, err := Decode(strings.NewReader(bad)); err == nil {
			t.Errorf("Decode accepted:\n%s", bad[:80])
		}
	}
}

func TestCompareSeries(t *testing.T) {
	s := []string{"7.0", "6.12", "6.1", "6.6"}
	slices.SortFunc(s, compareSeries)
	if !slices.Equal(s, []string{"6.1", "6.6", "6.12", "7.0"}) {
		t.Errorf("sorted %v", s)
	}
}
