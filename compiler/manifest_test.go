package compiler_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/compiler"
	"boardc.dev/boardc/schema"
)

// compileBoard compiles the board at dir and fails on any error.
func compileBoard(t *testing.T, dir string) *compiler.Result {
	t.Helper()
	c, err := compiler.New()
	if err != nil {
		t.Fatal(err)
	}
	r := c.Compile(dir, compiler.Options{})
	if r.Diagnostics.HasErrors() {
		var b strings.Builder
		_ = r.Diagnostics.WriteText(&b)
		t.Fatalf("%s does not compile:\n%s", dir, b.String())
	}
	return r
}

// manifestOf returns the raw manifest.json of r and its decoded content.
func manifestOf(t *testing.T, r *compiler.Result) ([]byte, compiler.Manifest) {
	t.Helper()
	for _, f := range r.Files {
		if f.Path == compiler.ManifestPath {
			var m compiler.Manifest
			dec := json.NewDecoder(strings.NewReader(string(f.Data)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&m); err != nil {
				t.Fatalf("manifest.json: %v\n%s", err, f.Data)
			}
			return f.Data, m
		}
	}
	t.Fatalf("no %s among the files", compiler.ManifestPath)
	return nil, compiler.Manifest{}
}

// TestManifest checks manifest.json against the files it describes: every
// other file with the SHA-256 of its content, never itself, the emitters
// that ran, the schema version, and the inputs relative to the CUE module
// root.
func TestManifest(t *testing.T) {
	r := compileBoard(t, filepath.Join("..", "boards", "espressobin"))
	data, m := manifestOf(t, r)

	want := map[string]string{}
	for _, f := range r.Files {
		if f.Path != compiler.ManifestPath {
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
	for _, e := range compiler.Emitters() {
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
	src := filepath.Join("..", "boards")
	dst := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	a, _ := manifestOf(t, compileBoard(t, filepath.Join(src, "espressobin")))
	b, _ := manifestOf(t, compileBoard(t, filepath.Join(dst, "espressobin")))
	if diff := cmp.Diff(string(a), string(b)); diff != "" {
		t.Errorf("manifest depends on the checkout location (-here +elsewhere):\n%s", diff)
	}
}
