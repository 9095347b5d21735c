package boardc_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"boardc.dev/boardc"
)

// The BSP guard: boards that only add to their SoC's masters, compiled
// together, share one evaluation of their SoC (boardc.Compiler.Prepare).
// Compiling bspBoards such boards on an SoC of bspMasters masters, with a
// Compiler made for them, may allocate at most bspLimit times what
// compiling one of them does. Each board's checks and outputs grow with
// the masters too, so the ratio is not 1: the SoC lowered once measured
// ×5.4 in objects and ×4.1 in bytes (×5.9 and ×5.2 with each master a
// board disables unified with #Master again rather than taken lowered),
// each board evaluating its SoC again ×13.0 in both. Allocations, not
// time, so that a busy machine does not change the result.
const (
	bspMasters = 100
	bspBoards  = 16
	bspLimit   = 7.0
)

// TestBSPScaling is the BSP guard.
func TestBSPScaling(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	dir := t.TempDir()
	soc := `package s

soc: {
	name: "s"
	compatible: ["vendor,s"]
	root: {"#address-cells": 1, "#size-cells": 1}
	cpus: clusters: [{core: "arm,cortex-a53", cpus: [0, 1, 2, 3]}]
	buses: soc: {
		node: path:       "/soc"
		"#address-cells": 1
		"#size-cells":    1
		coherency: {coherent: true, source: "vendor datasheet 4.2", masters: "all"}
	}
}
`
	for i := range bspMasters {
		soc += fmt.Sprintf("soc: masters: m%d: {node: {label: \"m%d\", path: \"/soc/dma@%x\"}, compatible: [\"vendor,dma\"], bus: \"soc\", dma: streaming: 32, irqs: {}}\n", i, i, 0x1000*(i+1))
	}
	files := map[string]string{
		"cue.mod/module.cue": "module: \"example.com/bsp@v0\"\nlanguage: version: \"v0.17.0\"\n",
		"soc/s/s.cue":        soc,
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var boards []string
	for i := range bspBoards {
		b := filepath.Join(dir, fmt.Sprintf("b%02d", i))
		src := fmt.Sprintf(`package b%02d

import "example.com/bsp/soc/s"

name:       "bsp-%02d"
compatible: ["vendor,bsp-%02d"]
soc:        s.soc
soc: masters: m%d: enabled: false
memory: [{base: 0x8000_0000, size: 0x4000_0000}]
policy: {irqs: [], net: {}, sysctls: {}, isolatedCPUs: []}
waivers: []
`, i, i, i, i+1)
		if err := os.MkdirAll(b, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(b, "board.cue"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		boards = append(boards, b)
	}
	compile := func(paths []string) {
		c, err := boardc.New()
		if err != nil {
			t.Fatal(err)
		}
		c.Prepare(paths)
		for _, p := range paths {
			if r := c.Compile(p, boardc.Options{}); r.Diagnostics.HasErrors() || len(r.Files) == 0 {
				t.Fatalf("%s: %v", p, r.Diagnostics)
			}
		}
	}
	compile(boards[:1]) // what a process prepares once is not the boards'
	one := allocsOf(func() { compile(boards[:1]) })
	all := allocsOf(func() { compile(boards) })
	for _, m := range []struct {
		what     string
		one, all uint64
	}{
		{"objects", one.objects, all.objects},
		{"bytes", one.bytes, all.bytes},
	} {
		ratio := float64(m.all) / float64(m.one)
		t.Logf("%s: %d for one board, %d for %d boards on its SoC: ×%.2f (limit ×%.1f)", m.what, m.one, m.all, bspBoards, ratio, bspLimit)
		if ratio > bspLimit {
			t.Errorf("%d boards on one SoC allocate ×%.2f the %s of one, more than ×%.1f: do they evaluate their SoC again?", bspBoards, ratio, m.what, bspLimit)
		}
	}
}
