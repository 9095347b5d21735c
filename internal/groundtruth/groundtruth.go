// Package groundtruth reads GROUND-TRUTH.md of the shared reference trees
// (../shared/upstream-dts): per upstream board, its .dts, CPU count and
// the nodes that carry dma-coherent, with their labels, as the shared
// set's dtbinfo.py found them in the compiled trees. Tests compare what
// boardc reads and builds with it.
package groundtruth

import (
	"bufio"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// Board is one board's section.
type Board struct {
	// Name is the section's name, the .dts's stem.
	Name string
	// DTS is the .dts, relative to the kernel tree.
	DTS string
	// Model is the root's model.
	Model string
	// CPUs is the number of CPU nodes.
	CPUs int
	// Coherent lists the nodes with dma-coherent, in the file's order.
	Coherent []Node
}

// Node is one row of a board's dma-coherent table.
type Node struct {
	Path   string
	Labels []string // none for "-"
	Status string   // "(none)" when the node has no status
}

var (
	headRE  = regexp.MustCompile("^## ([a-z0-9-]+)  \\(`([^`]+\\.dts)`\\)")
	modelRE = regexp.MustCompile("^- model: `(.*)`$")
	cpusRE  = regexp.MustCompile(`^- CPU count: (\d+)`)
	rowRE   = regexp.MustCompile("^\\| `(/[^`]*)` \\| ([^|]*) \\| ([^|]*) \\|")
)

// Read parses the file at path.
func Read(path string) ([]Board, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Board
	var cur *Board
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if m := headRE.FindStringSubmatch(line); m != nil {
			out = append(out, Board{Name: m[1], DTS: m[2]})
			cur = &out[len(out)-1]
			continue
		}
		if strings.HasPrefix(line, "## ") {
			cur = nil
			continue
		}
		if cur == nil {
			continue
		}
		if m := modelRE.FindStringSubmatch(line); m != nil {
			cur.Model = m[1]
		}
		if m := cpusRE.FindStringSubmatch(line); m != nil {
			cur.CPUs, _ = strconv.Atoi(m[1])
		}
		if m := rowRE.FindStringSubmatch(line); m != nil {
			n := Node{Path: m[1], Status: strings.TrimSpace(m[3])}
			if l := strings.TrimSpace(m[2]); l != "-" {
				n.Labels = strings.Split(l, ",")
			}
			cur.Coherent = append(cur.Coherent, n)
		}
	}
	return out, sc.Err()
}
