package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/check"
	"boardc.dev/boardc/internal/golden"
)

// TestDiagnosticsDoc checks that docs/diagnostics.md lists every code as
// boardc checks does, each under the anchor its SARIF rule's helpUri
// names (BOARDC_UPDATE=1 rewrites the list).
func TestDiagnosticsDoc(t *testing.T) {
	file := filepath.Join("..", "..", "docs", "diagnostics.md")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- codes: ", "<!-- end codes -->"
	doc := string(data)
	i := strings.Index(doc, begin)
	j := strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s: no %q ... %q block", file, begin, end)
	}
	i += strings.Index(doc[i:], "\n") + 1
	var b strings.Builder
	for _, c := range check.Codes() {
		anchor := helpURI(c)[strings.LastIndex(helpURI(c), "#")+1:]
		fmt.Fprintf(&b, "\n<a id=\"%s\"></a>\n### %s %s (%s)\n\n%s\n", anchor, c.ID, c.Name, c.Severity, wrap(c.Doc, 72))
	}
	b.WriteString("\n")
	got := doc[:i] + b.String() + doc[j:]
	if got == doc {
		return
	}
	if golden.Update() {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the list of codes is not check.Codes' (BOARDC_UPDATE=1 rewrites it)", file)
}
