package tune_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc/outputs/tune"
)

// TestScriptLibrary asserts what the golden copies of tune.sh rely on
// (internal/golden.TuneLibrary): tune.sh is the board's own lines, ending
// with the actions function, then the library, the lib/*.sh parts joined
// by a blank line, byte for byte; and no annotation reaches into the
// library, so a change to it moves no line the manifest lists.
func TestScriptLibrary(t *testing.T) {
	parts, err := filepath.Glob(filepath.Join("lib", "*.sh"))
	if err != nil || len(parts) == 0 {
		t.Fatalf("no lib/*.sh: %v", err)
	}
	var texts []string
	for _, p := range parts {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	lib := strings.Join(texts, "\n")
	if tune.Library() != lib {
		t.Fatalf("Library() is not lib/*.sh joined by a blank line")
	}
	for _, f := range tune.Emit(testBoard()) {
		if f.Path != tune.ScriptFile {
			continue
		}
		head, ok := strings.CutSuffix(string(f.Data), lib)
		if !ok {
			t.Fatalf("%s does not end with the library", f.Path)
		}
		if !strings.HasSuffix(head, "\n\t:\n}\n\n") {
			t.Errorf("%s: the library does not follow the actions function and a blank line:\n%s", f.Path, head[max(0, len(head)-200):])
		}
		headLines := strings.Count(head, "\n")
		for _, a := range f.Annotations {
			if a.End > headLines {
				t.Errorf("%s: an annotation of lines %d-%d reaches into the library (from line %d)", f.Path, a.Line, a.End, headLines+1)
			}
		}
		return
	}
	t.Fatalf("no %s", tune.ScriptFile)
}
