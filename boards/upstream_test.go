package boards_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/fdt"
	"boardc.dev/boardc/internal/testtool"
)

// TestUpstream includes each fragment after the board's real upstream .dts
// (Linux v7.1, from the shared reference trees) and builds it the way
// kbuild does. dtc must add no warning over the upstream baseline, and the
// dma-coherent nodes of the result must be those the description states,
// which must also be those of the reference: the upstream tree with the
// patches in patched-mvebu-dt64 applied (the 2026 EIP97 patch).
func TestUpstream(t *testing.T) {
	shared := testtool.RequireShared(t, "..")
	testtool.Look(t, "dtc", "device-tree-compiler")
	testtool.Look(t, "cpp", "cpp")
	testtool.DTBindings(t)
	up := filepath.Join(shared, "upstream-dts")
	for _, dir := range boardDirs(t) {
		t.Run(dir, func(t *testing.T) {
			r := compile(t, dir)
			if r.Board.DTS == "" {
				// QEMU's virt: its tree is the machine's own, which
				// scripts/target-test.sh builds on instead.
				t.Logf("%s names no upstream .dts: nothing to build here", r.Board.Name)
				return
			}
			dts := filepath.Join(up, r.Board.DTS)
			if _, err := os.Stat(dts); err != nil {
				t.Fatalf("%s not in the shared trees: every in-tree board with a dts must be there", r.Board.DTS)
			}
			tmp := t.TempDir()

			// The reference: the upstream directory with its patches
			// applied (patched-mvebu-dt64 holds the directories it patches).
			ref := filepath.Join(tmp, "ref")
			testtool.CopyFiles(t, filepath.Dir(dts), ref)
			if patched := filepath.Join(up, "patched-mvebu-dt64", filepath.Dir(r.Board.DTS)); isDir(patched) {
				testtool.CopyFiles(t, patched, ref)
			}
			refTree, _ := compileDTS(t, up, filepath.Join(ref, filepath.Base(dts)))

			_, baseLog := compileDTS(t, up, dts)

			frag := filepath.Join(tmp, "fragment.dtsi")
			if err := os.WriteFile(frag, output(t, r, r.Board.Name+".dtsi"), 0o644); err != nil {
				t.Fatal(err)
			}
			board := filepath.Join(tmp, "board.dts")
			src := "#include \"" + dts + "\"\n#include \"" + frag + "\"\n"
			if err := os.WriteFile(board, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			tree, log := compileDTS(t, up, board)

			if diff := cmp.Diff(warnings(baseLog), warnings(log)); diff != "" {
				t.Errorf("dtc warnings over the upstream baseline (-upstream +with fragment):\n%s", diff)
			}
			got := tree.WithProperty("dma-coherent")
			if diff := cmp.Diff(coherentPaths(r.Board), got); diff != "" {
				t.Errorf("dma-coherent nodes vs the description (-description +dtb):\n%s", diff)
			}
			if diff := cmp.Diff(refTree.WithProperty("dma-coherent"), got); diff != "" {
				t.Errorf("dma-coherent nodes vs the patched upstream reference (-reference +dtb):\n%s", diff)
			}

			// The overlay, applied by fdtoverlay onto the upstream dtb built
			// with symbols, gives the same result.
			upDTB := filepath.Join(tmp, "upstream.dtb")
			testtool.CompileDTS(t, up, dts, upDTB, "-@")
			dtso := filepath.Join(tmp, "overlay.dtso")
			data := overlay(t, r)
			if data == nil {
				return
			}
			if err := os.WriteFile(dtso, data, 0o644); err != nil {
				t.Fatal(err)
			}
			dtbo := filepath.Join(tmp, "overlay.dtbo")
			if stderr := run(t, "dtc", "-@", "-I", "dts", "-O", "dtb", "-o", dtbo, dtso); stderr != "" {
				t.Errorf("dtc on the overlay printed:\n%s", stderr)
			}
			applied := filepath.Join(tmp, "applied.dtb")
			if stderr := run(t, "fdtoverlay", "-i", upDTB, "-o", applied, dtbo); stderr != "" {
				t.Errorf("fdtoverlay printed:\n%s", stderr)
			}
			at, err := fdt.Parse(readFile(t, applied))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(refTree.WithProperty("dma-coherent"), at.WithProperty("dma-coherent")); diff != "" {
				t.Errorf("dma-coherent nodes after fdtoverlay vs the reference (-reference +applied):\n%s", diff)
			}
		})
	}
}

// TestBaseTree checks every in-tree board that names an upstream .dts
// against that tree (boardc vet --dts-root): the base-tree checks find no
// error and no warning. The in-tree descriptions state upstream's labels,
// paths, compatibles, cells, CPUs and status.
func TestBaseTree(t *testing.T) {
	testtool.Look(t, "dtc", "device-tree-compiler")
	testtool.Look(t, "cpp", "cpp")
	root, inc, _ := testtool.UpstreamTree(t, "..")
	c, err := boardc.New()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, dir := range boardDirs(t) {
		r := c.Compile(dir, boardc.Options{BaseTree: func(b *ir.Board) (*basetree.Tree, error) {
			if b.DTS == "" {
				return nil, nil
			}
			checked++
			return basetree.Compile{Root: root, DTS: b.DTS, Include: inc}.Build(context.Background())
		}})
		for _, d := range r.Diagnostics {
			if strings.HasPrefix(d.Code, "BC06") && d.Severity != diag.Info {
				t.Errorf("%s: %s", dir, d)
			}
		}
	}
	if checked < 3 {
		t.Errorf("%d boards checked against their upstream tree, want the 3 with a dts:", checked)
	}
}

// compileDTS builds a .dts with the shared compile.sh and returns the tree
// and dtc's log.
func compileDTS(t *testing.T, up, dts string) (fdt.Tree, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out.dtb")
	testtool.CompileDTS(t, up, dts, out, "")
	tree, err := fdt.Parse(readFile(t, out))
	if err != nil {
		t.Fatal(err)
	}
	return tree, string(readFile(t, strings.TrimSuffix(out, ".dtb")+".dtc.log"))
}

var warnLine = regexp.MustCompile(`Warning \(([a-z_]+)\): (.*)$`)

// warnings reduces a dtc log to its warnings without source positions
// (which move when the fragment is appended), sorted.
func warnings(log string) []string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if m := warnLine.FindStringSubmatch(l); m != nil {
			out = append(out, m[1]+": "+m[2])
		}
	}
	sort.Strings(out)
	return out
}

// isDir reports whether p is a directory.
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
