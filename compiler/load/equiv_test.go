package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"github.com/rogpeppe/go-internal/txtar"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/internal/corpus"
	"boardc.dev/boardc/internal/synth"
)

// The schema the loader builds into a description (#Board's fields on the
// package's top level, the top-level names checked) must accept exactly what the schema as written accepts when
// unified with the description, the way `cue vet` checks it. A description
// accepted by one and rejected by the other would build where cue rejects
// it, or fail with no explanation.

// sameVerdict fails t when build and explain disagree on the description
// at path.
func sameVerdict(t *testing.T, l *Loader, path string) {
	t.Helper()
	inst, _, ds := l.instance(path)
	if inst == nil {
		if len(ds) == 0 {
			t.Fatal("no instance and no diagnostic")
		}
		return // neither path gets further
	}
	_, err := l.build(inst)
	ref := l.explain(path)
	switch {
	case err == nil && len(ref) > 0:
		t.Errorf("the built-in schema accepts %s, #Board rejects it:\n%s", path, text(ref))
	case err != nil && len(ref) == 0:
		t.Errorf("the built-in schema rejects %s, #Board accepts it: %v", path, err)
	}
}

func text(ds diag.List) string {
	var b strings.Builder
	ds.WriteText(&b)
	return b.String()
}

// TestSameVerdict compares the two on the in-tree boards, a synthetic
// board and every input of the bad corpus.
func TestSameVerdict(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	l, err := New()
	if err != nil {
		t.Fatal(err)
	}
	boards, err := filepath.Glob("../../boards/*/board.cue")
	if err != nil || len(boards) == 0 {
		t.Fatalf("no in-tree board: %v", err)
	}
	for _, b := range boards {
		sameVerdict(t, l, filepath.Dir(b))
	}
	dir, err := synth.Write(t.TempDir(), synth.Default(100))
	if err != nil {
		t.Fatal(err)
	}
	sameVerdict(t, l, dir)

	root := t.TempDir()
	for _, c := range corpus.Expand(t, "testdata/bad", root) {
		if c.Skip == "" {
			sameVerdict(t, l, filepath.Join(root, c.Arg))
		}
	}
}

// FuzzSameVerdict compares the two on arbitrary bytes as a board.cue.
// Seeds are the bad corpus's files and the in-tree boards and SoCs.
func FuzzSameVerdict(f *testing.F) {
	for _, s := range corpus.FuzzSeeds(f, "testdata/bad", "../../boards") {
		f.Add(s)
	}
	f.Setenv("CUE_REGISTRY", "none")
	l, err := New()
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, src []byte) {
		if err := os.WriteFile(filepath.Join(dir, "board.cue"), src, 0o644); err != nil {
			t.Fatal(err)
		}
		sameVerdict(t, l, dir)
	})
}

// A package that declares a field with the name boardc gives the schema
// may refer to it: the reference resolves in the package, not in the
// build's scope.
func TestSchemaNameDeclaredByAPackage(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	a, err := txtar.ParseFile("testdata/bad/module-soc-schema-name.txtar")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	// The declaration is in another file of the package than the
	// reference, which the package's resolution, not the file's, finds.
	files := append(a.Files, txtar.File{Name: "soc/tiny/names.cue", Data: []byte("package tiny\n\nboardcSchema: #Key: string\n")})
	corpus.WriteFiles(t, root, files)
	l, err := New()
	if err != nil {
		t.Fatal(err)
	}
	board := filepath.Join(root, "board")
	sameVerdict(t, l, board)
	if e, ds := l.Evaluate(board); e == nil {
		t.Errorf("does not load:\n%s", text(ds))
	}
}

// Should the two ever disagree on an unknown top-level field, the
// built-in schema's own error still reads as CUE's and is positioned.
func TestNotAllowedDiagnostic(t *testing.T) {
	p := &positions{dir: t.TempDir()}
	ds := p.fromCUE(notAllowed("colour"), cue.Value{}, diag.Schema.ID)
	if len(ds) != 1 || ds[0].Code != diag.Unknown.ID || ds[0].Message != "colour: field not allowed" || ds[0].Pos.File == "" {
		t.Errorf("got %v", ds)
	}
}
