package boards_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/internal/fdt"
	"boardc.dev/boardc/internal/testtool"
)

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
			data := overlay(t, r)
			if data == nil {
				return
			}
			if err := os.WriteFile(src, data, 0o644); err != nil {
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
			checkTree(t, r.Board, tree)
			for _, bus := range r.Board.SoC.Buses {
				for _, p := range []string{"#address-cells", "#size-cells"} {
					if diff := cmp.Diff(base.Cells(bus.Node.Path, p), tree.Cells(bus.Node.Path, p)); diff != "" {
						t.Errorf("%s %s changed by the overlay (-base +applied):\n%s", bus.Node.Path, p, diff)
					}
				}
			}
		})
	}
}
