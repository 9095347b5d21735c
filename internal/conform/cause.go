package conform

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"boardc.dev/boardc/compiler/basetree"
)

// missingRE finds the include cpp could not find in its message.
var missingRE = regexp.MustCompile(`fatal error: ([^:;\s]+): No such file or directory`)

// normalizers rewrite what differs between two boards failing for the
// same reason: quoted names, node paths, file positions, numbers.
var normalizers = []struct {
	re   *regexp.Regexp
	with string
}{
	// A file position: "dir/file.dts:12:3", dtc's "file.dts:4.1-7" or
	// "file.dtsi:40".
	{regexp.MustCompile(`[\w./+-]*\.(dtsi?|dtso|h|cue):\d+([.:]\d+)?(-\d+([.:]\d+)?)?`), "FILE"},
	{regexp.MustCompile(`[\w./+-]+\.(dtsi?|dtso|cue)\b`), "FILE"},
	{regexp.MustCompile(`"[^"]*"`), `"…"`},
	// A node path; a comma or colon after it ends the sentence.
	{regexp.MustCompile(`(^|[\s(&{])/([\w,./@:+-]*[\w./@+-])?`), "${1}PATH"},
	{regexp.MustCompile(`\b0x[0-9a-fA-F_]+\b`), "N"},
	{regexp.MustCompile(`\b\d+\b`), "N"},
}

// Normalize returns msg with what names one board's files, nodes and
// numbers replaced by placeholders, so that one cause reads the same on
// every board it hits; it keeps the first line, at most 160 bytes. A
// file cpp cannot find reads as the include's top directory, so that
// all the boards of one missing directory share a cause: <arm/...> and
// <riscv/...> are the other architectures' trees, which the tarball
// does not hold.
func Normalize(msg string) string {
	if m := missingRE.FindStringSubmatch(msg); m != nil {
		dir, _, ok := strings.Cut(m[1], "/")
		switch {
		case dir == "arm" || dir == "riscv":
			return fmt.Sprintf("cpp: no such include: %s/… (the corpus has no src/%s)", dir, dir)
		case ok:
			return fmt.Sprintf("cpp: no such include: %s/…", dir)
		}
		return "cpp: no such include: FILE"
	}
	msg, _, _ = strings.Cut(strings.TrimSpace(msg), "\n")
	for _, n := range normalizers {
		msg = n.re.ReplaceAllString(msg, n.with)
	}
	if len(msg) > 160 {
		cut := 160
		for cut > 0 && msg[cut]&0xc0 == 0x80 {
			cut--
		}
		msg = msg[:cut] + "…"
	}
	return msg
}

// Change is one difference between two trees.
type Change struct {
	// Kind is "adds", "removes" or "changes".
	Kind string
	// Path is the node's path; Prop its property, "" for the node.
	Path, Prop string
}

// String returns the change as "adds /soc/usb@1:dma-coherent".
func (c Change) String() string {
	if c.Prop == "" {
		return fmt.Sprintf("%s node %s", c.Kind, c.Path)
	}
	return fmt.Sprintf("%s %s:%s", c.Kind, c.Path, c.Prop)
}

// Cause returns the change without the node's unit address and parents:
// "adds dma-ranges on remoteproc", "removes node usb".
func (c Change) Cause() string {
	name := path.Base(c.Path)
	name, _, _ = strings.Cut(name, "@")
	if c.Prop == "" {
		return fmt.Sprintf("%s node %s", c.Kind, name)
	}
	return fmt.Sprintf("%s %s on %s", c.Kind, c.Prop, name)
}

// Diff returns how the tree got differs from want: every node and
// property added, removed or changed, in path order.
func Diff(want, got *basetree.Tree) []Change {
	var out []Change
	for _, p := range got.Paths() {
		if want.Node(p) == nil {
			out = append(out, Change{Kind: "adds", Path: p})
		}
	}
	for _, p := range want.Paths() {
		w, g := want.Node(p), got.Node(p)
		if g == nil {
			out = append(out, Change{Kind: "removes", Path: p})
			continue
		}
		for _, name := range g.PropNames() {
			if !w.Has(name) {
				out = append(out, Change{Kind: "adds", Path: p, Prop: name})
			}
		}
		for _, name := range w.PropNames() {
			wv, _ := w.Prop(name)
			gv, ok := g.Prop(name)
			switch {
			case !ok:
				out = append(out, Change{Kind: "removes", Path: p, Prop: name})
			case !bytes.Equal(wv, gv):
				out = append(out, Change{Kind: "changes", Path: p, Prop: name})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
