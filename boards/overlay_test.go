package boards_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/compiler"
	"boardc.dev/boardc/internal/fdt"
	"boardc.dev/boardc/internal/testtool"
	"boardc.dev/boardc/outputs/dts"
)

// overlay returns the board's generated .dtso.
func overlay(t *testing.T, r *compiler.Result) []byte {
	t.Helper()
	for _, f := range r.Files {
		if f.Path == r.Board.Name+".dtso" {
			return f.Data
		}
	}
	t.Fatalf("no overlay for %s", r.Board.Name)
	return nil
}

// run runs a command and returns its stderr, failing the test when it
// exits non-zero.
func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return stderr.String()
}

// TestOverlayApply compiles each board's base tree and its overlay with
// dtc -@, applies the overlay with fdtoverlay, and checks the result as
// TestDTCBase checks the fragment: dtc prints nothing, dma-coherent is on
// exactly the masters the description makes coherent, every declared
// dma-ranges has the declared cells, and the cell counts the overlay
// restates are those of the base tree.
func TestOverlayApply(t *testing.T) {
	dtcBin := testtool.Look(t, "dtc", "device-tree-compiler")
	fdtoverlay := testtool.Look(t, "fdtoverlay", "device-tree-compiler")
	for _, dir := range boardDirs(t) {
		t.Run(dir, func(t *testing.T) {
			r := compile(t, dir)
			tmp := t.TempDir()
			src := filepath.Join(tmp, "overlay.dtso")
			if err := os.WriteFile(src, overlay(t, r), 0o644); err != nil {
				t.Fatal(err)
			}
			baseDTB := filepath.Join(tmp, "base.dtb")
			ovlDTB := filepath.Join(tmp, "overlay.dtbo")
			outDTB := filepath.Join(tmp, "out.dtb")
			if s := run(t, dtcBin, "-@", "-I", "dts", "-O", "dtb", "-o", baseDTB, filepath.Join(dir, "testdata", "base.dts")); s != "" {
				t.Errorf("dtc printed on the base tree:\n%s", s)
			}
			if s := run(t, dtcBin, "-@", "-I", "dts", "-O", "dtb", "-o", ovlDTB, src); s != "" {
				t.Errorf("dtc printed on the overlay:\n%s", s)
			}
			if s := run(t, fdtoverlay, "-i", baseDTB, "-o", outDTB, ovlDTB); s != "" {
				t.Errorf("fdtoverlay printed:\n%s", s)
			}
			base, err := fdt.Parse(readFile(t, baseDTB))
			if err != nil {
				t.Fatal(err)
			}
			tree, err := fdt.Parse(readFile(t, outDTB))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(coherentPaths(r.Board), tree.WithProperty("dma-coherent")); diff != "" {
				t.Errorf("dma-coherent nodes (-want +got):\n%s", diff)
			}
			for _, bus := range r.Board.SoC.Buses {
				for _, p := range []string{"#address-cells", "#size-cells"} {
					if diff := cmp.Diff(base.Cells(bus.Node.Path, p), tree.Cells(bus.Node.Path, p)); diff != "" {
						t.Errorf("%s %s changed by the overlay (-base +applied):\n%s", bus.Node.Path, p, diff)
					}
				}
				if len(bus.DMARanges) == 0 {
					continue
				}
				pa, _ := r.Board.SoC.ParentCells(bus)
				var want []string
				for _, rg := range bus.DMARanges {
					want = append(want, dts.Cells(rg.Child, bus.AddressCells)...)
					want = append(want, dts.Cells(rg.Parent, pa)...)
					want = append(want, dts.Cells(rg.Size, bus.SizeCells)...)
				}
				var got []string
				for _, c := range tree.Cells(bus.Node.Path, "dma-ranges") {
					got = append(got, strings.Join(dts.Cells(uint64(c), 1), ""))
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s dma-ranges (-want +got):\n%s", bus.Node.Path, diff)
				}
			}
		})
	}
}
