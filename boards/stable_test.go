package boards_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"boardc.dev/boardc"
	"boardc.dev/boardc/internal/intree"
)

// TestCommentEditStable compiles each in-tree board, then the same board
// from a copy of boards/ where every .cue file has comment lines inserted
// at its top and a blank line in its middle, and asserts that every
// device-tree output (.dtsi, .dtso) is byte-identical while manifest.json,
// which holds the positions, records the moved lines: an edit that
// changes no fact must not make the kernel build rebuild the dtb.
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
				case strings.HasSuffix(f.Path, ".dtsi"), strings.HasSuffix(f.Path, ".dtso"):
					dt++
					if !bytes.Equal(f.Data, got[f.Path]) {
						t.Errorf("%s changed under a comment-only edit:\n%s", f.Path, firstDiff(f.Data, got[f.Path]))
					}
				case f.Path == "manifest.json":
					// The positions moved by the inserted lines: the
					// manifest still maps lines to where they come from.
					if bytes.Equal(f.Data, got[f.Path]) {
						t.Errorf("manifest.json unchanged: its positions did not follow the edit")
					}
					if !bytes.Contains(got[f.Path], []byte(`"pos":[`)) {
						t.Errorf("edited manifest.json holds no positions")
					}
				}
			}
			if dt == 0 {
				t.Errorf("%s yields no .dtsi or .dtso", dir)
			}
		})
	}
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
