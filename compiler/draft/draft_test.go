package draft_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/draft"
	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/internal/golden"
	"boardc.dev/boardc/internal/testtool"
	"boardc.dev/boardc/outputs"
)

// tinyDraft imports testdata/tiny.dts and returns the draft's files as
// boardc import writes them (formatted).
func tinyDraft(t *testing.T) []outputs.File {
	t.Helper()
	testtool.Look(t, "dtc", "device-tree-compiler")
	out, err := exec.Command("dtc", "-q", "-I", "dts", "-O", "dtb", "-@", "-o", "-", "testdata/tiny.dts").Output()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := basetree.Read(out, "tiny.dts")
	if err != nil {
		t.Fatal(err)
	}
	d, err := draft.Generate(tree, draft.Options{Source: "arch/arm64/boot/dts/vendor/tiny.dts", DTS: "arch/arm64/boot/dts/vendor/tiny.dts", Module: "boardc.dev/boards"})
	if err != nil {
		t.Fatal(err)
	}
	var files []outputs.File
	for _, f := range d.Files {
		formatted, err := load.Format(f.Data)
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		files = append(files, outputs.File{Path: f.Path, Data: formatted})
	}
	return files
}

// TestGolden compares the draft of the tiny tree with the committed one
// (BOARDC_UPDATE=1 rewrites it); the draft is deterministic and cue
// fmt-clean: the same tree gives the same bytes, which formatting again
// does not change.
func TestGolden(t *testing.T) {
	files := tinyDraft(t)
	again := tinyDraft(t)
	for i, f := range files {
		if !bytes.Equal(f.Data, again[i].Data) {
			t.Errorf("%s differs between two imports of the same tree", f.Path)
		}
		re, err := load.Format(f.Data)
		if err != nil || !bytes.Equal(re, f.Data) {
			t.Errorf("%s is not cue fmt-clean (%v)", f.Path, err)
		}
	}
	golden.Check(t, "testdata/tiny", files)
}

// TestVetListsMissing builds the draft as it is: boardc vet must list
// exactly the facts a tree cannot give that a description requires, the
// DMA widths of the masters, each at its master.
func TestVetListsMissing(t *testing.T) {
	files := tinyDraft(t)
	td := testdataDir(t)
	mod := t.TempDir()
	write(t, filepath.Join(mod, "cue.mod", "module.cue"), []byte("module: \"boardc.dev/boards@v0\"\nlanguage: version: \"v0.17.0\"\n"))
	for _, f := range files {
		write(t, filepath.Join(mod, f.Path), f.Data)
	}
	t.Setenv("CUE_REGISTRY", "none")
	t.Chdir(mod)
	c, err := boardc.New()
	if err != nil {
		t.Fatal(err)
	}
	r := c.Compile("tiny", boardc.Options{})
	var got strings.Builder
	if err := r.Diagnostics.WriteText(&got); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(td, "tiny.vet"))
	if golden.Update() {
		write(t, filepath.Join(td, "tiny.vet"), []byte(got.String()))
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("vet on the draft (-want +got):\n%s", diff)
	}
}

// testdataDir is this package's testdata, as an absolute path.
func testdataDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestSoCName pins the SoC names the draft takes from root compatibles
// of the reference boards.
func TestSoCName(t *testing.T) {
	for _, tc := range []struct {
		board  string
		compat []string
		want   string
	}{
		{"armada-3720-espressobin", []string{"globalscale,espressobin", "marvell,armada3720", "marvell,armada3710"}, "armada3720"},
		{"armada-8040-mcbin", []string{"marvell,armada8040-mcbin-doubleshot", "marvell,armada8040-mcbin", "marvell,armada8040", "marvell,armada-ap806-quad", "marvell,armada-ap806"}, "armada8040"},
		{"fsl-ls2088a-rdb", []string{"fsl,ls2088a-rdb", "fsl,ls2088a"}, "ls2088a"},
		{"bcm2711-rpi-4-b", []string{"raspberrypi,4-model-b", "brcm,bcm2711"}, "bcm2711"},
		{"tiny", []string{"vendor,tiny"}, "tiny"},
	} {
		if got := draft.SoCName(tc.compat, tc.board); got != tc.want {
			t.Errorf("%s %v: SoC %q, want %q", tc.board, tc.compat, got, tc.want)
		}
	}
}
