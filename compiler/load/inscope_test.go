package load

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/internal/corpus"
	"boardc.dev/boardc/internal/synth"
)

// TestEvaluateInScope loads every in-tree board, every case of
// testdata/cases (valid or not) and synthetic boards with Evaluate
// building each description with #Board's fields in its own value
// (evaluateInScope), and with a Loader that unifies every description
// with #Board (unifyOnly), and requires the same partial boards,
// diagnostics and missing facts, positions included. The in-tree and
// synthetic boards must have been built in scope.
func TestEvaluateInScope(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	type desc struct {
		name, dir, arg string
		inScope        bool
	}
	var boards []desc
	m, err := filepath.Glob(filepath.Join("..", "..", "boards", "*", "board.cue"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m {
		d, err := filepath.Abs(filepath.Dir(f))
		if err != nil {
			t.Fatal(err)
		}
		boards = append(boards, desc{filepath.Base(d), d, ".", true})
	}
	for _, n := range []int{100, 300} {
		p := synth.Default(n)
		dir, err := synth.Write(t.TempDir(), p)
		if err != nil {
			t.Fatal(err)
		}
		boards = append(boards, desc{p.Name(), dir, ".", true})
	}
	for _, tc := range corpus.Expand(t, filepath.Join("..", "..", "testdata", "cases"), t.TempDir()) {
		boards = append(boards, desc{"case-" + tc.Name, tc.Dir, tc.Rel, false})
	}
	// Boards on the SoC of bspModule: what the top level may hold in
	// scope (definitions, hidden fields, lets, #Board's optional fields),
	// and what must be unified instead, each in error: a field #Board
	// lacks, one it closes, one of the wrong type, one not concrete, a
	// required one missing, a field from a comprehension, an optional
	// field, a reference to nothing, a reference to a definition of the
	// schema (which the description cannot see), a field a master's
	// definition closes.
	root := t.TempDir()
	extra := map[string]string{
		"defs":       "#x: 1\n_y: 2\nlet z = 3\nmodel: \"m\\(#x + _y + z)\"\nkernel: \"6.12\"\nwaivers: []\n",
		"stray":      "extra: 1\n",
		"closed":     "policy: bogus: 1\n",
		"typed":      "model: 5\n",
		"vague":      "model: string\n",
		"computed":   "for k in [\"extra\"] {(k): 1}\n",
		"optional":   "model?: \"m\"\n",
		"dangling":   "model: undefined\n",
		"conflicted": "name: \"other\"\n",
		"schemaref":  "model: #Model\n",
		"master":     "soc: masters: dma0: bogus: 1\n",
	}
	tree := map[string]string{}
	for k, v := range bspModule {
		tree[k] = v
	}
	for name, src := range extra {
		tree[name+"/board.cue"] = board(name, src)
	}
	tree["noname/board.cue"] = strings.Replace(board("noname", ""), "name: \"noname\"\n", "", 1)
	writeTree(t, root, tree)
	for _, name := range []string{"a", "defs", "stray", "closed", "typed", "vague", "computed", "optional", "dangling", "conflicted", "schemaref", "master", "noname"} {
		boards = append(boards, desc{"bsp-" + name, filepath.Join(root, name), ".", name == "a" || name == "defs"})
	}
	for _, b := range boards {
		t.Run(b.name, func(t *testing.T) {
			t.Chdir(b.dir)
			scoped, err := New()
			if err != nil {
				t.Fatal(err)
			}
			unified, err := New()
			if err != nil {
				t.Fatal(err)
			}
			unified.unifyOnly = true
			got, want := scoped.LoadPartial(b.arg), unified.LoadPartial(b.arg)
			if !reflect.DeepEqual(got.Board, want.Board) {
				t.Errorf("boards differ (-unified +in scope):\n%s", cmp.Diff(want.Board, got.Board))
			}
			if g, w := diagText(got.Diagnostics), diagText(want.Diagnostics); g != w {
				t.Errorf("diagnostics differ:\n%s", cmp.Diff(w, g))
			}
			if !reflect.DeepEqual(got.Missing, want.Missing) {
				t.Errorf("missing: %v in scope, %v unified", got.Missing, want.Missing)
			}
			if b.inScope {
				inst, _, ds := scoped.instance(b.arg)
				ctx, _, err := scoped.context()
				if inst == nil || err != nil {
					t.Fatalf("%v %v", ds, err)
				}
				if _, ok := scoped.evaluateInScope(ctx, inst); !ok {
					t.Errorf("not evaluated in scope")
				}
			}
		})
	}
}
