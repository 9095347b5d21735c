package draft

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/basetree"
)

// TestCorpus drafts boards of the upstream arm64 corpus extracted at
// $BOARDC_DRAFT_CORPUS (the directory holding src/ and include/) and prints,
// per board, the masters drafted and the upstream dma-coherent nodes the
// draft does not carry (a coherent master, or a bus coherent for all its
// masters whose fact is that node's); a dma-coherent bus node with no
// master below it is counted apart (idle: the draft has nothing to carry
// it on). $BOARDC_DRAFT_CORPUS_BOARDS lists the
// boards (paths below src/arm64, space-separated), or "random:N:SEED"
// picks N of them; $BOARDC_DRAFT_CORPUS_LIST=1 also prints the SoC's
// compatibles and each master's path.
// It skips without $BOARDC_DRAFT_CORPUS.
func TestCorpus(t *testing.T) {
	dir := os.Getenv("BOARDC_DRAFT_CORPUS")
	if dir == "" {
		t.Skip("BOARDC_DRAFT_CORPUS names no extracted corpus")
	}
	src := filepath.Join(dir, "src", "arm64")
	boards := strings.Fields(os.Getenv("BOARDC_DRAFT_CORPUS_BOARDS"))
	if len(boards) == 1 && strings.HasPrefix(boards[0], "random:") {
		f := strings.Split(boards[0], ":")
		n, _ := strconv.Atoi(f[1])
		seed, _ := strconv.ParseUint(f[2], 10, 64)
		all, _ := filepath.Glob(filepath.Join(src, "*", "*.dts"))
		sort.Strings(all)
		r := rand.New(rand.NewPCG(seed, seed))
		r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		boards = nil
		for _, p := range all[:n] {
			rel, _ := filepath.Rel(src, p)
			boards = append(boards, rel)
		}
	}
	var masters, missing, extra, failed, idles int
	for _, b := range boards {
		comp := basetree.Compile{DTS: filepath.Join(src, b), Include: []string{filepath.Join(src, filepath.Dir(b)), src, filepath.Join(dir, "include")}}
		tree, err := comp.Build(context.Background())
		if err != nil {
			t.Logf("%s: %v", b, err)
			failed++
			continue
		}
		g := &gen{t: tree, o: Options{Source: b}, board: "x", keys: newKeys()}
		g.scan()
		cov := g.coherentNodes()
		above := map[*basetree.Node]bool{}
		for _, m := range g.masters {
			for a := m.Parent; a != nil; a = a.Parent {
				above[a] = true
			}
		}
		var miss, ext, idle []string
		for _, p := range tree.Paths() {
			n := tree.Node(p)
			switch {
			case !n.Has("dma-coherent") || strings.HasPrefix(p, "/__") || cov[n]:
			case isBusNode(n) && !above[n]:
				idle = append(idle, p) // no master below: nothing to carry
			default:
				miss = append(miss, p)
			}
		}
		for n := range cov {
			if ok, _ := n.Coherent(); !ok {
				ext = append(ext, n.Path)
			}
		}
		sort.Strings(ext)
		masters += len(g.masters)
		missing += len(miss)
		extra += len(ext)
		idles += len(idle)
		fmt.Printf("%-60s masters %3d  missing %3d %v  extra %d %v  idle %v\n", b, len(g.masters), len(miss), miss, len(ext), ext, idle)
		if os.Getenv("BOARDC_DRAFT_CORPUS_LIST") != "" {
			compat, _ := tree.Node("/").Strings("compatible")
			board := nameOf(strings.TrimSuffix(filepath.Base(b), ".dts"))
			fmt.Printf("soc %s %q of %q\n", b, socCompatibles(compat, board), compat)
			for _, m := range g.masters {
				fmt.Printf("master %s %s\n", b, m.Path)
			}
		}
	}
	fmt.Printf("TOTAL boards %d (failed %d)  masters %d  missing %d  extra %d  idle %d\n", len(boards), failed, masters, missing, extra, idles)
}

// coherentNodes returns the nodes whose coherency the draft carries: its
// coherent masters, and the node behind each bus coherent for all.
func (g *gen) coherentNodes() map[*basetree.Node]bool {
	out := map[*basetree.Node]bool{}
	for _, m := range g.masters {
		ok, _ := m.Coherent()
		if m.Has("dma-coherent") || ok && busCoherent(m.Parent) != nil {
			out[m] = true
		}
	}
	for _, b := range g.buses {
		if from := busCoherent(b); from != nil {
			out[from] = true
		}
	}
	return out
}
