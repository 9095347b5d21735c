package synth

import (
	"fmt"
	"os"
	"path/filepath"
)

// BSP returns the files of a CUE module (example.com/bsp) holding an SoC
// package, soc/s, of masters DMA masters m0, m1, ... on one coherent bus,
// each with a streaming width of 32 bits by default, and boards board
// packages b00, b01, ... on it, each with its name (bsp-00, ...), a
// compatible, memory, an empty policy and extra(i), keyed by slash path.
func BSP(masters, boards int, extra func(i int) string) map[string]string {
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
	for i := range masters {
		soc += fmt.Sprintf("soc: masters: m%d: {node: {label: \"m%d\", path: \"/soc/dma@%x\"}, compatible: [\"vendor,dma\"], bus: \"soc\", dma: streaming: *32 | int, irqs: {}}\n", i, i, 0x1000*(i+1))
	}
	files := map[string]string{
		"cue.mod/module.cue": "module: \"example.com/bsp@v0\"\nlanguage: version: \"v0.17.0\"\n",
		"soc/s/s.cue":        soc,
	}
	for i := range boards {
		files[fmt.Sprintf("b%02d/board.cue", i)] = fmt.Sprintf(`package b%02d

import "example.com/bsp/soc/s"

name:       "bsp-%02d"
compatible: ["vendor,bsp-%02d"]
soc:        s.soc
memory: [{base: 0x8000_0000, size: 0x4000_0000}]
policy: {irqs: [], net: {}, sysctls: {}, isolatedCPUs: []}
waivers: []
`, i, i, i) + extra(i)
	}
	return files
}

// WriteTree writes files, keyed by slash path, below dir.
func WriteTree(dir string, files map[string]string) error {
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			return err
		}
	}
	return nil
}
