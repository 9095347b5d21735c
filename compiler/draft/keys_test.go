package draft

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"boardc.dev/boardc/compiler/basetree"
)

// keyRE is the schema's #Key.
var keyRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,62}$`)

// TestKeysLongAndMany: nodes whose names agree in their first 63
// characters each get a distinct schema key (a clash of a key of the
// longest once never ended), and many nodes of one name take linear time.
func TestKeysLongAndMany(t *testing.T) {
	long := strings.Repeat("a", 70)
	var nodes []*basetree.Node
	for i := range 5 {
		nodes = append(nodes, &basetree.Node{Path: fmt.Sprintf("/%s%d", long, i), Name: long + fmt.Sprint(i)})
	}
	for i := range 20000 {
		nodes = append(nodes, &basetree.Node{Path: fmt.Sprintf("/x@%d", i), Name: "x"})
	}
	k := newKeys()
	tree := &basetree.Tree{}
	seen := map[string]bool{}
	start := time.Now()
	for _, n := range nodes {
		s := k.key(tree, n)
		if !keyRE.MatchString(s) || seen[s] {
			t.Fatalf("%s: key %q is not a schema key, or taken", n.Path, s)
		}
		seen[s] = true
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("%d keys took %v", len(nodes), d)
	}
	if got := k.key(tree, nodes[1]); got != strings.Repeat("a", 61)+"_2" {
		t.Errorf("the second long name's key is %q", got)
	}
}

// TestSoCPackageName: an SoC named like a top-level field of #Board
// (soc, memory, policy...) gets a package name the board file can import
// beside that field, as a keyword does.
func TestSoCPackageName(t *testing.T) {
	tree := compileDTS(t, ac5)
	for soc, want := range map[string]string{"soc": "socpkg", "memory": "memorypkg", "if": "ifpkg", "ac5": "ac5"} {
		d, err := Generate(tree, Options{Source: "t.dts", SoC: soc, Module: "m.example"})
		if err != nil {
			t.Fatal(err)
		}
		if d.SoCPackage != want {
			t.Errorf("SoC %q: package %q, want %q", soc, d.SoCPackage, want)
		}
	}
}

// TestMaxElements: a tree of more DMA masters than a draft holds is a
// clean error, not a draft of tens of megabytes.
func TestMaxElements(t *testing.T) {
	var b strings.Builder
	b.WriteString("/dts-v1/;\n/ {\n\tcompatible = \"v,b\";\n\t#address-cells = <1>;\n\t#size-cells = <1>;\n")
	// dtc's parser takes a few thousand nodes a block: 21 buses of 1,000.
	for bus := range 21 {
		fmt.Fprintf(&b, "\tbus@%x {\n\t\tcompatible = \"simple-bus\";\n\t\t#address-cells = <1>;\n\t\t#size-cells = <1>;\n\t\tranges;\n", bus)
		for i := range 1000 {
			fmt.Fprintf(&b, "\t\tdma-controller@%x { compatible = \"v,dma\"; reg = <0x%x 0x10>; };\n", i*16, i*16)
		}
		b.WriteString("\t};\n")
	}
	b.WriteString("};\n")
	_, err := Generate(compileDTS(t, b.String()), Options{Source: "big.dts", Module: "m.example"})
	if err == nil || !strings.Contains(err.Error(), "more than the 20000 a draft holds") {
		t.Errorf("a tree of 21,000 masters: %v", err)
	}
}
