package kernel

import (
	"bytes"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// openLazy opens a catalogue's text as Load does, with the index
// WriteIndex writes of it.
func openLazy(text string) (*Catalog, error) {
	var ix strings.Builder
	if err := WriteIndex(&ix, text); err != nil {
		return nil, err
	}
	return openIndexed(text, ix.String())
}

// openBoth opens a catalogue's text lazily and decodes it whole.
func openBoth(t testing.TB, text string) (lazy, full *Catalog) {
	t.Helper()
	lazy, err := openLazy(text)
	if err != nil {
		t.Fatalf("openLazy: %v", err)
	}
	full, err = Decode(strings.NewReader(text))
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	full.index()
	return lazy, full
}

// sameCatalog checks that every lookup of lazy gives what full gives.
func sameCatalog(t *testing.T, lazy, full *Catalog) {
	t.Helper()
	meta := cmpopts.IgnoreFields(Catalog{}, "Drivers")
	if diff := cmp.Diff(full, lazy, meta, cmpopts.IgnoreUnexported(Catalog{})); diff != "" {
		t.Errorf("metadata (-full +lazy):\n%s", diff)
	}
	// Lookups of compatibles no driver lists, before, between and after
	// the listed ones in byte order, find nothing.
	for _, s := range []string{"", " ", "0", "a", "zzzz", "~", "generic-ahci0", "vendor,"} {
		if _, listed := full.byCompat[s]; listed {
			continue
		}
		if d, m := lazy.Lookup([]string{s}); d != nil {
			t.Errorf("Lookup(%q) = %s by %q, want nothing", s, d.Name, m)
		}
	}
	for s := range full.byCompat {
		if _, listed := full.byCompat[s+"0"]; !listed {
			if d, _ := lazy.Lookup([]string{s + "0"}); d != nil {
				t.Errorf("Lookup(%q) = %s, want nothing", s+"0", d.Name)
			}
		}
		want, wm := full.Lookup([]string{s})
		got, gm := lazy.Lookup([]string{s})
		if gm != wm || !cmp.Equal(got, want) {
			t.Fatalf("Lookup(%q) = %+v by %q, Decode gives %+v by %q", s, got, gm, want, wm)
		}
	}
	if diff := cmp.Diff(full.Drivers, lazy.All()); diff != "" {
		t.Errorf("All (-full +lazy):\n%s", diff)
	}
}

// The shipped catalogues, opened as Load opens them, through their
// indexes, answer every lookup as a full decode does.
func TestLazyMatchesDecode(t *testing.T) {
	for _, s := range Series() {
		t.Run(s, func(t *testing.T) {
			lazy, err := openIndexed(shipped[s].text, shipped[s].index)
			if err != nil {
				t.Fatal(err)
			}
			full, err := Decode(strings.NewReader(shipped[s].text))
			if err != nil {
				t.Fatal(err)
			}
			full.index()
			if len(full.Drivers) < 1000 {
				t.Fatalf("%d drivers: not a shipped catalogue", len(full.Drivers))
			}
			sameCatalog(t, lazy, full)
		})
	}
}

// A catalogue as Encode writes it, with compatibles JSON escapes and a
// compatible two drivers list, an empty compatibles list and an empty
// catalogue, opens lazily as it decodes.
func TestLazyLayouts(t *testing.T) {
	c, err := Decode(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	c.Drivers[0].Compatibles = append(c.Drivers[0].Compatibles, "odd<&>\"name\\")
	c.Drivers = append(c.Drivers, Driver{Name: "none", Bus: "amba", DMA: DMA{Kind: DMANone}})
	var buf bytes.Buffer
	if err := Encode(&buf, c); err != nil {
		t.Fatal(err)
	}
	lazy, full := openBoth(t, buf.String())
	sameCatalog(t, lazy, full)
	if d, _ := lazy.Lookup([]string{"odd<&>\"name\\"}); d == nil || d.Name != "ahci" {
		t.Errorf("escaped compatible: %+v", d)
	}
	if d, m := lazy.Lookup([]string{"generic-ahci"}); d == nil || d.Name != "ahci" || m != "generic-ahci" {
		t.Errorf("shared compatible: %+v by %q, want the first driver", d, m)
	}

	buf.Reset()
	c.Drivers = nil
	if err := Encode(&buf, c); err != nil {
		t.Fatal(err)
	}
	lazy, full = openBoth(t, buf.String())
	sameCatalog(t, lazy, full)
}

// Text Encode did not write is refused with where it goes wrong, not
// misread.
func TestLazyRefuses(t *testing.T) {
	c, err := Decode(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, c); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	for _, tc := range []struct{ name, text, want string }{
		{"tab-indented driver", strings.Replace(good, "\n  {\n   \"name\": \"other\"", "\n\t{\n   \"name\": \"other\"", 1), "driver 1 at byte"},
		{"compatible not a string", strings.Replace(good, `    "vendor,x",`, `    7,`, 1), `compatible "    7": not a string`},
		{"trailing text", strings.Replace(good, "\n ]\n}", "\n ],\n \"x\": 1\n}", 1), "the driver array does not end the catalogue"},
	} {
		if _, err := openLazy(tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// BenchmarkLoad is opening a shipped catalogue as Load does (index),
// against scanning its text for the index and decoding it whole.
func BenchmarkLoad(b *testing.B) {
	text, index := shipped[Default()].text, shipped[Default()].index
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			if _, err := openIndexed(text, index); err != nil {
				b.Fatal(err)
			}
		}
	})
	c, err := Load(Default())
	if err != nil {
		b.Fatal(err)
	}
	b.Run("lookup", func(b *testing.B) {
		for b.Loop() {
			if d, _ := c.Lookup([]string{"vendor,none", "snps,dwc3"}); d == nil {
				b.Fatal("snps,dwc3: no driver")
			}
		}
	})
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			if _, err := openLazy(text); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			if _, err := Decode(strings.NewReader(text)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// Every catalogue in data/ is shipped under the series its name gives,
// and holds that series.
func TestShipped(t *testing.T) {
	ents, err := os.ReadDir("data")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "linux-") && strings.HasSuffix(e.Name(), ".json") {
			files = append(files, e.Name())
		}
	}
	var names []string
	for _, s := range Series() {
		names = append(names, FileName(s))
		if c, err := Load(s); err != nil || c.Series != s {
			t.Errorf("Load(%q) = %v, %v", s, c, err)
		}
	}
	if !slices.Equal(files, names) {
		t.Errorf("data/ holds %v, boardc ships %v", files, names)
	}
}

// Each shipped index is the one WriteIndex writes from its catalogue.
func TestShippedIndex(t *testing.T) {
	for _, s := range Series() {
		var buf bytes.Buffer
		if err := WriteIndex(&buf, shipped[s].text); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if buf.String() != shipped[s].index {
			t.Errorf("data/%s is not the index of data/%s: regenerate both with scripts/catalog.sh", IndexName(s), FileName(s))
		}
	}
	if _, err := openIndexed(shipped[Default()].text, "a 12\n"); err == nil || err.Error() != "not a driver index" {
		t.Errorf("an index without its header: %v", err)
	}
	for _, tc := range []struct {
		index, compat string
		start         int
		found         bool
	}{
		{"", "a", 0, false},
		{"b 7\n", "a", 0, false},
		{"b 7\n", "b", 7, true},
		{"b 7\n", "c", 0, false},
		{"a 1\nab 2\nb 3\n", "ab", 2, true},
		{"a 1\nab 2\nb 3\n", "a", 1, true},
		{"a 1\nab 2\nb 3\n", "b", 3, true},
		{"a 1\nab 2\nb 3\n", "aa", 0, false},
	} {
		start, found := find(indexHeader+tc.index, tc.compat)
		if start != tc.start || found != tc.found {
			t.Errorf("find(%q, %q) = %d, %v; want %d, %v", tc.index, tc.compat, start, found, tc.start, tc.found)
		}
	}
	c, err := Decode(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	c.Drivers[1].Compatibles[0] = "vendor x"
	var buf bytes.Buffer
	if err := Encode(&buf, c); err != nil {
		t.Fatal(err)
	}
	if err := WriteIndex(io.Discard, buf.String()); err == nil || err.Error() != `driver 1: compatible "vendor x" cannot be indexed` {
		t.Errorf("a compatible with a space: %v", err)
	}
}
