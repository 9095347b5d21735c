package boards_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"boardc.dev/boardc"
	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/outputs"
)

// TestCommentEditStable compiles each in-tree board, then the same board
// from a copy of boards/ where every .cue file has comment lines inserted
// at its top and a blank line in its middle, and asserts that every
// device-tree output (.dtsi, .dtso, and a DPAA2 board's data-path layout
// and its DPC) is byte-identical while manifest.json,
// which holds the positions, maps the same lines to the same elements at
// the moved positions: an edit that changes no fact must not make the
// kernel build rebuild the dtb, nor the MC firmware's.
func TestCommentEditStable(t *testing.T) {
	edited := t.TempDir()
	moved := copyEdited(t, ".", edited)
	if moved == 0 {
		t.Fatal("no .cue file edited")
	}
	for _, dir := range intree.Dirs(t, ".") {
		t.Run(dir, func(t *testing.T) {
			before := intree.Compile(t, dir)
			c, err := boardc.New()
			if err != nil {
				t.Fatal(err)
			}
			after := c.Compile(filepath.Join(edited, dir), boardc.Options{})
			if after.Board == nil || after.Diagnostics.HasErrors() {
				var b strings.Builder
				_ = after.Diagnostics.WriteText(&b)
				t.Fatalf("edited %s does not compile:\n%s", dir, b.String())
			}
			got := map[string][]byte{}
			for _, f := range after.Files {
				got[f.Path] = f.Data
			}
			dt := 0
			for _, f := range before.Files {
				switch {
				case stableOutput(f.Path):
					dt++
					if !bytes.Equal(f.Data, got[f.Path]) {
						t.Errorf("%s changed under a comment-only edit:\n%s", f.Path, firstDiff(f.Data, got[f.Path]))
					}
				}
			}
			if dt == 0 {
				t.Errorf("%s yields no .dtsi or .dtso", dir)
			}
			// The manifest maps the same lines of the DT outputs to the
			// same elements, at positions moved by the inserted lines:
			// the header's three, and one more below the middle blank.
			lines := map[string][]outputs.Lines{}
			for _, f := range after.Manifest.Files {
				lines[f.Path] = f.Lines
			}
			moved := 0
			for _, f := range before.Manifest.Files {
				if !stableOutput(f.Path) {
					continue
				}
				a := lines[f.Path]
				if len(a) != len(f.Lines) {
					t.Errorf("%s: %d groups of lines in the manifest, %d after the edit", f.Path, len(f.Lines), len(a))
					continue
				}
				for i, l := range f.Lines {
					if l.Runs.String() != a[i].Runs.String() || !slices.Equal(l.Refs, a[i].Refs) || len(l.Pos) != len(a[i].Pos) {
						t.Errorf("%s: lines %s (%v) became %s (%v)", f.Path, l.Runs, l.Refs, a[i].Runs, a[i].Refs)
						continue
					}
					for j, p := range l.Pos {
						q := a[i].Pos[j]
						if d := q.Line - p.Line; q.Src != p.Src || d != 3 && d != 4 {
							t.Errorf("%s: lines %s: position %s:%d became %s:%d, want 3 or 4 lines down", f.Path, l.Runs, p.Src, p.Line, q.Src, q.Line)
						}
						moved++
					}
				}
			}
			if moved == 0 {
				t.Error("the manifest holds no position of a DT output line")
			}
			t.Logf("%d DT outputs byte-identical, %d positions moved in the manifest", dt, moved)
		})
	}
}

// stableOutput reports whether the output at path must not change under an
// edit that changes no fact: the device-tree fragment and overlay, the
// DPAA2 data-path layout and the DPC beside it.
func stableOutput(path string) bool {
	for _, suffix := range []string{".dtsi", ".dtso", "-dpl.dts", "-dpc.dts"} {
		if strings.HasSuffix(path, suffix) {
			return true
		}
	}
	return false
}

// editHeader is what copyEdited inserts at the top of every .cue file.
const editHeader = "// A comment added by an edit that changes no fact.\n//\n// And a second one.\n"

// copyEdited copies the tree at src to dst, .cue files edited: the
// comment lines of editHeader at the top and, after the blank line nearest
// the middle, another blank line. It returns the number of files edited.
func copyEdited(t *testing.T, src, dst string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		to := filepath.Join(dst, p)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.HasSuffix(p, ".cue") && filepath.Base(filepath.Dir(p)) != "cue.mod" {
			data = []byte(editHeader + blankInMiddle(string(data)))
			n++
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// blankInMiddle doubles the empty line of s nearest its middle line, a
// place where a blank line cannot fall inside a literal of the files this
// test edits (they hold no multi-line strings).
func blankInMiddle(s string) string {
	lines := strings.Split(s, "\n")
	best := -1
	for i, l := range lines {
		if l == "" && i < len(lines)-1 && (best < 0 || abs(i-len(lines)/2) < abs(best-len(lines)/2)) {
			best = i
		}
	}
	if best < 0 {
		return s
	}
	lines = append(lines[:best+1], append([]string{""}, lines[best+1:]...)...)
	return strings.Join(lines, "\n")
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// firstDiff returns the first line where a and b differ, from each.
func firstDiff(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return "line " + strconv.Itoa(i+1) + ":\n-" + la[i] + "\n+" + lb[i]
		}
	}
	return "lengths differ"
}
