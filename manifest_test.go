package boardc_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/outputs"
	"boardc.dev/boardc/schema"
)

// manifestOf returns the raw manifest.json of r and its decoded content.
func manifestOf(t *testing.T, r *boardc.Result) ([]byte, outputs.Manifest) {
	t.Helper()
	for _, f := range r.Files {
		if f.Path == outputs.ManifestPath {
			var m outputs.Manifest
			dec := json.NewDecoder(strings.NewReader(string(f.Data)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&m); err != nil {
				t.Fatalf("manifest.json: %v\n%s", err, f.Data)
			}
			return f.Data, m
		}
	}
	t.Fatalf("no %s among the files", outputs.ManifestPath)
	return nil, outputs.Manifest{}
}

// TestManifest checks manifest.json against the files it describes: every
// other file with the SHA-256 of its content, never itself, the emitters
// that ran, the schema version, and the inputs relative to the CUE module
// root.
func TestManifest(t *testing.T) {
	r := intree.Compile(t, filepath.Join("boards", "espressobin"))
	data, m := manifestOf(t, r)

	want := map[string]string{}
	for _, f := range r.Files {
		if f.Path != outputs.ManifestPath {
			sum := sha256.Sum256(f.Data)
			want[f.Path] = hex.EncodeToString(sum[:])
		}
	}
	got := map[string]string{}
	var paths []string
	for _, f := range m.Files {
		got[f.Path] = f.SHA256
		paths = append(paths, f.Path)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if !sort.StringsAreSorted(paths) {
		t.Errorf("files not sorted by path: %q", paths)
	}
	if len(m.Files) != len(r.Files)-1 {
		t.Errorf("manifest lists %d files, want %d (every file but itself)", len(m.Files), len(r.Files)-1)
	}

	var emitters []string
	for _, e := range boardc.Emitters() {
		emitters = append(emitters, e.Name)
	}
	sort.Strings(emitters)
	if diff := cmp.Diff(emitters, m.Emitters); diff != "" {
		t.Errorf("emitters (-want +got):\n%s", diff)
	}
	if m.Board != "espressobin" || m.Schema != schema.Version {
		t.Errorf("board %q schema %d, want espressobin %d", m.Board, m.Schema, schema.Version)
	}
	wantInputs := []string{"espressobin/board.cue", "soc/armada37xx/armada37xx.cue"}
	if diff := cmp.Diff(wantInputs, m.Inputs); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
	if !strings.HasSuffix(string(data), "}\n") || strings.Contains(string(data), "\t") {
		t.Errorf("manifest.json is not 2-space indented JSON ending in a newline:\n%s", data)
	}
}

// TestManifestCheckoutIndependent compiles the same board from a copy of
// the boards' CUE module elsewhere: the manifest must not change.
func TestManifestCheckoutIndependent(t *testing.T) {
	src := "boards"
	dst := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	a, _ := manifestOf(t, intree.Compile(t, filepath.Join(src, "espressobin")))
	b, _ := manifestOf(t, intree.Compile(t, filepath.Join(dst, "espressobin")))
	if diff := cmp.Diff(string(a), string(b)); diff != "" {
		t.Errorf("manifest depends on the checkout location (-here +elsewhere):\n%s", diff)
	}
}

// TestManifestLines checks the map of every in-tree board's manifest
// against the annotations of its files: line by line, the same refs,
// positions and names; every ref naming an element of the board; each
// entry on one line of the JSON.
func TestManifestLines(t *testing.T) {
	for _, r := range intree.CompileAll(t, filepath.Join("boards")) {
		t.Run(r.Board.Name, func(t *testing.T) {
			data, m := manifestOf(t, r)
			known := boardRefs(r.Board)
			byPath := map[string]outputs.ManifestFile{}
			entries := 0
			for _, f := range m.Files {
				byPath[f.Path] = f
				entries += len(f.Lines) + len(f.Names)
			}
			annotated := 0
			for _, f := range r.Files {
				if f.Path == outputs.ManifestPath {
					continue
				}
				mf := byPath[f.Path]
				if len(mf.Lines) > 0 {
					annotated++
				}
				n := bytes.Count(f.Data, []byte("\n"))
				// got[line] is the line's origin as the manifest tells it.
				got := map[int]string{}
				names := map[int][]string{}
				for _, l := range mf.Lines {
					for _, ln := range lineNumbers(t, l.Runs, n) {
						if _, dup := got[ln]; dup {
							t.Errorf("%s: line %d in two entries", f.Path, ln)
						}
						got[ln] = fmt.Sprint(l.Refs, l.Pos)
					}
					for _, ref := range l.Refs {
						if !known(ref) {
							t.Errorf("%s: ref %s names no element of the board", f.Path, ref)
						}
					}
				}
				for name, at := range mf.Names {
					for _, ln := range lineNumbers(t, at, n) {
						names[ln] = append(names[ln], name)
					}
				}
				for ln := 1; ln <= n; ln++ {
					o := f.LineOrigin(ln)
					var pos []string
					for _, p := range o.Pos {
						pos = append(pos, p.Short())
					}
					want := ""
					if len(o.Refs)+len(pos) > 0 {
						want = fmt.Sprint(o.Refs, pos)
					}
					if got[ln] != want {
						t.Errorf("%s:%d: manifest has %q, the file's annotation %q", f.Path, ln, got[ln], want)
					}
					sort.Strings(names[ln])
					wantNames := append([]string(nil), o.Names...)
					sort.Strings(wantNames)
					if !cmp.Equal(names[ln], wantNames, cmpopts.EquateEmpty()) {
						t.Errorf("%s:%d: manifest names %q, the file's annotation %q", f.Path, ln, names[ln], wantNames)
					}
				}
			}
			if annotated < 3 {
				t.Errorf("only %d files have a map of their lines", annotated)
			}
			if got := bytes.Count(data, []byte("\n        ")); got != entries {
				t.Errorf("%d line and name entries on lines of their own, want %d", got, entries)
			}
		})
	}
}

// lineNumbers returns the lines of the runs of a manifest entry, each
// within 1..n and after the one before.
func lineNumbers(t *testing.T, at outputs.Runs, n int) []int {
	t.Helper()
	var out []int
	for _, run := range at {
		if run.First < 1 || run.Last < run.First || run.Last > n ||
			len(out) > 0 && run.First <= out[len(out)-1] {
			t.Errorf("bad runs %q (a file of %d lines)", at, n)
			return nil
		}
		for i := run.First; i <= run.Last; i++ {
			out = append(out, i)
		}
	}
	return out
}

// boardRefs returns whether a ref names an element of b, or a set of them
// (soc.masters).
func boardRefs(b *ir.Board) func(ir.Ref) bool {
	refs := b.Refs()
	return func(r ir.Ref) bool {
		for _, k := range refs {
			if r.Contains(k) {
				return true
			}
		}
		return false
	}
}

// position matches a src:line position as the outputs print them.
var position = regexp.MustCompile(`[A-Za-z0-9_.+@-][A-Za-z0-9_./+@-]*\.cue:[0-9]+`)

// TestProvenanceFromMap: every position a generated line prints is among
// the positions its map entry records, since the printer writes the
// comments from that data; and names are recorded on lines of code only,
// never on a comment.
func TestProvenanceFromMap(t *testing.T) {
	for _, r := range intree.CompileAll(t, filepath.Join("boards")) {
		for _, f := range r.Files {
			if f.Path == outputs.ManifestPath {
				continue
			}
			for i, line := range strings.Split(string(f.Data), "\n") {
				if o := f.LineOrigin(i + 1); len(o.Names) > 0 && isComment(f.Path, line) {
					t.Errorf("%s/%s:%d: a comment records names %q", r.Board.Name, f.Path, i+1, o.Names)
				}
				printed := position.FindAllString(line, -1)
				if len(printed) == 0 {
					continue
				}
				recorded := map[string]bool{}
				for _, p := range f.LineOrigin(i + 1).Pos {
					recorded[p.Short()] = true
				}
				for _, p := range printed {
					if !recorded[p] {
						t.Errorf("%s/%s:%d prints %s, which its map entry lacks: %q", r.Board.Name, f.Path, i+1, p, line)
					}
				}
			}
		}
	}
}

// isComment reports whether line of the output at path is a comment: in
// C and DTS a line of a block comment, elsewhere a '#' line.
func isComment(path, line string) bool {
	s := strings.TrimSpace(line)
	switch filepath.Ext(path) {
	case ".c", ".h", ".dts", ".dtsi", ".dtso":
		return strings.HasPrefix(s, "/*") || strings.HasPrefix(s, "*")
	}
	return strings.HasPrefix(s, "#")
}
