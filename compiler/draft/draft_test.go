package draft_test

import (
	"bytes"
	"fmt"
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
	return importDTS(t, "tiny.dts")
}

// importDTS imports testdata/NAME and returns the draft's files as boardc
// import writes them (formatted).
func importDTS(t *testing.T, name string) []outputs.File {
	t.Helper()
	testtool.Look(t, "dtc", "device-tree-compiler")
	out, err := exec.Command("dtc", "-q", "-I", "dts", "-O", "dtb", "-@", "-o", "-", filepath.Join("testdata", name)).Output()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := basetree.Read(out, name)
	if err != nil {
		t.Fatal(err)
	}
	src := "arch/arm64/boot/dts/vendor/" + name
	d, err := draft.Generate(tree, draft.Options{Source: src, DTS: src, Module: "boardc.dev/boards"})
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
	td := testdataDir(t)
	r := compileDraft(t, tinyDraft(t), "tiny", "")
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

// compileDraft writes files as a CUE module, adds facts (if any) to the
// board's package as facts.cue and compiles the board.
func compileDraft(t *testing.T, files []outputs.File, board, facts string) *boardc.Result {
	t.Helper()
	mod := t.TempDir()
	write(t, filepath.Join(mod, "cue.mod", "module.cue"), []byte("module: \"boardc.dev/boards@v0\"\nlanguage: version: \"v0.17.0\"\n"))
	for _, f := range files {
		write(t, filepath.Join(mod, f.Path), f.Data)
	}
	if facts != "" {
		write(t, filepath.Join(mod, board, "facts.cue"), []byte(facts))
	}
	t.Setenv("CUE_REGISTRY", "none")
	t.Chdir(mod)
	c, err := boardc.New()
	if err != nil {
		t.Fatal(err)
	}
	return c.Compile(board, boardc.Options{})
}

// TestStrings imports a tree whose strings need CUE's escaping and are
// valid for the schema (quotes, a backslash and non-ASCII in the model)
// and whose labels are CUE keywords: the draft, with the DMA widths a
// tree cannot give added, builds, its model reading back as the tree's
// and its keys the labels.
func TestStrings(t *testing.T) {
	r := compileDraft(t, importDTS(t, "text.dts"), "text", "package text\n\nsoc: masters: [_]: dma: streaming: 32\n")
	if r.Diagnostics.HasErrors() {
		var b strings.Builder
		_ = r.Diagnostics.WriteText(&b)
		t.Fatalf("the draft does not build:\n%s", b.String())
	}
	if want := "Vendor B\u00f6ard \"rev\" \\ 2\u20ac"; r.Board.Model != want {
		t.Errorf("model %q, want %q", r.Board.Model, want)
	}
	var got []string
	for _, m := range r.Board.SoC.Masters {
		got = append(got, fmt.Sprintf("%s %s bus %s enabled %v", m.Key, m.Node.Label, m.Bus.Key, m.Enabled))
	}
	if want := []string{"if if bus for enabled true", "true true bus for enabled false"}; !cmp.Equal(got, want) {
		t.Errorf("masters (-want +got):\n%s", cmp.Diff(want, got))
	}
}

// TestControlBytes imports a tree whose model holds a control byte, a tab
// and a byte that is not UTF-8, and whose compatibles hold non-ASCII: the
// draft parses, with a TODO at the model naming its bytes, and vet
// reports exactly the schema's word on those strings
// (testdata/odd.vet), each at its line.
func TestControlBytes(t *testing.T) {
	td := testdataDir(t)
	files := importDTS(t, "odd.dts")
	var board string
	for _, f := range files {
		if f.Path == "odd/board.cue" {
			board = string(f.Data)
		}
	}
	for _, want := range []string{
		`// TODO the tree's string "Vendor \x01Odd\tB\u00f6ard \"rev\" \\ \xff"`,
		"model: \"Vendor \\u0001Odd\\tB\u00f6ard \\\"rev\\\" \\\\ \ufffd\"\n",
	} {
		if !strings.Contains(board, want) {
			t.Errorf("odd/board.cue has no %s:\n%s", want, board)
		}
	}
	r := compileDraft(t, files, "odd", "package odd\n\nsoc: masters: [_]: dma: streaming: 32\n")
	var got strings.Builder
	if err := r.Diagnostics.WriteText(&got); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(td, "odd.vet"))
	if golden.Update() {
		write(t, filepath.Join(td, "odd.vet"), []byte(got.String()))
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
