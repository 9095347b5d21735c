package boardc_test

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/check"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/internal/benchcpu"
	"boardc.dev/boardc/internal/synth"
	"boardc.dev/boardc/outputs"
)

// The benchmarks time each stage of a build on every in-tree board and on
// synthetic boards of 100 and 1,000 DMA masters:
//
//	go test -bench . -run '^$' .
//
// Evaluate is CUE's part (load, build, unify with the schema, validate);
// Lower, Checks, each emitter and Manifest are boardc's own; Compile is the
// whole.
// Evaluate, Lower and Compile report cpu-ns/op beside ns/op: the process's
// user and system time per operation, the collector's included, which a
// machine shared with other jobs disturbs less than the wall time.

type benchBoard struct{ name, dir string }

// benchBoards returns the in-tree boards (each directory of boards/ with a
// board.cue, except the SoC packages) and freshly generated synthetic ones.
func benchBoards(b *testing.B) []benchBoard {
	b.Helper()
	b.Setenv("CUE_REGISTRY", "none")
	m, err := filepath.Glob(filepath.Join("boards", "*", "board.cue"))
	if err != nil {
		b.Fatal(err)
	}
	sort.Strings(m)
	var out []benchBoard
	for _, f := range m {
		if d := filepath.Dir(f); filepath.Base(d) != "soc" {
			out = append(out, benchBoard{filepath.Base(d), d})
		}
	}
	if len(out) == 0 {
		b.Fatal("no in-tree board found")
	}
	sizes, err := synth.BenchSizes(os.Getenv("BOARDC_BENCH_SYNTH"))
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range sizes {
		p := synth.Default(n)
		dir, err := synth.Write(b.TempDir(), p)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, benchBoard{p.Name(), dir})
	}
	return out
}

func newLoader(b *testing.B) *load.Loader {
	b.Helper()
	l, err := load.New()
	if err != nil {
		b.Fatal(err)
	}
	return l
}

func evaluate(b *testing.B, l *load.Loader, dir string) *load.Evaluated {
	b.Helper()
	e, ds := l.Evaluate(dir)
	if e == nil {
		b.Fatalf("%s: %v", dir, ds)
	}
	return e
}

func lower(b *testing.B, l *load.Loader, e *load.Evaluated) *ir.Board {
	b.Helper()
	bd, ds := l.Lower(e)
	if bd == nil {
		b.Fatalf("%v", ds)
	}
	return bd
}

// BenchmarkNew prepares the embedded schema, once per Compiler.
func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		if _, err := boardc.New(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluate loads the CUE package, builds it, unifies it with the
// schema and validates it.
func BenchmarkEvaluate(b *testing.B) {
	l := newLoader(b)
	for _, bb := range benchBoards(b) {
		b.Run(bb.name, func(b *testing.B) {
			defer benchcpu.PerOp(b)()
			for b.Loop() {
				evaluate(b, l, bb.dir)
			}
		})
	}
}

// BenchmarkLower lowers an evaluated description to the IR.
func BenchmarkLower(b *testing.B) {
	l := newLoader(b)
	for _, bb := range benchBoards(b) {
		b.Run(bb.name, func(b *testing.B) {
			e := evaluate(b, l, bb.dir)
			defer benchcpu.PerOp(b)()
			for b.Loop() {
				lower(b, l, e)
			}
		})
	}
}

// BenchmarkChecks runs every semantic check over a lowered board.
func BenchmarkChecks(b *testing.B) {
	l := newLoader(b)
	for _, bb := range benchBoards(b) {
		b.Run(bb.name, func(b *testing.B) {
			bd := lower(b, l, evaluate(b, l, bb.dir))
			for b.Loop() {
				check.Run(bd)
			}
		})
	}
}

// BenchmarkEmit runs each emitter over a lowered board.
func BenchmarkEmit(b *testing.B) {
	l := newLoader(b)
	boards := benchBoards(b)
	for _, em := range boardc.Emitters() {
		b.Run(em.Name, func(b *testing.B) {
			for _, bb := range boards {
				b.Run(bb.name, func(b *testing.B) {
					bd := lower(b, l, evaluate(b, l, bb.dir))
					for b.Loop() {
						em.Emit(bd)
					}
				})
			}
		})
	}
}

// BenchmarkCompile is a whole compilation with one Compiler, as boardc
// build does for each board it is given.
func BenchmarkCompile(b *testing.B) {
	c, err := boardc.New()
	if err != nil {
		b.Fatal(err)
	}
	for _, bb := range benchBoards(b) {
		b.Run(bb.name, func(b *testing.B) {
			defer benchcpu.PerOp(b)()
			for b.Loop() {
				if r := c.Compile(bb.dir, boardc.Options{}); r.Diagnostics.HasErrors() {
					b.Fatalf("%v", r.Diagnostics)
				}
			}
		})
	}
}

// BenchmarkManifest makes a compiled board's manifest entries, the
// origins of every line of every file (Entries), and encodes its
// manifest.json (Encode), the last file a Compile makes.
func BenchmarkManifest(b *testing.B) {
	c, err := boardc.New()
	if err != nil {
		b.Fatal(err)
	}
	for _, bb := range benchBoards(b) {
		r := c.Compile(bb.dir, boardc.Options{})
		if r.Diagnostics.HasErrors() {
			b.Fatalf("%v", r.Diagnostics)
		}
		b.Run("Entries/"+bb.name, func(b *testing.B) {
			for b.Loop() {
				for _, f := range r.Files {
					outputs.ManifestEntry(f)
				}
			}
		})
		b.Run("Encode/"+bb.name, func(b *testing.B) {
			for b.Loop() {
				r.Manifest.Encode()
			}
		})
	}
}
