package explain

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc"
	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/outputs"
)

func compile(t *testing.T, name string) *boardc.Result {
	t.Helper()
	return intree.Compile(t, filepath.Join("..", "boards", name))
}

// TestExplainMaster traces a master to its facts, its bus's coherency,
// the policy that names it and the lines made from it.
func TestExplainMaster(t *testing.T) {
	r := compile(t, "espressobin")
	e := Explain(r, "crypto")
	if e == nil {
		t.Fatal("crypto matches nothing")
	}
	if e.What != "crypto" || e.Board != "espressobin" || e.ChecksRan != len(r.Checks) || e.ChecksRan == 0 {
		t.Errorf("what %q board %q checks %d, want crypto, espressobin, %d", e.What, e.Board, e.ChecksRan, len(r.Checks))
	}
	var texts []string
	for _, f := range e.Facts {
		texts = append(texts, f.Text)
	}
	for _, want := range []string{
		"master crypto: node &crypto /soc/bus@d0000000/crypto@90000",
		"bus internal coherency: coherent for verified masters (source: ",
		"master crypto: DMA masks 64-bit streaming, 64-bit coherent",
		"policy: IRQs named d0090000.crypto on CPUs 0,1",
	} {
		if !slices.ContainsFunc(texts, func(s string) bool { return strings.HasPrefix(s, want) }) {
			t.Errorf("no fact %q among\n%s", want, strings.Join(texts, "\n"))
		}
	}
	if slices.ContainsFunc(texts, func(s string) bool { return strings.HasPrefix(s, "master eth0") }) {
		t.Errorf("facts of eth0 among crypto's:\n%s", strings.Join(texts, "\n"))
	}
	if want := []Master{{"crypto", "coherent, verified for this master (dma-coherent)"}}; !cmp.Equal(e.Masters, want) {
		t.Errorf("masters %+v, want %+v", e.Masters, want)
	}
	if !slices.ContainsFunc(e.Generated, func(l Line) bool {
		return l.File == "espressobin.dtsi" && strings.HasPrefix(strings.TrimSpace(l.Text), "dma-coherent;")
	}) {
		t.Errorf("no dma-coherent line of espressobin.dtsi among %+v", e.Generated)
	}
	var text bytes.Buffer
	if err := e.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, f := range e.Facts {
		if !strings.Contains(text.String(), "  "+f.Pos+": "+f.Text+"\n") {
			t.Errorf("fact %+v is not in the text", f)
		}
	}
	if !strings.Contains(text.String(), fmt.Sprintf("\nchecks: %d ran, 0 reported on it\n", len(r.Checks))) {
		t.Errorf("text does not count the checks:\n%s", text.String())
	}
}

// TestExplainName resolves a name the outputs set to the lines that set
// it, and only those.
func TestExplainName(t *testing.T) {
	r := compile(t, "espressobin")
	e := Explain(r, "crypto/dma-coherent")
	if e == nil {
		t.Fatal("crypto/dma-coherent matches nothing")
	}
	var files []string
	for _, l := range e.Generated {
		files = append(files, l.File)
		if !strings.HasPrefix(strings.TrimSpace(l.Text), "dma-coherent;") {
			t.Errorf("line %+v does not set dma-coherent", l)
		}
	}
	if want := []string{"espressobin.dtsi", "espressobin.dtso"}; !slices.Equal(files, want) {
		t.Errorf("dma-coherent of crypto set in %v, want once in each of %v", files, want)
	}
	if e := Explain(r, "nothing"); e != nil {
		t.Errorf("nothing matches %+v", e)
	}
	if e := Explain(&boardc.Result{}, "crypto"); e != nil {
		t.Errorf("a result without a board explains %+v", e)
	}
}

// TestGeneratedFromManifest: the lines explain reads from the manifest
// are those the files' annotations record, for every element of the
// in-tree boards.
func TestGeneratedFromManifest(t *testing.T) {
	for _, name := range []string{"espressobin", "ls2088a-rdb"} {
		r := compile(t, name)
		for _, ref := range r.Board.Refs() {
			refs := refSet{ref}
			var want []Line
			for _, f := range r.Files {
				text := strings.Split(string(f.Data), "\n")
				var nums []int
				for _, a := range f.Annotations {
					if refs.any(a.Refs) {
						for n := a.Line; n <= a.End; n++ {
							nums = append(nums, n)
						}
					}
				}
				slices.Sort(nums)
				for _, n := range slices.Compact(nums) {
					want = append(want, Line{File: f.Path, Line: n, Text: text[n-1]})
				}
			}
			if want == nil {
				want = []Line{}
			}
			if diff := cmp.Diff(want, generatedLines(r.Manifest, r.Files, refs, "")); diff != "" {
				t.Errorf("%s %s: generated lines (-annotations +manifest):\n%s", name, ref, diff)
			}
		}
	}
}

func TestLines(t *testing.T) {
	for at, want := range map[string][]int{
		"27-28,30,34": {27, 28, 30, 34},
		"5":           {5},
		"":            nil,
	} {
		rs, err := outputs.ParseRuns(at)
		if err != nil {
			t.Fatalf("ParseRuns(%q): %v", at, err)
		}
		if got := lines(rs); !slices.Equal(got, want) {
			t.Errorf("lines(%q) = %v, want %v", at, got, want)
		}
	}
}
