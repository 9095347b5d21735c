package conform_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/draft"
	"boardc.dev/boardc/compiler/kernel"
	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/internal/conform"
	"boardc.dev/boardc/internal/testtool"
)

// catalogueBoards are the boards whose drafts TestCatalogueDrafts holds to
// the catalogue: a Rockchip, an NXP and a TI SoC.
var catalogueBoards = []string{"rockchip/rk3588-rock-5b.dts", "freescale/imx8mp-evk.dts", "ti/k3-am625-sk.dts"}

// knowsWidth reports whether the catalogue's driver d gives a master
// matched by compatible a width the draft can state.
func knowsWidth(d *kernel.Driver, matched string) bool {
	switch d.DMA.Kind {
	case kernel.DMANone:
		return true
	case kernel.DMAFixed, kernel.DMAChoice, kernel.DMAMatchData:
		return len(d.WidthFor(matched)) > 0
	case kernel.DMAChildren:
		return len(d.DMA.Widths) == 1
	}
	return false
}

// TestCatalogueDrafts imports catalogueBoards from the corpus filled from
// the default catalogue: no master whose width the catalogue knows is
// left without one (vet's BC0004 on its dma), and the masters that are
// all have a driver the catalogue cannot give a width for, or none.
func TestCatalogueDrafts(t *testing.T) {
	tb := tarball(t)
	testtool.Look(t, "cpp", "cpp")
	testtool.Look(t, "dtc", "device-tree-compiler")
	series := kernel.Default()
	if series == "" {
		t.Skip("boardc ships no driver-facts catalogue (compiler/kernel/data)")
	}
	cat, err := kernel.Load(series)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := conform.Open(tb)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CUE_REGISTRY", "none")
	c, err := boardc.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range catalogueBoards {
		t.Run(b, func(t *testing.T) {
			rel := conform.DTSDir + "/" + b
			tree, err := basetree.Compile{Root: cp.Root, DTS: rel, Annotate: true}.Build(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			d, err := draft.Generate(tree, draft.Options{Source: rel, DTS: rel, Module: "boardc.dev/boards", Kernel: cat})
			if err != nil {
				t.Fatal(err)
			}
			mod := t.TempDir()
			files := append([]draft.File{{Path: "cue.mod/module.cue", Data: []byte("module: \"boardc.dev/boards@v0\"\nlanguage: version: \"v0.17.0\"\n")}}, d.Files...)
			for _, f := range files {
				data := f.Data
				if strings.HasSuffix(f.Path, ".cue") && f.Path != "cue.mod/module.cue" {
					if data, err = load.Format(f.Data); err != nil {
						t.Fatalf("%s: %v", f.Path, err)
					}
				}
				p := filepath.Join(mod, filepath.FromSlash(f.Path))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r := c.Compile(filepath.Join(mod, d.Board), boardc.Options{})
			lacking := map[string]bool{}
			for _, dg := range r.Diagnostics {
				if key, ok := strings.CutSuffix(strings.TrimPrefix(string(dg.Ref), "soc.masters."), ".dma"); ok && dg.Code == diag.Missing.ID {
					lacking[key] = true
				}
			}
			var known, todo, runtime, unmatched int
			for _, m := range d.Masters() {
				drv, matched := cat.Lookup(m.Compatible)
				switch {
				case drv == nil:
					unmatched++
				case knowsWidth(drv, matched):
					known++
					if lacking[m.Key] {
						t.Errorf("master %s (%s, %q): driver %s (%s) gives a width, but the draft has a DMA-width TODO", m.Key, m.Path, matched, drv.Name, drv.DMA.Kind)
					}
				case drv.DMA.Kind == kernel.DMARuntime:
					runtime++
				}
				if lacking[m.Key] {
					todo++
				}
			}
			t.Logf("%s: %d masters, %d with a width from Linux %s, %d computed at probe, %d no driver lists; %d DMA-width TODOs",
				b, len(d.Masters()), known, series, runtime, unmatched, todo)
		})
	}
}
