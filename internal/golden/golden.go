// Package golden compares generated files with committed expected outputs.
// BOARDC_UPDATE=1 rewrites the expected outputs instead of comparing.
//
// A golden copy shows what is particular to its board. Text every board's
// file ends with, the fixed library of tune.sh, is held by a Tail: the
// golden copy holds one marker line in its place, and the comparison
// checks that the generated file really ends with that text, byte for
// byte. The manifest.json that lists such a file pins its digest through a
// check instead of a string: the golden manifest holds a marker where the
// digest was, and the comparison checks that the generated manifest's
// digest is the SHA-256 of the file as generated, library included. The
// file's lines and names stay pinned in the manifest: a Tail is appended
// after every line that has an origin, so the library never moves the
// line numbers of the board's own lines. A change to the library thus
// changes no board's golden files.
package golden

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/outputs"
	"boardc.dev/boardc/outputs/tune"
)

// Update reports whether golden files are rewritten (BOARDC_UPDATE=1).
func Update() bool { return os.Getenv("BOARDC_UPDATE") == "1" }

// Tail is fixed text that the generated file at Path ends with, whole
// lines of it, and that its golden copy holds as the one line Marker.
type Tail struct {
	// Path is the file's path among the generated files.
	Path string
	// Text is what the file ends with; it ends in a newline.
	Text string
	// Marker is the line the golden copy holds instead of Text, without
	// its newline.
	Marker string
}

// Option changes what Check compares.
type Option func(*config)

type config struct {
	tails []Tail
	skip  map[string]bool
}

// WithTail makes Check compare the file at tail.Path without its tail:
// see Tail.
func WithTail(tail Tail) Option {
	return func(c *config) { c.tails = append(c.tails, tail) }
}

// Skip makes Check leave out the generated files at paths: they have no
// golden copy, and dir must not hold one.
func Skip(paths ...string) Option {
	return func(c *config) {
		if c.skip == nil {
			c.skip = map[string]bool{}
		}
		for _, p := range paths {
			c.skip[p] = true
		}
	}
}

// Check compares files with the tree under dir: every file must be there
// with the same bytes, after the options, and dir must hold no other
// file. Differences are reported as (-want +got) diffs.
func Check(t *testing.T, dir string, files []outputs.File, opts ...Option) {
	t.Helper()
	var c config
	for _, o := range opts {
		o(&c)
	}
	got := map[string]string{}
	var order []string
	for _, f := range files {
		if c.skip[f.Path] {
			continue
		}
		got[f.Path] = string(f.Data)
		order = append(order, f.Path)
	}
	for _, tail := range c.tails {
		if err := elide(got, tail); err != nil {
			t.Error(err)
		}
	}
	if Update() {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		for _, path := range order {
			p := filepath.Join(dir, filepath.FromSlash(path))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(got[path]), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	want := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		want[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var paths []string
	for p := range want {
		paths = append(paths, p)
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		w, inWant := want[p]
		g, inGot := got[p]
		switch {
		case !inWant:
			t.Errorf("%s: generated but not in %s (run with BOARDC_UPDATE=1 to add it)", p, dir)
		case !inGot && c.skip[p]:
			t.Errorf("%s: in %s, but it has no golden copy (remove it)", p, dir)
		case !inGot:
			t.Errorf("%s: expected in %s but not generated", p, dir)
		case w != g:
			t.Errorf("%s differs from %s (-want +got):\n%s", p, dir, cmp.Diff(w, g))
		}
	}
}

// elide replaces in got the tail of the file at tail.Path by its marker,
// and in manifest.json the file's digest by DigestMarker, once both are
// checked: the file ends with tail.Text after a whole line, and the
// manifest's digest is that of the file as generated. A board without
// the file is left alone.
func elide(got map[string]string, tail Tail) error {
	data, ok := got[tail.Path]
	if !ok {
		return nil
	}
	head, found := strings.CutSuffix(data, tail.Text)
	if !found || (head != "" && !strings.HasSuffix(head, "\n")) {
		return fmt.Errorf("%s does not end with its %d-line tail, byte for byte (%s)", tail.Path, strings.Count(tail.Text, "\n"), tail.Marker)
	}
	m, ok := got[outputs.ManifestPath]
	if ok {
		// The manifest writes a file's digest on the line after its
		// path (outputs.Manifest.Encode).
		key := "\n      \"path\": " + quote(tail.Path) + ",\n      \"sha256\": \""
		i := strings.Index(m, key)
		if i < 0 {
			return fmt.Errorf("%s lists no digest of %s", outputs.ManifestPath, tail.Path)
		}
		start := i + len(key)
		end := strings.IndexByte(m[start:], '"')
		if end < 0 {
			return fmt.Errorf("%s: the digest of %s has no end", outputs.ManifestPath, tail.Path)
		}
		sum := sha256.Sum256([]byte(data))
		if have, want := m[start:start+end], hex.EncodeToString(sum[:]); have != want {
			return fmt.Errorf("%s gives %s the digest %s, but the generated file's is %s", outputs.ManifestPath, tail.Path, have, want)
		}
		got[outputs.ManifestPath] = m[:start] + DigestMarker + m[start+end:]
	}
	got[tail.Path] = head + tail.Marker + "\n"
	return nil
}

// DigestMarker stands in a golden manifest.json for the digest of a file
// compared without its tail: the digest itself is checked against the
// generated file.
const DigestMarker = "(checked: the SHA-256 of the generated file)"

// quote returns a path as the manifest writes it, a JSON string; the
// paths of Tails need no escaping.
func quote(s string) string { return `"` + s + `"` }

// TuneLibrary is the tail of every tune.sh: the library of outputs/tune,
// which the golden copy of a board's tune.sh holds as one marker line.
var TuneLibrary = Tail{
	Path:   tune.ScriptFile,
	Text:   tune.Library(),
	Marker: "# (golden copy: tune.sh's library, outputs/tune/lib/*.sh, follows here byte for byte)",
}
