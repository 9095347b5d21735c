package draft_test

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
	"boardc.dev/boardc/compiler/draft"
	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/internal/groundtruth"
	"boardc.dev/boardc/internal/testtool"
)

// factsDir holds, per board, the facts its tree does not state, added to
// the imported draft as one more file of the board's package.
const factsDir = "testdata/roundtrip"

// sourceRE matches an imported coherency fact's source: the upstream
// file and line that set dma-coherent.
var sourceRE = regexp.MustCompile(`^arch/arm(64)?/boot/dts/[a-z0-9/_.-]+\.dtsi?:\d+: dma-coherent$`)

// dmaCoherentRE matches a dma-coherent property line of preprocessed DTS.
var dmaCoherentRE = regexp.MustCompile(`(?m)^\s*dma-coherent\s*;\s*$`)

// TestRoundTrip imports every board of the shared reference set's
// GROUND-TRUTH.md, adds the facts its tree lacks (testdata/roundtrip/
// BOARD.cue), builds it, includes the fragment after the upstream .dts
// with every dma-coherent stripped, and compares: the nodes that carry
// dma-coherent must be upstream's, exactly.
func TestRoundTrip(t *testing.T) {
	testtool.Look(t, "dtc", "device-tree-compiler")
	testtool.Look(t, "cpp", "cpp")
	root, inc, shared := testtool.UpstreamTree(t, "../..")
	boards, err := groundtruth.Read(filepath.Join(shared, "upstream-dts", "GROUND-TRUTH.md"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CUE_REGISTRY", "none")
	ctx := context.Background()
	for _, gt := range boards {
		t.Run(gt.Name, func(t *testing.T) {
			comp := basetree.Compile{Root: root, DTS: gt.DTS, Include: inc, Annotate: true}
			tree, err := comp.Build(ctx)
			if err != nil {
				t.Fatal(err)
			}
			d, err := draft.Generate(tree, draft.Options{Source: gt.DTS, DTS: gt.DTS, Module: "boardc.dev/boards"})
			if err != nil {
				t.Fatal(err)
			}
			mod := t.TempDir()
			write(t, filepath.Join(mod, "cue.mod", "module.cue"), []byte("module: \"boardc.dev/boards@v0\"\nlanguage: version: \"v0.17.0\"\n"))
			for _, f := range d.Files {
				formatted, err := load.Format(f.Data)
				if err != nil {
					t.Fatalf("%s: %v", f.Path, err)
				}
				write(t, filepath.Join(mod, f.Path), formatted)
			}
			facts, err := os.ReadFile(filepath.Join(factsDir, gt.Name+".cue"))
			if err != nil {
				t.Fatalf("no facts file for %s: %v", gt.Name, err)
			}
			write(t, filepath.Join(mod, d.Board, "facts.cue"), facts)

			c, err := boardc.New()
			if err != nil {
				t.Fatal(err)
			}
			r := c.Compile(filepath.Join(mod, d.Board), boardc.Options{})
			if r.Diagnostics.HasErrors() {
				var b strings.Builder
				_ = r.Diagnostics.WriteText(&b)
				t.Fatalf("the draft with its facts does not build:\n%s", b.String())
			}
			for _, m := range r.Board.SoC.Masters {
				if m.Coherency != nil && !sourceRE.MatchString(m.Coherency.Source) {
					t.Errorf("master %s: coherency source %q names no upstream file and line", m.Key, m.Coherency.Source)
				}
			}
			var frag []byte
			for _, f := range r.Files {
				if f.Path == d.Board+".dtsi" {
					frag = f.Data
				}
			}
			if frag == nil {
				t.Fatal("no fragment")
			}
			pre, err := comp.Preprocess(ctx)
			if err != nil {
				t.Fatal(err)
			}
			stripped := dmaCoherentRE.ReplaceAll(pre, nil)
			if dmaCoherentRE.Match(stripped) {
				t.Fatal("dma-coherent left after stripping")
			}
			built, err := comp.DTC(ctx, append(append(stripped, '\n'), frag...))
			if err != nil {
				t.Fatalf("the fragment over the stripped upstream tree: %v", err)
			}
			var want, got []string
			for _, n := range gt.Coherent {
				want = append(want, n.Path)
			}
			for _, p := range built.Paths() {
				if built.Node(p).Has("dma-coherent") {
					got = append(got, p)
				}
			}
			sort.Strings(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("dma-coherent nodes (-upstream +imported and built):\n%s", diff)
			}
			t.Logf("%s: %d masters imported, %d dma-coherent nodes, identical: %v", gt.Name, len(r.Board.SoC.Masters), len(want), cmp.Equal(want, got))
		})
	}
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
