package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/outputs"
)

// fslMCBlock is how boards/soc/ls2088a states its Management Complex's
// masks, and fslMCBridge the same fact as bridge kind "fsl-mc".
const (
	fslMCBlock = `			dma:    streaming: 64
			iommu:  "smmu"
			driver: "fsl_mc_bus"
			driverSets: {
				source:   "drivers/bus/fsl-mc/fsl-mc-bus.c fsl_mc_device_add(): FSL_MC_DEFAULT_DMA_MASK (~0ULL), 64-bit streaming and coherent, on every non-DPRC object"
				children: true
			}
`
	fslMCBridge = `			iommu:  "smmu"
			driver: "fsl_mc_bus"
			bridge: {kind: "fsl-mc", source: "arch/arm64/boot/dts/freescale/fsl-ls208xa.dtsi fsl_mc: compatible fsl,qoriq-mc"}
`
)

// TestFSLMCBridge: LS2088A-RDB with its Management Complex described as
// bridge kind "fsl-mc" instead of dma and driverSets children gives the
// same target plan and the same outputs, but for the comments that cite
// the description: the kind says the facts the other spelling states.
func TestFSLMCBridge(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "boards")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(p, string(filepath.Separator)+"expected"+string(filepath.Separator)) {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if rel == filepath.Join("soc", "ls2088a", "ls2088a.cue") {
			if !strings.Contains(string(data), fslMCBlock) {
				t.Fatalf("%s no longer states fsl_mc's masks as this test expects", p)
			}
			data = []byte(strings.Replace(string(data), fslMCBlock, fslMCBridge, 1))
		}
		out := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CUE_REGISTRY", "none")
	was := intree.Compile(t, filepath.Join(src, "ls2088a-rdb"))
	now := intree.Compile(t, filepath.Join(dir, "ls2088a-rdb"))
	if d := now.Board.SoC.Masters; len(d) == 0 {
		t.Fatal("no masters")
	}
	var a, b strings.Builder
	if err := write(&a, was.Board); err != nil {
		t.Fatal(err)
	}
	if err := write(&b, now.Board); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a.String(), b.String()); diff != "" {
		t.Errorf("target plan (-driverSets +bridge):\n%s", diff)
	}
	files := func(r []outputs.File) map[string]string {
		m := map[string]string{}
		for _, f := range r {
			if f.Path == outputs.ManifestPath {
				continue
			}
			var keep []string
			for l := range strings.Lines(string(f.Data)) {
				if t := strings.TrimSpace(l); !strings.HasPrefix(t, "*") && !strings.HasPrefix(t, "/*") {
					keep = append(keep, l)
				}
			}
			m[f.Path] = strings.Join(keep, "")
		}
		return m
	}
	if diff := cmp.Diff(files(was.Files), files(now.Files)); diff != "" {
		t.Errorf("outputs but comments (-driverSets +bridge):\n%s", diff)
	}
}
