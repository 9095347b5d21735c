package load

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/compiler/diag"
)

// bspModule is a CUE module with one SoC package and boards on it: two
// valid, one whose value conflicts with the SoC's, one that does not
// parse, one importing a package the module lacks, and one on an SoC
// package of its own that does not parse.
var bspModule = map[string]string{
	"cue.mod/module.cue": "module: \"example.com/bsp@v0\"\nlanguage: version: \"v0.17.0\"\n",
	"soc/s/s.cue": `package s

soc: {
	name: "s"
	compatible: ["vendor,s"]
	root: {"#address-cells": 1, "#size-cells": 1}
	cpus: clusters: [{core: "arm,cortex-a53", cpus: [0, 1]}]
	buses: soc: {
		node: path:       "/soc"
		"#address-cells": 1
		"#size-cells":    1
		coherency: {coherent: true, source: "vendor datasheet 4.2", masters: "all"}
	}
	masters: dma0: {
		node: {label: "dma0", path: "/soc/dma@1000"}
		compatible: ["vendor,dma"]
		bus: "soc"
		dma: streaming: 32
		irqs: {}
	}
}
`,
	"soc/broken/broken.cue": "package broken\n\nsoc: {\n",
	"a/board.cue":           board("a", ""),
	"b/board.cue":           board("b", "memory: [{base: 0x4000_0000, size: 0x8000_0000}]\n"),
	"conflict/board.cue":    board("conflict", "soc: masters: dma0: bus: \"other\"\n"),
	"syntax/board.cue":      "package syntax\n\nname: \"syntax\"\nsoc: {\n",
	"missing/board.cue":     strings.Replace(board("missing", ""), "example.com/bsp/soc/s", "example.com/bsp/soc/none", 1),
	"onbroken/board.cue":    strings.Replace(strings.Replace(board("onbroken", ""), "soc/s\"", "soc/broken\"", 1), "s.soc", "broken.soc", 1),
}

// board returns a board package named name on the SoC package s, with
// extra appended.
func board(name, extra string) string {
	return "package " + name + `

import "example.com/bsp/soc/s"

name: "` + name + `"
compatible: ["vendor,` + name + `"]
soc: s.soc
policy: {irqs: [], net: {}, sysctls: {}, isolatedCPUs: []}
memory: *[{base: 0, size: 0x4000_0000}] | _
` + extra
}

// TestPrepareChangesNoResult loads every board of bspModule with a Loader
// prepared for all of them and with one loading each on its own, and
// requires the same lowered boards and diagnostics. The boards that load
// (valid or not) must have come from Prepare, sharing their SoC package's
// instance; those that do not must have been left to load alone.
func TestPrepareChangesNoResult(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	root := t.TempDir()
	writeTree(t, root, bspModule)
	names := []string{"a", "b", "conflict", "syntax", "missing", "onbroken"}
	var paths []string
	for _, n := range names {
		paths = append(paths, filepath.Join(root, n))
	}

	prepared, err := New()
	if err != nil {
		t.Fatal(err)
	}
	prepared.Prepare(paths)
	soc := prepared.prepared[paths[0]]
	for _, p := range paths[:3] {
		i := prepared.prepared[p]
		if i == nil {
			t.Fatalf("%s was not prepared: %v", p, prepared.prepared)
		}
		if len(i.Imports) != 1 || i.Imports[0] != soc.Imports[0] {
			t.Errorf("%s does not share the SoC's instance: %v and %v", p, i.Imports, soc.Imports)
		}
	}
	for _, p := range paths[3:] {
		if prepared.prepared[p] != nil {
			t.Errorf("%s, in error, was prepared: it must load on its own", p)
		}
	}

	for i, p := range paths {
		alone, err := New()
		if err != nil {
			t.Fatal(err)
		}
		want := alone.LoadPartial(p)
		got := prepared.LoadPartial(p)
		if diff := cmp.Diff(diagText(want.Diagnostics), diagText(got.Diagnostics)); diff != "" {
			t.Errorf("%s: diagnostics (-alone +prepared):\n%s", names[i], diff)
		}
		if diff := cmp.Diff(want.Board, got.Board); diff != "" {
			t.Errorf("%s: board (-alone +prepared):\n%s", names[i], diff)
		}
		if i < 2 && want.Board == nil {
			t.Errorf("%s does not load:\n%s", names[i], diagText(want.Diagnostics))
		}
		if i >= 2 && !want.Diagnostics.HasErrors() {
			t.Errorf("%s loads without error; the test needs it in error", names[i])
		}
	}
	if len(prepared.prepared) != 0 {
		t.Errorf("prepared instances left after loading every board: %v", prepared.prepared)
	}
}

// diagText is ds as boardc prints them.
func diagText(ds diag.List) string {
	var s strings.Builder
	if err := ds.WriteText(&s); err != nil {
		return err.Error()
	}
	return s.String()
}
