package golden

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/outputs"
)

// manifestOf returns a manifest.json listing tune.sh with digest sum, as
// outputs.Manifest.Encode writes it.
func manifestOf(sum string) string {
	return "{\n  \"files\": [\n    {\n      \"path\": \"tune.sh\",\n      \"sha256\": \"" + sum + "\",\n      \"lines\": []\n    }\n  ]\n}\n"
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestElide: the golden copy holds the board's lines and the marker, and
// the manifest's digest becomes DigestMarker, only when the generated file
// ends with the tail and the digest is the generated file's.
func TestElide(t *testing.T) {
	tail := Tail{Path: "tune.sh", Text: "lib 1\nlib 2\n", Marker: "# lib"}
	file := "board\n\nlib 1\nlib 2\n"
	got := map[string]string{"tune.sh": file, outputs.ManifestPath: manifestOf(digest(file))}
	if err := elide(got, tail); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"tune.sh": "board\n\n# lib\n", outputs.ManifestPath: manifestOf(DigestMarker)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("elided (-want +got):\n%s", diff)
	}

	for _, c := range []struct {
		name string
		got  map[string]string
		err  string
	}{
		{"no tail", map[string]string{"tune.sh": "board\nlib 1\n"},
			"tune.sh does not end with its 2-line tail, byte for byte (# lib)"},
		{"tail inside a line", map[string]string{"tune.sh": "boardlib 1\nlib 2\n"},
			"tune.sh does not end with its 2-line tail, byte for byte (# lib)"},
		{"wrong digest", map[string]string{"tune.sh": file, outputs.ManifestPath: manifestOf(digest("other"))},
			"manifest.json gives tune.sh the digest " + digest("other") + ", but the generated file's is " + digest(file)},
		{"not listed", map[string]string{"tune.sh": file, outputs.ManifestPath: "{}\n"},
			"manifest.json lists no digest of tune.sh"},
	} {
		err := elide(c.got, tail)
		if err == nil || err.Error() != c.err {
			t.Errorf("%s: elide = %v, want %s", c.name, err, c.err)
		}
	}

	// A board without the file is left alone.
	none := map[string]string{"x": "y"}
	if err := elide(none, tail); err != nil || len(none) != 1 || none["x"] != "y" {
		t.Errorf("elide changed a board without %s: %v %v", tail.Path, none, err)
	}
}
