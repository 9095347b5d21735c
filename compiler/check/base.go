package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// The base-tree checks (base_*.go) compare the description with the device
// tree its fragment is built on, when one is given (boardc build/vet
// --dts-root or --dtb). Each reports at the description's position, with
// the node's path in the base tree in a note.

// baseNode returns the base tree's node for n: the node its label names
// when it has one and the tree keeps labels, else the node at its path;
// nil when there is none (BC0601 reports it).
func baseNode(t *basetree.Tree, n ir.Node) *basetree.Node {
	if n.Label != "" && t.HasLabels() {
		if p, ok := t.Label(n.Label); ok {
			return t.Node(p)
		}
		return nil
	}
	return t.Node(n.Path)
}

// inTree is the note that names a node of the base tree.
func inTree(t *basetree.Tree, path string) diag.Note {
	return diag.Note{Message: "node " + path + " in the base tree " + t.Source}
}

// setAt is the note that says where upstream sets a property, when the
// tree knows its sources (compiled with annotations), or nothing.
func setAt(t *basetree.Tree, path, prop string) []diag.Note {
	if src := t.PropSource(path, prop); src != "" {
		return []diag.Note{{Message: fmt.Sprintf("%s on %s is set at %s", prop, path, src)}}
	}
	return nil
}
