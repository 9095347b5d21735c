package load_test

import (
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/internal/badcorpus"
)

// TestBadCorpus loads every broken input of testdata/bad: each must yield
// no board, at least one error diagnostic, every diagnostic positioned in
// a file (with a line whenever the input has a file to point into), and no
// panic.
func TestBadCorpus(t *testing.T) {
	root := t.TempDir()
	cases := badcorpus.Expand(t, "testdata/bad", root)
	t.Chdir(root)
	// Loading offline: a missing module must fail, not be fetched.
	t.Setenv("CUE_REGISTRY", "none")
	l, err := load.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if c.Skip != "" {
				t.Skip(c.Skip)
			}
			b, ds := loadNoPanic(t, l, c.Arg)
			if b != nil {
				t.Fatalf("loaded a board from a broken input; diagnostics:\n%s", text(ds))
			}
			if !ds.HasErrors() {
				t.Fatalf("no error diagnostic:\n%s", text(ds))
			}
			t.Logf("%s", text(ds))
			for _, d := range ds {
				if d.Pos.File == "" {
					t.Errorf("diagnostic without a file: %s", d)
				}
				if !c.Path && d.Pos.Line <= 0 {
					t.Errorf("diagnostic without a line: %s", d)
				}
				if d.Code == "" || d.Message == "" {
					t.Errorf("diagnostic without a code or message: %s", d)
				}
			}
		})
	}
}

func loadNoPanic(t *testing.T, l *load.Loader, arg string) (b any, ds diag.List) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panic loading %s: %v", arg, r)
		}
	}()
	board, ds := l.Load(arg)
	if board != nil {
		return board, ds
	}
	return nil, ds
}

func text(ds diag.List) string {
	var b strings.Builder
	ds.WriteText(&b)
	return b.String()
}
