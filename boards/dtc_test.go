package boards_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"boardc.dev/boardc/internal/fdt"
	"boardc.dev/boardc/internal/testtool"
)

// dtc compiles src to a dtb and returns the parsed tree and dtc's stderr.
func dtc(t *testing.T, bin, src string) (fdt.Tree, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out.dtb")
	cmd := exec.Command(bin, "-I", "dts", "-O", "dtb", "-o", out, src)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("dtc %s: %v\n%s", src, err, stderr.String())
	}
	tree, err := fdt.Parse(readFile(t, out))
	if err != nil {
		t.Fatal(err)
	}
	return tree, stderr.String()
}

// TestDTCBase applies each fragment over the board's base tree (its
// upstream labels, paths and cell counts): dtc must print nothing, and the
// dtb must carry dma-coherent exactly on the masters the description makes
// coherent, and each declared dma-ranges with the declared cells.
func TestDTCBase(t *testing.T) {
	bin := testtool.Look(t, "dtc", "device-tree-compiler")
	for _, dir := range boardDirs(t) {
		t.Run(dir, func(t *testing.T) {
			r := compile(t, dir)
			tmp := t.TempDir()
			frag := filepath.Join(tmp, "fragment.dtsi")
			if err := os.WriteFile(frag, output(t, r, r.Board.Name+".dtsi"), 0o644); err != nil {
				t.Fatal(err)
			}
			base := readFile(t, filepath.Join(dir, "testdata", "base.dts"))
			src := filepath.Join(tmp, "board.dts")
			wrapped := string(base) + "\n/include/ \"" + frag + "\"\n"
			if err := os.WriteFile(src, []byte(wrapped), 0o644); err != nil {
				t.Fatal(err)
			}
			tree, stderr := dtc(t, bin, src)
			if stderr != "" {
				t.Errorf("dtc printed:\n%s", stderr)
			}
			checkTree(t, r.Board, tree)
		})
	}
}
