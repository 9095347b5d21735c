package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc"
)

// TestParallelBuildMatchesSequential builds every in-tree board in one
// call (compiled in parallel) into one directory and with one call per
// board into another, and compares the trees and the diagnostics byte for
// byte.
func TestParallelBuildMatchesSequential(t *testing.T) {
	boards, err := boardc.Discover("../../boards")
	if err != nil {
		t.Fatal(err)
	}
	if len(boards) < 3 {
		t.Fatalf("found %d in-tree boards, want at least 3: %v", len(boards), boards)
	}
	a, b := t.TempDir(), t.TempDir()

	var allOut, allErr bytes.Buffer
	if code := runWith([]string{"build", "-o", a, "../../boards/..."}, &allOut, &allErr); code != exitOK {
		t.Fatalf("boardc build ../../boards/...: exit %d\n%s", code, allErr.String())
	}
	var seqOut, seqErr bytes.Buffer
	for _, board := range boards {
		if code := runWith([]string{"build", "-o", b, board}, &seqOut, &seqErr); code != exitOK {
			t.Fatalf("boardc build %s: exit %d\n%s", board, code, seqErr.String())
		}
	}
	if diff := cmp.Diff(readTree(t, b), readTree(t, a)); diff != "" {
		t.Errorf("one call for all boards differs from one call per board (-per-board +all):\n%s", diff)
	}
	if diff := cmp.Diff(seqErr.String(), allErr.String()); diff != "" {
		t.Errorf("diagnostics differ (-per-board +all):\n%s", diff)
	}
}

// readTree returns every regular file below dir by its slash path, with
// its mode bits and content.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	tree := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		tree[filepath.ToSlash(rel)] = fi.Mode().String() + "\n" + string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(tree) == 0 {
		t.Fatalf("%s: no file written", dir)
	}
	return tree
}

// TestParallelBSPMatchesSequential builds a BSP, boards on one SoC
// package, in one call with several workers, which share the SoC lowered
// once (boardc.Shared), and with one call per board, and compares the
// trees and the diagnostics byte for byte. Under the race detector
// (scripts/test.sh) it also checks that the workers only read what they
// share.
func TestParallelBSPMatchesSequential(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
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
	for i := range 6 {
		soc += fmt.Sprintf("soc: masters: m%d: {node: {label: \"m%d\", path: \"/soc/dma@%x\"}, compatible: [\"vendor,dma\"], bus: \"soc\", dma: streaming: *32 | int, irqs: {}}\n", i, i, 0x1000*(i+1))
	}
	files := map[string]string{
		"cue.mod/module.cue": "module: \"example.com/bsp@v0\"\nlanguage: version: \"v0.17.0\"\n",
		"soc/s/s.cue":        soc,
	}
	var boards []string
	for i := range 8 {
		name := fmt.Sprintf("b%d", i)
		extra := fmt.Sprintf("soc: masters: m%d: enabled: false\n", i%6)
		if i%3 == 0 {
			extra += fmt.Sprintf("soc: masters: m%d: dma: streaming: 40\n", (i+1)%6)
		}
		files[name+"/board.cue"] = "package " + name + "\n\nimport \"example.com/bsp/soc/s\"\n\n" +
			"name: \"" + name + "\"\ncompatible: [\"vendor," + name + "\"]\nsoc: s.soc\n" +
			"policy: {irqs: [], net: {}, sysctls: {}, isolatedCPUs: []}\nmemory: [{base: 0, size: 0x4000_0000}]\n" + extra
		boards = append(boards, filepath.Join(dir, name))
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
	a, b := t.TempDir(), t.TempDir()
	var allOut, allErr bytes.Buffer
	if code := runWith(append([]string{"build", "-o", a}, boards...), &allOut, &allErr); code != exitOK {
		t.Fatalf("boardc build of the BSP: exit %d\n%s", code, allErr.String())
	}
	var seqOut, seqErr bytes.Buffer
	for _, board := range boards {
		if code := runWith([]string{"build", "-o", b, board}, &seqOut, &seqErr); code != exitOK {
			t.Fatalf("boardc build %s: exit %d\n%s", board, code, seqErr.String())
		}
	}
	if diff := cmp.Diff(readTree(t, b), readTree(t, a)); diff != "" {
		t.Errorf("one call for the BSP differs from one call per board (-per-board +all):\n%s", diff)
	}
	if diff := cmp.Diff(seqErr.String(), allErr.String()); diff != "" {
		t.Errorf("diagnostics differ (-per-board +all):\n%s", diff)
	}
}
