package kernel

import (
	"fmt"
	"strings"
	"testing"
)

func TestPrimeCellID(t *testing.T) {
	for _, tc := range []struct {
		compatibles []string
		id          uint32
		from        string
		ok          bool
	}{
		{[]string{"arm,pl330", "arm,primecell"}, 0x00041330, "arm,pl330", true},
		{[]string{"vendor,dma", "arm,pl330", "arm,primecell"}, 0x00041330, "arm,pl330", true},
		{[]string{"arm,pl011", "arm,primecell"}, 0x00041011, "arm,pl011", true},
		{[]string{"arm,pl18x", "arm,primecell"}, 0, "", false}, // not the engineering name
		{[]string{"arm,pl330"}, 0, "", false},                  // not an AMBA device
		{[]string{"arm,primecell"}, 0, "", false},
		{[]string{"arm,pl3300", "arm,primecell"}, 0, "", false},
	} {
		id, from, ok := primeCellID(tc.compatibles)
		if id != tc.id || from != tc.from || ok != tc.ok {
			t.Errorf("primeCellID(%q) = %#x, %q, %v; want %#x, %q, %v", tc.compatibles, id, from, ok, tc.id, tc.from, tc.ok)
		}
	}
}

// A PrimeCell finds its AMBA driver through the ID it reports, in the
// shipped catalogues opened as Load opens them and decoded whole alike:
// pl330 by both series, and every ARM part any AMBA driver lists.
func TestLookupPrimeCell(t *testing.T) {
	for _, s := range Series() {
		lazy, err := Load(s)
		if err != nil {
			t.Fatal(err)
		}
		full, err := Decode(strings.NewReader(shipped[s].text))
		if err != nil {
			t.Fatal(err)
		}
		d, m := lazy.Lookup([]string{"arm,pl330", "arm,primecell"})
		if d == nil || d.Name != "dma-pl330" || m != "arm,pl330" || d.DMA.Kind != DMAFixed {
			t.Fatalf("%s: arm,pl330 binds %+v by %q, want dma-pl330, fixed", s, d, m)
		}
		parts := 0
		for _, drv := range full.Drivers {
			for _, k := range drv.Compatibles {
				id, _, ok := ambaKey(k)
				if !ok || id>>12&0xff != 0x41 || id>>20 != 0 {
					continue
				}
				compat := []string{fmt.Sprintf("arm,pl%03x", id&0xfff), "arm,primecell"}
				want, wm := full.Lookup(compat)
				got, gm := lazy.Lookup(compat)
				if want == nil || got == nil || got.Name != want.Name || got.Site != want.Site || gm != wm {
					t.Errorf("%s: %q binds %v by %q opened lazily, %v by %q decoded", s, compat, got, gm, want, wm)
				}
				parts++
			}
		}
		if parts < 15 {
			t.Errorf("%s: %d ARM parts in the AMBA tables, want the catalogue's 15 or more", s, parts)
		}
	}
}

// A driver that lists a PrimeCell's compatible itself binds it before
// the AMBA table, and a node that is not "arm,primecell" has no AMBA
// driver.
func TestLookupPrimeCellOrder(t *testing.T) {
	c, err := Decode(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	c.Drivers[1].Compatibles = append(c.Drivers[1].Compatibles, "amba:0x00041330/0x000fffff")
	var buf strings.Builder
	if err := Encode(&buf, c); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, open := range []func(string) (*Catalog, error){openLazy, func(s string) (*Catalog, error) { return Decode(strings.NewReader(s)) }} {
		c, err := open(text)
		if err != nil {
			t.Fatal(err)
		}
		if d, m := c.Lookup([]string{"arm,pl330", "arm,primecell"}); d == nil || d.Name != "other" || m != "arm,pl330" {
			t.Errorf("arm,pl330 binds %+v by %q, want other", d, m)
		}
		if d, m := c.Lookup([]string{"arm,pl330", "arm,primecell", "generic-ahci"}); d == nil || d.Name != "ahci" || m != "generic-ahci" {
			t.Errorf("a listed compatible: %+v by %q, want ahci", d, m)
		}
		if d, _ := c.Lookup([]string{"arm,pl330"}); d != nil {
			t.Errorf("arm,pl330 without arm,primecell binds %s", d.Name)
		}
	}
}
