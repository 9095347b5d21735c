package load_test

import (
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/internal/corpus"
)

// TestBadCorpus loads every broken input of testdata/bad from its own
// directory: each must yield no board, at least one error diagnostic,
// every diagnostic positioned in a file (with a line whenever the input
// has a file to point into), no panic, and exactly the diagnostics of the
// case's want.diag section (BOARDC_UPDATE=1 rewrites them).
func TestBadCorpus(t *testing.T) {
	cases := corpus.Expand(t, "testdata/bad", t.TempDir())
	if len(cases) < corpus.MinCases {
		t.Fatalf("the corpus has %d cases, want at least %d", len(cases), corpus.MinCases)
	}
	// Loading offline: a missing module must fail, not be fetched.
	t.Setenv("CUE_REGISTRY", "none")
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if c.Skip != "" {
				t.Skip(c.Skip)
			}
			// The loader shows positions relative to the working
			// directory it was made in.
			t.Chdir(c.Dir)
			l, err := load.New()
			if err != nil {
				t.Fatal(err)
			}
			b, ds := loadNoPanic(t, l, c.Rel)
			got := text(ds)
			if b != nil {
				t.Fatalf("loaded a board from a broken input; diagnostics:\n%s", got)
			}
			if !ds.HasErrors() {
				t.Errorf("no error diagnostic:\n%s", got)
			}
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
			c.Check(t, got)
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
