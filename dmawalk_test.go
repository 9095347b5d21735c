package boardc_test

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/check"
	"boardc.dev/boardc/compiler/draft"
	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/internal/testtool"
)

// walks returns what of_dma_get_range() finds for every node of the tree
// below the root, as though each were a device: the walk
// (basetree.Tree.DMAWalk) starts at its DMA parent.
func walks(t *basetree.Tree) map[string]string {
	out := map[string]string{}
	for _, p := range t.Paths() {
		n := t.Node(p)
		if n.Parent == nil || strings.HasPrefix(p, "/__") {
			continue
		}
		w := t.DMAWalk(t.DMAParent(n), nil)
		switch {
		case w.At == nil:
			out[p] = "-ENODEV"
		case !w.OK:
			out[p] = w.At.Path + ": undecoded dma-ranges"
		default:
			out[p] = fmt.Sprintf("%s: %x, bus_dma_limit %#x", w.At.Path, w.Ranges, w.Limit)
		}
	}
	return out
}

// props returns every property of every node, for comparing trees.
func props(t *basetree.Tree) map[string]string {
	out := map[string]string{}
	for _, p := range t.Paths() {
		n := t.Node(p)
		for _, name := range n.PropNames() {
			v, _ := n.Prop(name)
			out[p+":"+name] = fmt.Sprintf("%x", v)
		}
	}
	return out
}

// walkBoards are upstream boards on which a fragment once wrote dma-ranges
// upstream does not have (an identity window on remoteproc, an empty one
// on glink-edge, a zero-size-cell one on gpr; an empty one on the i.MX8MM
// aips3 bus above an I2C device): the walk must find what upstream's does,
// on every node.
var walkBoards = []string{
	"qcom/sm8550-qrd",
	"qcom/sc7280-idp",
	"freescale/imx8mm-venice-gw7901",
}

// TestFragmentDMAWalk imports each of walkBoards from the upstream arm64
// corpus (Linux v7.1), adds the facts its tree cannot state (32-bit DMA
// widths, and a memory placeholder where it has no memory node), builds
// it, and includes its fragment after the upstream .dts. The description
// states nothing upstream does not, so the built tree must be upstream's,
// property for property, and of_dma_get_range() must find the same
// dma-ranges from every node. A negative control writes the windows the
// fragment once invented on sm8550 and expects the walk to change.
// BOARDC_WALK_BOARDS (vendor/board, comma-separated) names other boards
// of the corpus to compare instead.
func TestFragmentDMAWalk(t *testing.T) {
	list := walkBoards
	if env := os.Getenv("BOARDC_WALK_BOARDS"); env != "" {
		list = strings.Split(env, ",")
	}
	testtool.Look(t, "dtc", "device-tree-compiler")
	testtool.Look(t, "cpp", "cpp")
	shared := testtool.RequireShared(t, ".")
	root := corpusTree(t, filepath.Join(shared, "corpus", "linux-v7.1-dts-arm64.tar.gz"), list)
	t.Setenv("CUE_REGISTRY", "none")
	ctx := context.Background()
	c, err := boardc.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range list {
		t.Run(name, func(t *testing.T) {
			dts := "arch/arm64/boot/dts/" + name + ".dts"
			up, err := basetree.Compile{Root: root, DTS: dts, Annotate: true}.Build(ctx)
			if err != nil {
				t.Fatal(err)
			}
			d, err := draft.Generate(up, draft.Options{Source: dts, DTS: dts, Module: "boardc.dev/boards"})
			if err != nil {
				t.Fatal(err)
			}
			mod := t.TempDir()
			writeFile(t, filepath.Join(mod, "cue.mod", "module.cue"), "module: \"boardc.dev/boards@v0\"\nlanguage: version: \"v0.17.0\"\n")
			hasMemory := false
			for _, f := range d.Files {
				data, err := load.Format(f.Data)
				if err != nil {
					t.Fatalf("%s: %v", f.Path, err)
				}
				writeFile(t, filepath.Join(mod, f.Path), string(data))
				if filepath.Base(f.Path) == "board.cue" && strings.Contains(string(data), "\nmemory:") {
					hasMemory = true
				}
			}
			pkg := strings.NewReplacer("-", "", ".", "").Replace(d.Board)
			// A width for every master but a PCIe host bridge, which has
			// none of its own (bridge).
			facts := "package " + pkg + "\n\nsoc: masters: [_]: M={if M.bridge == _|_ {dma: streaming: 32}}\n"
			if !hasMemory {
				facts += "memory: [{base: 0x8000_0000, size: 0x4000_0000}]\n"
			}
			writeFile(t, filepath.Join(mod, d.Board, "facts.cue"), facts)
			r := c.Compile(filepath.Join(mod, d.Board), boardc.Options{})
			if r.Diagnostics.HasErrors() {
				var b strings.Builder
				_ = r.Diagnostics.WriteText(&b)
				t.Fatalf("draft does not build:\n%s", b.String())
			}
			// Checked against its upstream tree, the description's buses
			// and the kernel's walk agree: no BC0608.
			for _, dg := range check.RunWith(r.Board, up).Diagnostics {
				if dg.Code == "BC0608" {
					t.Errorf("%s", dg)
				}
			}
			var frag string
			for _, f := range r.Files {
				if f.Path == r.Board.Name+".dtsi" {
					frag = string(f.Data)
				}
			}
			if frag == "" {
				t.Fatal("no fragment")
			}
			built := withFragment(t, root, dts, frag)
			if diff := cmp.Diff(props(up), props(built)); diff != "" {
				t.Errorf("fragment over upstream changes the tree (-upstream +built):\n%s", diff)
			}
			if diff := cmp.Diff(walks(up), walks(built)); diff != "" {
				t.Errorf("of_dma_get_range() finds other dma-ranges (-upstream +built):\n%s", diff)
			}
			var notes []string
			for _, dg := range r.Diagnostics {
				if dg.Code == "BC0205" {
					notes = append(notes, dg.Message)
				}
			}
			sort.Strings(notes)
			t.Logf("%d BC0205 findings, e.g. %q", len(notes), append(notes, "")[0])
			if name != "qcom/sm8550-qrd" {
				return
			}
			// The negative control: the windows the fragment once wrote.
			bad := withFragment(t, root, dts, frag+`
&remoteproc_cdsp { dma-ranges = <0x0 0x0 0x0 0x0 0xffffffff>; };
&{/soc@0/remoteproc@32300000/glink-edge} { dma-ranges; };
`)
			cb := "/soc@0/remoteproc@32300000/glink-edge/fastrpc/compute-cb@1"
			if w := walks(up)[cb]; w != "-ENODEV" {
				t.Errorf("upstream %s: walk finds %q, want -ENODEV", cb, w)
			}
			if w, want := walks(bad)[cb], "/soc@0/remoteproc@32300000: [[0 0 ffffffff]], bus_dma_limit 0xfffffffe"; w != want {
				t.Errorf("negative control %s: walk finds %q, want %q", cb, w, want)
			}
			if len(notes) == 0 {
				t.Error("no BC0205 finding: the walk stops short of /soc@0's dma-ranges for the compute banks")
			}
		})
	}
}

// withFragment builds the upstream dts with frag included after it.
func withFragment(t *testing.T, root, dts, frag string) *basetree.Tree {
	t.Helper()
	dir := t.TempDir()
	fp, bp := filepath.Join(dir, "fragment.dtsi"), filepath.Join(dir, "board.dts")
	writeFile(t, fp, frag)
	writeFile(t, bp, "#include \""+filepath.Join(root, dts)+"\"\n#include \""+fp+"\"\n")
	inc := []string{filepath.Join(root, basetree.IncludePrefixes), filepath.Dir(filepath.Join(root, dts))}
	tree, err := basetree.Compile{DTS: bp, Include: inc}.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// corpusTree extracts the arm64 sources of the boards' vendors and the
// dt-bindings headers from the corpus archive, laid out as a kernel tree
// (arch/arm64/boot/dts, scripts/dtc/include-prefixes).
func corpusTree(t *testing.T, archive string, boards []string) string {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		if os.Getenv("BOARDC_REQUIRE_SHARED") == "1" {
			t.Fatal(err)
		}
		t.Skipf("the upstream corpus is not present: %v", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	want := []string{"include/dt-bindings/"}
	for _, b := range boards {
		want = append(want, "src/arm64/"+filepath.Dir(b)+"/")
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(h.Name, "./")
		keep := false
		for _, w := range want {
			keep = keep || strings.HasPrefix(name, w)
		}
		if !keep || h.Typeflag != tar.TypeReg {
			continue
		}
		dst := filepath.Join(root, "corpus", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dst, string(data))
	}
	pfx := filepath.Join(root, filepath.FromSlash(basetree.IncludePrefixes))
	for link, target := range map[string]string{
		filepath.Join(root, "arch", "arm64", "boot", "dts"): filepath.Join(root, "corpus", "src", "arm64"),
		filepath.Join(pfx, "arm64"):                         filepath.Join(root, "corpus", "src", "arm64"),
		filepath.Join(pfx, "dt-bindings"):                   filepath.Join(root, "corpus", "include", "dt-bindings"),
	} {
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// writeFile writes data to path, creating its directory.
func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
