package draft_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/check"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// TestDynamIQ imports a tree whose cpu-map cluster holds three core
// types: the draft keeps it one cluster, the first CPU's core as core and
// the others in cores, and, with the DMA width added, vets clean against
// the tree it came from, each CPU's core that of its node.
func TestDynamIQ(t *testing.T) {
	files := importDTS(t, "dynamiq.dts")
	var soc string
	for _, f := range files {
		if strings.HasPrefix(f.Path, "soc/") {
			soc = string(f.Data)
		}
	}
	want := `	cpus: clusters: [
		{
			core: "arm,cortex-a510"
			cpus: [0, 1, 2, 3, 4]
			cores: {
				"arm,cortex-a715": [2]
				"arm,cortex-x3": [4]
			}
		},
		{core: "arm,cortex-a55", cpus: [5]},
	]
`
	if !strings.Contains(soc, want) {
		t.Errorf("the SoC draft has no\n%s\nin:\n%s", want, soc)
	}
	tree := treeOf(t, "dynamiq.dts")
	r := compileDraftWith(t, files, "dynamiq", "package dynamiq\n\nsoc: masters: [_]: dma: streaming: 32\n",
		boardc.Options{BaseTree: func(*ir.Board) (*basetree.Tree, error) { return tree, nil }})
	if r.Diagnostics.HasErrors() {
		var b strings.Builder
		_ = r.Diagnostics.WriteText(&b)
		t.Fatalf("the draft does not vet against its tree:\n%s", b.String())
	}
	var got []string
	for _, c := range r.Board.SoC.Clusters {
		for _, cpu := range c.CPUs {
			got = append(got, fmt.Sprintf("%d %s", cpu, c.CoreOf(cpu)))
		}
	}
	wantCores := []string{"0 arm,cortex-a510", "1 arm,cortex-a510", "2 arm,cortex-a715", "3 arm,cortex-a510", "4 arm,cortex-x3", "5 arm,cortex-a55"}
	if !cmp.Equal(got, wantCores) {
		t.Errorf("cores (-want +got):\n%s", cmp.Diff(wantCores, got))
	}
}

// TestNoCPUs imports a tree with no /cpus: the draft says so in a TODO,
// writes an empty cluster list and, with the DMA width added, vets clean
// against the tree with zero CPUs.
func TestNoCPUs(t *testing.T) {
	files := importDTS(t, "nocpus.dts")
	var soc string
	for _, f := range files {
		if strings.HasPrefix(f.Path, "soc/") {
			soc = string(f.Data)
		}
	}
	for _, want := range []string{"// TODO cpus: the tree has no CPU nodes", "\tcpus: clusters: []\n"} {
		if !strings.Contains(soc, want) {
			t.Errorf("the SoC draft has no %q:\n%s", want, soc)
		}
	}
	tree := treeOf(t, "nocpus.dts")
	// Against the tree alone: no driver-facts catalogue (the driver
	// checks are not this test's).
	r := compileDraftWith(t, files, "nocpus", "package nocpus\n\nsoc: masters: [_]: dma: streaming: 32\n",
		boardc.Options{BaseTree: func(*ir.Board) (*basetree.Tree, error) { return tree, nil }, Kernel: &check.Catalogs{}})
	if len(r.Diagnostics) > 0 {
		var b strings.Builder
		_ = r.Diagnostics.WriteText(&b)
		t.Fatalf("the draft has diagnostics against its tree:\n%s", b.String())
	}
	if n := r.Board.SoC.NumCPUs(); n != 0 {
		t.Errorf("%d CPUs, want 0", n)
	}
}

// treeOf compiles testdata/NAME and reads it.
func treeOf(t *testing.T, name string) *basetree.Tree {
	t.Helper()
	out, err := exec.Command("dtc", "-q", "-I", "dts", "-O", "dtb", "-@", "-o", "-", filepath.Join("testdata", name)).Output()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := basetree.Read(out, name)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// compileDraftWith writes files as a CUE module, adds facts to the
// board's package as facts.cue and compiles the board with opts.
func compileDraftWith(t *testing.T, files []outputs.File, board, facts string, opts boardc.Options) *boardc.Result {
	t.Helper()
	mod := t.TempDir()
	write(t, filepath.Join(mod, "cue.mod", "module.cue"), []byte("module: \"boardc.dev/boards@v0\"\nlanguage: version: \"v0.17.0\"\n"))
	for _, f := range files {
		write(t, filepath.Join(mod, f.Path), f.Data)
	}
	write(t, filepath.Join(mod, board, "facts.cue"), []byte(facts))
	t.Setenv("CUE_REGISTRY", "none")
	t.Chdir(mod)
	c, err := boardc.New()
	if err != nil {
		t.Fatal(err)
	}
	return c.Compile(board, opts)
}
