package synth_test

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"boardc.dev/boardc"
	"boardc.dev/boardc/internal/synth"
)

// dtNode is what the tests read of a node: its path and properties.
type dtNode struct {
	path  string
	props map[string]string // name -> value ("" for a boolean)
}

var (
	openRE    = regexp.MustCompile(`^(?:(\w+): )?([\w@,.-]+|/|&\w+) \{$`)
	propRE    = regexp.MustCompile(`^([#\w,.-]+)(?: = (.*))?;$`)
	commentRE = regexp.MustCompile(`\s*/\*.*?\*/`)
	headRE    = regexp.MustCompile(`^/\* (?:bus|master) (\w+): (\S+) \*/$`)
)

// parseDT reads the labelled nodes of a .dts or of boardc's .dtsi (nodes
// "&label { ... };", whose path comes from the comment above them). It
// knows only the layout the two generators write: one node opening, one
// property or one closing per line.
func parseDT(t *testing.T, src string) map[string]*dtNode {
	t.Helper()
	labels := map[string]*dtNode{}
	var stack []*dtNode
	var pathOf = map[string]string{} // from boardc's comments
	for i, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if m := headRE.FindStringSubmatch(line); m != nil {
			pathOf[m[1]] = m[2]
			continue
		}
		line = commentRE.ReplaceAllString(line, "")
		switch {
		case line == "/dts-v1/;" || line == "/plugin/;":
		case line == "" || strings.HasPrefix(line, "//") || strings.HasPrefix(line, "/*") || strings.HasPrefix(line, "*"):
		case line == "};":
			if len(stack) == 0 {
				t.Fatalf("line %d: unbalanced }", i+1)
			}
			stack = stack[:len(stack)-1]
		case openRE.MatchString(line):
			m := openRE.FindStringSubmatch(line)
			n := &dtNode{props: map[string]string{}}
			switch {
			case strings.HasPrefix(m[2], "&"):
				label := m[2][1:]
				n.path = pathOf[label]
				labels[label] = n
			case m[2] == "/":
				n.path = "/"
			default:
				n.path = strings.TrimSuffix(stack[len(stack)-1].path, "/") + "/" + m[2]
			}
			if m[1] != "" {
				labels[m[1]] = n
			}
			stack = append(stack, n)
		case propRE.MatchString(line):
			if len(stack) == 0 {
				t.Fatalf("line %d: property outside a node", i+1)
			}
			m := propRE.FindStringSubmatch(line)
			stack[len(stack)-1].props[m[1]] = m[2]
		default:
			t.Fatalf("line %d: %q", i+1, line)
		}
	}
	return labels
}

// TestDTSMatchesBoardc checks the devicetree of synth.DTS against what
// boardc emits for the CUE description of the same parameters: every bus
// and master boardc names is at the same path under the same label, the
// masters boardc makes coherent (dma-coherent in its .dtsi) are the ones
// the tree marks dma-coherent, and the buses' dma-ranges are the same.
func TestDTSMatchesBoardc(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	c, err := boardc.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []synth.Params{
		synth.Default(60),
		{Masters: 7, Buses: 9, CPUs: 4, ClusterSize: 4, NetEvery: 3},
	} {
		dir, err := synth.Write(t.TempDir(), p)
		if err != nil {
			t.Fatal(err)
		}
		r := c.Compile(dir, boardc.Options{})
		var dtsi string
		for _, f := range r.Files {
			if strings.HasSuffix(f.Path, ".dtsi") {
				dtsi = string(f.Data)
			}
		}
		if dtsi == "" {
			t.Fatalf("%+v: boardc wrote no .dtsi", p)
		}
		fs, err := synth.DTS(p)
		if err != nil {
			t.Fatal(err)
		}
		tree := parseDT(t, string(fs["synth.dts"]))
		frag := parseDT(t, dtsi)
		if len(frag) == 0 {
			t.Fatalf("%+v: no node in boardc's .dtsi", p)
		}
		for label, f := range frag {
			n := tree[label]
			if n == nil {
				t.Errorf("%+v: %s (%s) not in the tree", p, label, f.path)
				continue
			}
			if n.path != f.path {
				t.Errorf("%+v: %s at %s, boardc has %s", p, label, n.path, f.path)
			}
			if got, want := n.props["dma-ranges"], f.props["dma-ranges"]; got != want {
				t.Errorf("%+v: %s dma-ranges %q, boardc %q", p, label, got, want)
			}
		}
		masters, coherent := 0, 0
		for label, n := range tree {
			if !strings.HasPrefix(label, "m") || !strings.Contains(n.path, "/dma@") {
				continue
			}
			masters++
			_, got := n.props["dma-coherent"]
			want := false
			if f := frag[label]; f != nil {
				_, want = f.props["dma-coherent"]
			}
			if got != want {
				t.Errorf("%+v: %s dma-coherent %v, boardc %v", p, label, got, want)
			}
			if got {
				coherent++
			}
			if n.props["status"] != `"okay"` || n.props["reg"] == "" || n.props["interrupts"] == "" {
				t.Errorf("%+v: %s lacks status, reg or interrupts: %v", p, label, n.props)
			}
		}
		if masters != p.Masters || coherent == 0 || coherent == masters && p.Buses > 2 {
			t.Errorf("%+v: %d masters, %d coherent", p, masters, coherent)
		}
		wantBindings := []string{"bindings/arm,cortex-a72.yaml", "bindings/arm,gic-v3.yaml", "bindings/base.yaml", "bindings/simple-bus.yaml"}
		for v := range min(4, p.Masters) {
			wantBindings = append(wantBindings, fmt.Sprintf("bindings/boardc,synth-dma-v%d.yaml", v))
		}
		delete(fs, "synth.dts")
		if got := slices.Sorted(maps.Keys(fs)); !slices.Equal(got, slices.Sorted(slices.Values(wantBindings))) {
			t.Errorf("%+v: bindings %v, want %v", p, got, wantBindings)
		}
	}
}
