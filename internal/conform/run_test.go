package conform

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/testtool"
)

// mini lays out testdata/mini as a kernel tree's arm64 device trees in
// a temporary directory and returns it as a Corpus of those boards.
func mini(t *testing.T, boards ...string) *Corpus {
	t.Helper()
	testtool.Look(t, "cpp", "cpp")
	testtool.Look(t, "dtc", "device-tree-compiler")
	t.Setenv("CUE_REGISTRY", "none")
	root := t.TempDir()
	if err := os.CopyFS(filepath.Join(root, filepath.FromSlash(DTSDir)), os.DirFS("testdata/mini")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(basetree.IncludePrefixes)), 0o755); err != nil {
		t.Fatal(err)
	}
	return &Corpus{Root: root, Boards: boards}
}

// outcomes returns each stage's outcome as "stage: ok", "stage: -" or
// "stage: cause; cause".
func outcomes(r Result) []string {
	var out []string
	for s, o := range r.Stages {
		switch {
		case !o.Ran:
			out = append(out, Stage(s).String()+": -")
		case o.Pass && Stage(s) != Fill && Stage(s) != BSP:
			out = append(out, Stage(s).String()+": ok")
		default:
			out = append(out, Stage(s).String()+": "+strings.Join(o.Causes, "; "))
		}
	}
	return out
}

// TestRun takes the boards of testdata/mini through the stages: one
// passes all, one fails to compile.
func TestRun(t *testing.T) {
	cp := mini(t, "v/good.dts", "v/bad.dts")
	run, err := cp.Run(cp.Boards, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"v/good.dts": {"compile: ok", "import: ok", "coherent: ok", "fill: DMA widths", "vet: ok", "build: ok", "bsp: on its SoC", "roundtrip: ok"},
		"v/bad.dts": {"compile: dtc failed (exit status N): Error: FILE syntax error; FATAL ERROR: Unable to parse input tree",
			"import: -", "coherent: -", "fill: -", "vet: -", "build: -", "bsp: -", "roundtrip: -"},
	}
	for _, r := range run.Results {
		if diff := cmp.Diff(want[r.Board], outcomes(r)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", r.Board, diff)
		}
	}
	if got := CountsOf(run.Results).Pass; got["compile"] != 1 || got["roundtrip"] != 1 || got["bsp"] != 1 {
		t.Errorf("pass counts %v", got)
	}
}

// TestRunRecovers makes a board panic at one stage and hang at another:
// the run records each as its failure's cause and goes on.
func TestRunRecovers(t *testing.T) {
	cp := mini(t, "v/good.dts")
	defer func() { reachHook = nil }()
	reachHook = func(board string, s Stage) {
		if s == Vet {
			panic("boom")
		}
	}
	run, err := cp.Run(cp.Boards, Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"compile: ok", "import: ok", "coherent: panic: boom", "fill: DMA widths",
		"vet: panic: boom", "build: -", "bsp: -", "roundtrip: -"}
	if diff := cmp.Diff(want, outcomes(run.Results[0])); diff != "" {
		t.Errorf("a panic (-want +got):\n%s", diff)
	}

	release := make(chan struct{})
	defer close(release)
	reachHook = func(board string, s Stage) {
		if s == RoundTrip {
			<-release
		}
	}
	run, err = cp.Run(cp.Boards, Options{Workers: 1, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"compile: ok", "import: ok", "coherent: ok", "fill: DMA widths", "vet: ok", "build: ok",
		"bsp: on its SoC", "roundtrip: timeout after 2s"}
	if diff := cmp.Diff(want, outcomes(run.Results[0])); diff != "" {
		t.Errorf("a hang (-want +got):\n%s", diff)
	}
}

// TestCoherent compares descriptions with testdata/mini/v/ancestor.dts,
// whose dma-coherent is on the bus: of_dma_is_coherent() finds it from
// the USB controller below.
func TestCoherent(t *testing.T) {
	testtool.Look(t, "dtc", "device-tree-compiler")
	tree, err := basetree.Compile{DTS: "testdata/mini/v/ancestor.dts"}.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	coherentBus := &ir.Bus{Key: "soc", Coherency: ir.BusCoherency{Coherent: true, Masters: ir.ScopeVerified}}
	verified := &ir.MasterCoherency{Coherent: true}
	for _, c := range []struct {
		name    string
		masters []*ir.Master
		want    []string
	}{
		{"the bus as the master", []*ir.Master{{Key: "soc", Node: ir.Node{Path: "/soc"}, Bus: coherentBus, Coherency: verified}}, nil},
		{"both by their labels", []*ir.Master{
			{Key: "soc", Node: ir.Node{Label: "soc"}, Bus: coherentBus, Coherency: verified},
			{Key: "usb0", Node: ir.Node{Label: "usb0"}, Bus: coherentBus, Coherency: verified},
		}, nil},
		// The bus's flag covers more than the controller.
		{"the controller alone", []*ir.Master{{Key: "usb0", Node: ir.Node{Label: "usb0"}, Bus: coherentBus, Coherency: verified}},
			[]string{"a node with dma-coherent that is no coherent master of the draft, nor below one"}},
		{"the controller, not coherent", []*ir.Master{{Key: "usb0", Node: ir.Node{Path: "/soc/usb@1000"}, Bus: coherentBus}},
			[]string{"coherent upstream by an ancestor's dma-coherent, not in the draft", "a node with dma-coherent that is no coherent master of the draft, nor below one"}},
		{"a node not in the tree", []*ir.Master{{Key: "gpu", Node: ir.Node{Path: "/soc/gpu@0"}, Bus: coherentBus, Coherency: verified}},
			[]string{"a master not in the tree", "a node with dma-coherent that is no coherent master of the draft, nor below one"}},
	} {
		var r Result
		coherent(&r, &ir.Board{SoC: ir.SoC{Masters: c.masters}}, tree)
		if o := r.Stages[Coherent]; o.Pass != (c.want == nil) || !cmp.Equal(c.want, o.Causes, cmpopts.EquateEmpty()) {
			t.Errorf("%s: pass %v, causes %q; want %q", c.name, o.Pass, o.Causes, c.want)
		}
	}
}

func TestExamples(t *testing.T) {
	boards := []string{"a/1.dts", "a/2.dts", "a/3.dts", "b/1.dts", "c/1.dts", "c/2.dts"}
	for _, c := range []struct {
		n    int
		want []string
	}{
		{2, []string{"a/1.dts", "b/1.dts"}},
		{4, []string{"a/1.dts", "b/1.dts", "c/1.dts", "a/2.dts"}},
		{9, []string{"a/1.dts", "b/1.dts", "c/1.dts", "a/2.dts", "a/3.dts", "c/2.dts"}},
	} {
		if diff := cmp.Diff(c.want, examples(boards, c.n)); diff != "" {
			t.Errorf("examples(%d) (-want +got):\n%s", c.n, diff)
		}
	}
}
