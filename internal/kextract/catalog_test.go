package kextract

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"boardc.dev/boardc/compiler/kernel"
)

// The embedded catalogues are what the extractor writes from the
// archives they name: each is regenerated from its Debian source package
// and must not differ by a byte. Where an archive is missing the test
// says which package to install, and fails under BOARDC_REQUIRE_TOOLS=1.
// -short skips it.
func TestCataloguesRegenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the catalogues are not regenerated (a minute or more per kernel)")
	}
	// The two kernels side by side: unpacking an archive (xz) and
	// extracting a tree each keep one core busy, and the test is among
	// the suite's longest.
	for _, s := range []string{"6.1", "6.12"} {
		t.Run(s, func(t *testing.T) {
			t.Parallel()
			tb := "/usr/src/linux-source-" + s + ".tar.xz"
			if _, err := os.Stat(tb); err != nil {
				msg := fmt.Sprintf("no %s: install the Debian package linux-source-%s (scripts/test.sh does) to check compiler/kernel/data/%s", tb, s, kernel.FileName(s))
				if os.Getenv("BOARDC_REQUIRE_TOOLS") == "1" {
					t.Fatal(msg)
				}
				t.Skip(msg)
			}
			embedded, err := os.ReadFile(filepath.Join("..", "..", "compiler", "kernel", "data", kernel.FileName(s)))
			if err != nil {
				t.Fatalf("%v: boardc ships a catalogue per series; scripts/catalog.sh writes it", err)
			}
			src, err := Provenance(tb)
			if err != nil {
				t.Fatal(err)
			}
			cache, err := CacheDir()
			if err != nil {
				t.Fatal(err)
			}
			dir, err := Unpack(tb, src.SHA256, cache)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Extract(dir, src)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := kernel.Encode(&buf, c); err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(buf.Bytes(), embedded) {
				return
			}
			old, err := kernel.Decode(bytes.NewReader(embedded))
			if err != nil {
				t.Fatalf("the embedded catalogue does not decode (%v): regenerate it with scripts/catalog.sh", err)
			}
			t.Errorf("compiler/kernel/data/%s differs from what the extractor writes from %s: regenerate it with scripts/catalog.sh\n%s",
				kernel.FileName(s), tb, firstDiff(old, c))
		})
	}
}

// firstDiff describes the first difference between two catalogues.
func firstDiff(a, b *kernel.Catalog) string {
	if a.Source != b.Source || a.Kernel != b.Kernel {
		return fmt.Sprintf("embedded %s %+v, regenerated %s %+v", a.Kernel, a.Source, b.Kernel, b.Source)
	}
	for i := range min(len(a.Drivers), len(b.Drivers)) {
		var x, y bytes.Buffer
		kernel.Encode(&x, &kernel.Catalog{Drivers: a.Drivers[i : i+1]})
		kernel.Encode(&y, &kernel.Catalog{Drivers: b.Drivers[i : i+1]})
		if x.String() != y.String() {
			return fmt.Sprintf("driver %d: embedded\n%s\nregenerated\n%s", i, x.String(), y.String())
		}
	}
	return fmt.Sprintf("%d drivers embedded, %d regenerated", len(a.Drivers), len(b.Drivers))
}
