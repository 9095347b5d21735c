// Package boards_test builds every in-tree board and checks its outputs:
// against the committed expected files, with dtc over a base tree holding
// the board's upstream labels and paths, and, where the shared reference
// trees are present, after the board's real upstream .dts.
package boards_test

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/compiler"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/golden"
	"boardc.dev/boardc/internal/intree"
)

// boardDirs returns the directories of the in-tree boards.
func boardDirs(t *testing.T) []string { return intree.Dirs(t, ".") }

// compile compiles an in-tree board once for the whole test binary.
func compile(t *testing.T, dir string) *compiler.Result { return intree.Compile(t, dir) }

func TestGolden(t *testing.T) {
	for _, dir := range boardDirs(t) {
		t.Run(dir, func(t *testing.T) {
			r := compile(t, dir)
			golden.Check(t, filepath.Join(dir, "expected"), r.Files)
		})
	}
}

// coherentPaths returns the node paths the description makes coherent.
func coherentPaths(b *ir.Board) []string {
	var out []string
	for _, m := range b.SoC.Masters {
		if m.Coherent() {
			out = append(out, m.Node.Path)
		}
	}
	sort.Strings(out)
	return out
}

// TestSeedBoards asserts what the three seed cases need of the fragments.
func TestSeedBoards(t *testing.T) {
	for _, tc := range []struct {
		dir  string
		want []string
	}{
		{"espressobin", []string{"/soc/bus@d0000000/crypto@90000"}},
		{"mirabox", nil},
		{"ls2088a-rdb", []string{
			"/soc/crypto@8000000", "/soc/fsl-mc@80c000000", "/soc/iommu@5000000",
			"/soc/pcie@3400000", "/soc/pcie@3500000", "/soc/pcie@3600000", "/soc/pcie@3700000",
			"/soc/sata@3200000", "/soc/sata@3210000",
		}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			r := compile(t, tc.dir)
			if diff := cmp.Diff(tc.want, coherentPaths(r.Board)); diff != "" {
				t.Errorf("coherent masters (-want +got):\n%s", diff)
			}
		})
	}
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
