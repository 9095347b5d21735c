package integrations

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

// espressobinDTS are the ESPRESSObin device trees of Linux
// (arch/arm64/boot/dts/marvell/, v7.1): each includes
// armada-3720-espressobin.dtsi.
var espressobinDTS = []string{
	"marvell/armada-3720-espressobin",
	"marvell/armada-3720-espressobin-emmc",
	"marvell/armada-3720-espressobin-v7",
	"marvell/armada-3720-espressobin-v7-emmc",
	"marvell/armada-3720-espressobin-ultra",
}

// espressobinKernel makes a kernel tree whose arm64 device trees are
// espressobinDTS, each holding text. It returns the tree and its
// arch/arm64/boot/dts.
func espressobinKernel(t *testing.T, text string) (kernel, dts string) {
	t.Helper()
	kernel = t.TempDir()
	dts = filepath.Join(kernel, "arch", "arm64", "boot", "dts")
	for _, d := range espressobinDTS {
		p := filepath.Join(dts, d+".dts")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return kernel, dts
}

// TestBuildrootDTSInclude runs the kernel extension's script on a kernel
// tree with every ESPRESSObin device tree: each must end by including
// the board's fragment, once however often the hook runs, and the
// fragment beside them must be a link to boardc's .dtsi.
func TestBuildrootDTSInclude(t *testing.T) {
	script := filepath.Join(brTree, "package", "boardc-tune", "boardc-tune-dts")
	out, name := boardOutput(t, "espressobin")
	_, dts := espressobinKernel(t, "/dts-v1/;\n#include \"armada-3720-espressobin.dtsi\"\n")
	for range 2 {
		for _, d := range espressobinDTS {
			run(t, ".", nil, script, out, filepath.Join(dts, d+".dts"))
		}
	}
	for _, d := range espressobinDTS {
		got := readFile(t, filepath.Join(dts, d+".dts"))
		want := "/dts-v1/;\n#include \"armada-3720-espressobin.dtsi\"\n\n#include \"boardc-" + name + ".dtsi\"\n"
		if got != want {
			t.Errorf("%s.dts after the hook ran twice:\n%s\nwant:\n%s", d, got, want)
		}
	}
	// A link to boardc's output, so that the kernel builds what boardc
	// compiled last.
	link := filepath.Join(dts, "marvell", "boardc-"+name+".dtsi")
	abs, _ := filepath.Abs(filepath.Join(out, name, name+".dtsi"))
	if got, err := os.Readlink(link); err != nil || got != abs {
		t.Errorf("the fragment in the kernel tree: link to %q (%v), want %s", got, err, abs)
	}

	cmd := exec.Command(script, out, filepath.Join(dts, "marvell", "armada-3720-missing.dts"))
	msg, err := cmd.CombinedOutput()
	want := "boardc-tune: " + filepath.Join(dts, "marvell", "armada-3720-missing.dts") + ": no such device tree in the kernel\n"
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || string(msg) != want {
		t.Errorf("missing device tree: %v %q, want exit 1 and %q", err, msg, want)
	}
}

// TestBuildrootDTSOverlay runs the script's overlay form: the board's
// .dtso lands where the kernel builds it, and a board without an
// overlay (qemu-virt, BC0105) stops the build saying so.
func TestBuildrootDTSOverlay(t *testing.T) {
	script := filepath.Join(brTree, "package", "boardc-tune", "boardc-tune-dts")
	out, name := boardOutput(t, "espressobin")
	dir := filepath.Join(t.TempDir(), "marvell")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "boardc-"+name+".dtso")
	run(t, ".", nil, script, "--overlay", out, dst)
	abs, _ := filepath.Abs(filepath.Join(out, name, name+".dtso"))
	if got, err := os.Readlink(dst); err != nil || got != abs {
		t.Errorf("the overlay in the kernel tree: link to %q (%v), want %s", got, err, abs)
	}

	out, _ = boardOutput(t, "qemu-virt")
	cmd := exec.Command(script, "--overlay", out, filepath.Join(dir, "boardc-qemu-virt.dtso"))
	msg, err := cmd.CombinedOutput()
	want := "boardc-tune: board qemu-virt has no overlay (a fragment that deletes a property cannot be one): include the fragment instead\n"
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || string(msg) != want {
		t.Errorf("qemu-virt overlay: %v %q, want exit 1 and %q", err, msg, want)
	}
}

// TestBuildrootDTSCompiles runs the hook on the upstream device tree of
// every in-tree board that names one, in a copy of its upstream
// directory, and builds it the way kbuild does: the properties the
// fragment sets must be in the DTB.
func TestBuildrootDTSCompiles(t *testing.T) {
	shared := testtool.RequireShared(t, root)
	testtool.Look(t, "dtc", "device-tree-compiler")
	testtool.Look(t, "cpp", "cpp")
	testtool.DTBindings(t)
	up := filepath.Join(shared, "upstream-dts")
	script := filepath.Join(brTree, "package", "boardc-tune", "boardc-tune-dts")
	for _, dir := range inTreeBoards(t) {
		t.Run(dir, func(t *testing.T) {
			out, name := boardOutput(t, dir)
			board := compiledBoard(t, dir)
			if board.DTS == "" {
				t.Skipf("%s names no upstream .dts", name)
			}
			src := filepath.Join(up, board.DTS)
			rel := strings.TrimPrefix(board.DTS, "arch/")
			kdir := filepath.Join(t.TempDir(), filepath.Dir(rel))
			testtool.CopyFiles(t, filepath.Dir(src), kdir)
			hooked := filepath.Join(kdir, filepath.Base(src))
			run(t, ".", nil, script, out, hooked)

			comp := filepath.Join(t.TempDir(), "composed.dts")
			if err := os.WriteFile(comp, []byte("#include \""+src+"\"\n#include \""+filepath.Join(out, name, name+".dtsi")+"\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			got, want := compileDTB(t, up, hooked), compileDTB(t, up, comp)
			if !bytes.Equal(got, want) {
				t.Errorf("the hooked %s does not build the DTB of the upstream tree with the fragment included at its end", board.DTS)
			}
			// The control: on the ESPRESSObin the fragment adds the
			// EIP97's dma-coherent, so the unhooked tree must differ.
			if name == "espressobin" {
				base, err := fdt.Parse(compileDTB(t, up, src))
				if err != nil {
					t.Fatal(err)
				}
				tree, err := fdt.Parse(got)
				if err != nil {
					t.Fatal(err)
				}
				if cmp.Equal(base.WithProperty("dma-coherent"), tree.WithProperty("dma-coherent")) {
					t.Error("the hooked ESPRESSObin tree has the upstream dma-coherent nodes: the fragment did not take")
				}
			}
		})
	}
}

// compileDTB builds dts with the shared compile.sh and returns the DTB.
func compileDTB(t *testing.T, up, dts string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out.dtb")
	testtool.CompileDTS(t, up, dts, out, "")
	return []byte(readFile(t, out))
}
