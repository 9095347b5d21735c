package outputs_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// TestManifestRoundTrip decodes every in-tree board's committed
// manifest.json and encodes it again: the same bytes, so that a manifest
// read back (by the report, by explain) holds all it says.
func TestManifestRoundTrip(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "boards", "*", "expected", outputs.ManifestPath))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no manifest found: %v", err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := outputs.DecodeManifest(data)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		lines := 0
		for _, f := range m.Files {
			lines += len(f.Lines)
		}
		if lines == 0 {
			t.Errorf("%s: no lines decoded", p)
		}
		if diff := cmp.Diff(string(data), string(m.Encode())); diff != "" {
			t.Errorf("%s: encoded again (-committed +encoded):\n%s", p, diff)
		}
	}
}

// TestLinesJSON: Lines marshal as the manifest writes them, with
// encoding/json too, and unmarshal to the same value.
func TestLinesJSON(t *testing.T) {
	l := outputs.Lines{
		Runs: outputs.Runs{{First: 3, Last: 3}, {First: 27, Last: 28}},
		Refs: []ir.Ref{"soc.masters.crypto"},
		Pos:  []outputs.SrcLine{{Src: "soc/a<b>.cue", Line: 12}, {Src: "c:d.cue", Line: 4}},
	}
	const want = `{"at":"3,27-28","refs":["soc.masters.crypto"],"pos":["soc/a<b>.cue:12","c:d.cue:4"]}`
	got, err := l.MarshalJSON()
	if err != nil || string(got) != want {
		t.Errorf("MarshalJSON = %s, %v; want %s", got, err, want)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(l); err != nil || buf.String() != want+"\n" {
		t.Errorf("json.Encoder = %s, %v; want %s", buf.String(), err, want)
	}
	var back outputs.Lines
	if err := json.Unmarshal([]byte(want), &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(l, back); diff != "" {
		t.Errorf("unmarshalled (-want +got):\n%s", diff)
	}
	if !back.Runs.Contains(28) || back.Runs.Contains(4) {
		t.Errorf("Contains: %v", back.Runs)
	}
	if err := json.Unmarshal([]byte(`{"at":"1","line":2}`), &back); err == nil || err.Error() != `json: unknown field "line"` {
		t.Errorf("an unknown field: %v", err)
	}
}

// TestParseRuns refuses runs that are not in order, start before line 1
// or are not numbers, naming the text.
func TestParseRuns(t *testing.T) {
	for text, want := range map[string]string{
		"":          "",
		"5":         "5",
		"1-2,4,6-9": "1-2,4,6-9",
	} {
		r, err := outputs.ParseRuns(text)
		if err != nil || r.String() != want {
			t.Errorf("ParseRuns(%q) = %v, %v", text, r, err)
		}
	}
	for _, text := range []string{"0", "3,2", "2-2", "4-3", "1-2,2", "a", "1,", "-1"} {
		_, err := outputs.ParseRuns(text)
		if want := `bad line runs "` + text + `"`; err == nil || err.Error() != want {
			t.Errorf("ParseRuns(%q): %v, want %s", text, err, want)
		}
	}
}

// TestSrcLineText reads a position back at its last colon, and refuses
// one without a line.
func TestSrcLineText(t *testing.T) {
	var p outputs.SrcLine
	if err := p.UnmarshalText([]byte("a:b.cue:7")); err != nil || p != (outputs.SrcLine{Src: "a:b.cue", Line: 7}) {
		t.Errorf("got %+v, %v", p, err)
	}
	for _, s := range []string{"b.cue", ":7", "b.cue:x", "b.cue:-1"} {
		if err := p.UnmarshalText([]byte(s)); err == nil || err.Error() != `bad position "`+s+`": want src:line` {
			t.Errorf("%q: %v", s, err)
		}
	}
	if got := outputs.SrcLineOf(ir.Pos{File: "/x/b.cue", Line: 3}); got.String() != "/x/b.cue:3" {
		t.Errorf("SrcLineOf without Src: %v", got)
	}
}
