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
	"boardc.dev/boardc/compiler/draft"
	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/internal/testtool"
)

// dmaWalk is what of_dma_get_range() (Linux drivers/of/address.c, v6.12)
// finds for a device whose DMA parent is np, as of_dma_configure_id()
// (drivers/of/device.c) calls it: the node whose dma-ranges ended the
// walk and its windows, or "-ENODEV" when the walk finds none, and then
// the kernel sets no bus_dma_limit.
//
// The walk goes up from np through __of_get_dma_parent(): an empty
// dma-ranges is passed (identity), a missing one is passed on the first
// node only ("once we find 'dma-ranges', then a missing one is an
// error"), the first non-empty one ends the walk.
func dmaWalk(t *basetree.Tree, np *basetree.Node) string {
	found := false
	for n := np; n != nil; n = dmaParent(t, n) {
		v, has := n.Prop("dma-ranges")
		if has && len(v) > 0 {
			rs, _, ok := n.DMARanges()
			if !ok {
				return n.Path + ": undecoded dma-ranges"
			}
			var top uint64
			for _, r := range rs {
				top = max(top, r[0]+r[2]-1) // dma_range_map_max()
			}
			return fmt.Sprintf("%s: %x, bus_dma_limit %#x", n.Path, rs, top)
		}
		if found && !has {
			return "-ENODEV"
		}
		found = true
	}
	return "-ENODEV"
}

// dmaParent is __of_get_dma_parent() (drivers/of/address.c): the
// provider named "dma-mem" in the node's interconnects, else the parent.
func dmaParent(t *basetree.Tree, n *basetree.Node) *basetree.Node {
	names, _ := n.Strings("interconnect-names")
	ics, _ := n.Cells("interconnects")
	for i, at := 0, 0; i < len(names) && at < len(ics); i++ {
		p := t.ByPhandle(ics[at])
		if p == nil {
			break
		}
		if names[i] == "dma-mem" {
			return p
		}
		cells, _ := p.U32("#interconnect-cells")
		at += 1 + int(cells)
	}
	return n.Parent
}

// walks returns dmaWalk for every node of the tree below the root, as
// though each were a device: the walk starts at its DMA parent.
func walks(t *basetree.Tree) map[string]string {
	out := map[string]string{}
	for _, p := range t.Paths() {
		n := t.Node(p)
		if n.Parent == nil || strings.HasPrefix(p, "/__") {
			continue
		}
		out[p] = dmaWalk(t, dmaParent(t, n))
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

// TestDMAWalkModel pins dmaWalk to the kernel's rules on a tree of its
// own: a missing dma-ranges on the first node is passed over, an empty one
// is an identity, a missing one further up ends the walk, and a dma-mem
// interconnect replaces the parent.
func TestDMAWalkModel(t *testing.T) {
	testtool.Look(t, "dtc", "device-tree-compiler")
	tree := dtcTree(t, `/dts-v1/;
/ {
	#address-cells = <2>; #size-cells = <2>;
	soc {
		#address-cells = <2>; #size-cells = <2>; ranges;
		dma-ranges = <0x0 0x0 0x0 0x0 0x10 0x0>;
		ic: ic { #interconnect-cells = <1>; dma-ranges = <0x0 0x0 0x0 0x0 0x1 0x0>; #address-cells = <2>; #size-cells = <2>; };
		rp { #address-cells = <2>; #size-cells = <1>;
			edge { #address-cells = <2>; #size-cells = <1>;
				fastrpc { #address-cells = <1>; #size-cells = <0>; cb { }; };
			};
		};
		id { #address-cells = <2>; #size-cells = <2>; dma-ranges;
			leaf { #address-cells = <2>; #size-cells = <2>; dev { }; };
		};
		mem { interconnects = <&ic 7>, <&ic 8>; interconnect-names = "cpu", "dma-mem"; };
	};
};
`)
	got := walks(tree)
	for path, want := range map[string]string{
		"/soc/rp":                 "/soc: [[0 0 1000000000]], bus_dma_limit 0xfffffffff",
		"/soc/rp/edge/fastrpc":    "-ENODEV",
		"/soc/rp/edge/fastrpc/cb": "-ENODEV",
		"/soc/id/leaf/dev":        "/soc: [[0 0 1000000000]], bus_dma_limit 0xfffffffff",
		"/soc/mem":                "/soc/ic: [[0 0 100000000]], bus_dma_limit 0xffffffff",
		"/soc/rp/edge":            "/soc: [[0 0 1000000000]], bus_dma_limit 0xfffffffff",
	} {
		if got[path] != want {
			t.Errorf("%s: walk finds %q, want %q", path, got[path], want)
		}
	}
}

// dtcTree compiles DTS source with dtc and reads it.
func dtcTree(t *testing.T, src string) *basetree.Tree {
	t.Helper()
	f := filepath.Join(t.TempDir(), "t.dts")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	tree, err := basetree.Compile{DTS: f, Include: []string{t.TempDir()}}.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tree
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
func TestFragmentDMAWalk(t *testing.T) {
	testtool.Look(t, "dtc", "device-tree-compiler")
	testtool.Look(t, "cpp", "cpp")
	shared := testtool.RequireShared(t, ".")
	root := corpusTree(t, filepath.Join(shared, "corpus", "linux-v7.1-dts-arm64.tar.gz"))
	t.Setenv("CUE_REGISTRY", "none")
	ctx := context.Background()
	c, err := boardc.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range walkBoards {
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
			facts := "package " + pkg + "\n\nsoc: masters: [_]: dma: streaming: 32\n"
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

// corpusTree extracts the arm64 sources of walkBoards' vendors and the
// dt-bindings headers from the corpus archive, laid out as a kernel tree
// (arch/arm64/boot/dts, scripts/dtc/include-prefixes).
func corpusTree(t *testing.T, archive string) string {
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
	want := []string{"src/arm64/qcom/", "src/arm64/freescale/", "include/dt-bindings/"}
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
