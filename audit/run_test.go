package audit

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDraw: the precision sample is the same for one seed, another for another,
// and takes at most perClass findings of each class.
func TestDraw(t *testing.T) {
	var fs []Finding
	for i := range 30 {
		fs = append(fs, Finding{Class: Bounce, Severity: Warning, Board: string(rune('a'+i%26)) + ".dts", Path: "/n" + string(rune('a'+i%26)) + strings.Repeat("x", i/26)})
	}
	fs = append(fs, Finding{Class: Coherency, Severity: Error, Board: "z.dts", Path: "/c"})
	a, b := Draw(fs, 10, 1), Draw(slices.Clone(fs), 10, 1)
	if !slices.EqualFunc(a, b, func(x, y Finding) bool { return x.Key() == y.Key() }) {
		t.Error("two draws with one seed differ")
	}
	if len(a) != 11 || a[0].Class != Coherency {
		t.Errorf("draw = %d findings, first %s; want the coherency one and ten bounce", len(a), a[0].Class)
	}
	if c := Draw(fs, 10, 2); slices.EqualFunc(a, c, func(x, y Finding) bool { return x.Key() == y.Key() }) {
		t.Error("seeds 1 and 2 draw the same sample")
	}
}

func TestSelect(t *testing.T) {
	root := t.TempDir()
	dts := filepath.Join(root, "arch", "arm64", "boot", "dts")
	for _, b := range []string{"marvell/armada-3720-db.dts", "marvell/armada-8040-db.dts", "freescale/imx8mp-evk.dts", "marvell/armada-37xx.dtsi"} {
		p := filepath.Join(dts, filepath.FromSlash(b))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names := func(ss []Source) string {
		var out []string
		for _, s := range ss {
			out = append(out, s.name())
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "freescale/imx8mp-evk.dts marvell/armada-3720-db.dts marvell/armada-8040-db.dts"},
		{[]string{"marvell/"}, "marvell/armada-3720-db.dts marvell/armada-8040-db.dts"},
		{[]string{"marvell"}, "marvell/armada-3720-db.dts marvell/armada-8040-db.dts"},
		{[]string{"marvell/armada-37*"}, "marvell/armada-3720-db.dts"},
		{[]string{"freescale/imx8mp-evk.dts", "x.dtb"}, "x.dtb freescale/imx8mp-evk.dts"},
	} {
		got, err := Select(root, c.args)
		if err != nil || names(got) != c.want {
			t.Errorf("Select(%q) = %q, %v; want %q", c.args, names(got), err, c.want)
		}
	}
	if _, err := Select(root, []string{"nope/"}); err == nil || !strings.Contains(err.Error(), "nope/: no board of ") {
		t.Errorf("Select(nope/) error = %v", err)
	}
	if got, err := Select("", []string{"a.dtb"}); err != nil || names(got) != "a.dtb" {
		t.Errorf("Select(a.dtb) without a tree = %q, %v", names(got), err)
	}
}
