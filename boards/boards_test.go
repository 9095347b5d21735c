// Package boards_test builds every in-tree board and checks its outputs:
// against the committed expected files, with dtc over a base tree holding
// the board's upstream labels and paths, and, where the shared reference
// trees are present, after the board's real upstream .dts.
package boards_test

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/fdt"
	"boardc.dev/boardc/internal/golden"
	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/outputs/dts"
)

// boardDirs returns the directories of the in-tree boards.
func boardDirs(t *testing.T) []string { return intree.Dirs(t, ".") }

// compile compiles an in-tree board once for the whole test binary.
func compile(t *testing.T, dir string) *boardc.Result { return intree.Compile(t, dir) }

// TestGolden compares each board's outputs with boards/<board>/expected.
// The goldens show what is the board's own: tune.sh's golden holds the
// board's lines and one marker line for the library every tune.sh ends
// with (golden.TuneLibrary), after the comparison checked that the real
// tune.sh appends the library byte for byte; manifest.json's golden holds
// a marker for tune.sh's digest, after the comparison checked that the
// digest is the real file's. The library comes after every line that has
// an origin, so the line numbers the manifest pins are the board's own
// and do not move with it. A change to the library thus changes no
// board's golden files.
func TestGolden(t *testing.T) {
	for _, dir := range boardDirs(t) {
		t.Run(dir, func(t *testing.T) {
			r := compile(t, dir)
			golden.Check(t, filepath.Join(dir, "expected"), r.Files, golden.WithTail(golden.TuneLibrary))
		})
	}
}

// coherentPaths returns the node paths the description makes coherent.
func coherentPaths(b *ir.Board) []string {
	var out []string
	for _, m := range b.SoC.Masters {
		if m.Coherent() {
			out = append(out, m.Node.Path)
		}
	}
	sort.Strings(out)
	return out
}

// TestReferenceBoards asserts what the reference boards need of their
// fragments. On qemu-virt the rng transport opts out of the coherent root
// bus, so only vnet and the PCIe host bridge are coherent.
func TestReferenceBoards(t *testing.T) {
	for _, tc := range []struct {
		dir  string
		want []string
	}{
		{"espressobin", []string{"/soc/bus@d0000000/crypto@90000"}},
		{"mirabox", nil},
		{"ls2088a-rdb", []string{
			"/soc/crypto@8000000", "/soc/fsl-mc@80c000000", "/soc/iommu@5000000",
			"/soc/pcie@3400000", "/soc/pcie@3500000", "/soc/pcie@3600000", "/soc/pcie@3700000",
			"/soc/sata@3200000", "/soc/sata@3210000",
		}},
		{"qemu-virt", []string{"/pcie@10000000", "/virtio_mmio@a003e00"}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			r := compile(t, tc.dir)
			if diff := cmp.Diff(tc.want, coherentPaths(r.Board)); diff != "" {
				t.Errorf("coherent masters (-want +got):\n%s", diff)
			}
		})
	}
}

// output returns the generated file name of the board's result.
func output(t *testing.T, r *boardc.Result, name string) []byte {
	t.Helper()
	for _, f := range r.Files {
		if f.Path == name {
			return f.Data
		}
	}
	t.Fatalf("%s: no output %s", r.Board.Name, name)
	return nil
}

// overlay returns the board's .dtso, or nil for a board whose fragment
// deletes a property: an overlay cannot, so it checks that none was
// written (check BC0105), and the caller has no overlay to test.
func overlay(t *testing.T, r *boardc.Result) []byte {
	t.Helper()
	deletes := r.Board.SoC.OverlayDeletes()
	for _, f := range r.Files {
		if f.Path == r.Board.Name+".dtso" {
			if len(deletes) > 0 {
				t.Fatalf("%s: a .dtso was written, but master %s's opt-out deletes dma-coherent, which an overlay cannot", r.Board.Name, deletes[0].Key)
			}
			return f.Data
		}
	}
	if len(deletes) == 0 {
		t.Fatalf("%s: no output %s.dtso", r.Board.Name, r.Board.Name)
	}
	t.Logf("%s: no overlay, as it must be: master %s's opt-out deletes dma-coherent (BC0105)", r.Board.Name, deletes[0].Key)
	return nil
}

// checkTree asserts that a built tree carries dma-coherent exactly on the
// masters the description makes coherent, and each declared dma-ranges
// with the declared cells.
func checkTree(t *testing.T, b *ir.Board, tree fdt.Tree) {
	t.Helper()
	if diff := cmp.Diff(coherentPaths(b), tree.WithProperty("dma-coherent")); diff != "" {
		t.Errorf("dma-coherent nodes (-want +got):\n%s", diff)
	}
	for _, bus := range b.SoC.Buses {
		if len(bus.DMARanges) == 0 {
			continue
		}
		pa, _ := b.SoC.ParentCells(bus)
		var want []string
		for _, rg := range bus.DMARanges {
			want = append(want, dts.Cells(rg.Child, bus.AddressCells)...)
			want = append(want, dts.Cells(rg.Parent, pa)...)
			want = append(want, dts.Cells(rg.Size, bus.SizeCells)...)
		}
		var got []string
		for _, c := range tree.Cells(bus.Node.Path, "dma-ranges") {
			got = append(got, dts.Cells(uint64(c), 1)[0])
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s dma-ranges (-want +got):\n%s", bus.Node.Path, diff)
		}
	}
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
