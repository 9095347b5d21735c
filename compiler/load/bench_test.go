package load_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"cuelang.org/go/cue/cuecontext"
	cueload "cuelang.org/go/cue/load"

	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/internal/benchcpu"
	"boardc.dev/boardc/internal/synth"
)

// BenchmarkCUE sets the loader against CUE's own work on the same files, in
// the same run, on the in-tree boards and on synthetic boards
// (BOARDC_BENCH_SYNTH as for the compiler's benchmarks):
//
//	New       load.New: the schema prepared, once per Loader
//	Parse     load.Instances: read and parse the module's files
//	Build     Parse, then BuildInstance of the description alone: the
//	          evaluation `cue export` does, without the schema
//	Evaluate  the Loader's Evaluate: the description built under the
//	          schema and validated
//
// Evaluate/Build is what the schema costs; Build is the floor of any tool
// that evaluates the description with CUE. Each reports cpu-ns/op beside
// ns/op: the process's user and system time per operation, the collector's
// included, which a machine shared with other jobs disturbs less than the
// wall time.
//
//	BOARDC_BENCH_SYNTH=1000,5000 go test -bench CUE -run '^$' ./compiler/load/
func BenchmarkCUE(b *testing.B) {
	b.Setenv("CUE_REGISTRY", "none")
	sizes, err := synth.BenchSizes(os.Getenv("BOARDC_BENCH_SYNTH"))
	if err != nil {
		b.Fatal(err)
	}
	type board struct{ name, dir string }
	var boards []board
	m, err := filepath.Glob(filepath.Join("..", "..", "boards", "*", "board.cue"))
	if err != nil {
		b.Fatal(err)
	}
	sort.Strings(m)
	for _, f := range m {
		d := filepath.Dir(f)
		boards = append(boards, board{filepath.Base(d), d})
	}
	for _, n := range sizes {
		p := synth.Default(n)
		dir, err := synth.Write(b.TempDir(), p)
		if err != nil {
			b.Fatal(err)
		}
		boards = append(boards, board{p.Name(), dir})
	}
	b.Run("New", func(b *testing.B) {
		defer benchcpu.PerOp(b)()
		for b.Loop() {
			if _, err := load.New(); err != nil {
				b.Fatal(err)
			}
		}
	})
	l, err := load.New()
	if err != nil {
		b.Fatal(err)
	}
	ctx := cuecontext.New()
	for _, bd := range boards {
		dir := bd.dir
		b.Run("Parse/"+bd.name, func(b *testing.B) {
			defer benchcpu.PerOp(b)()
			for b.Loop() {
				if err := cueload.Instances([]string{"."}, &cueload.Config{Dir: dir})[0].Err; err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Build/"+bd.name, func(b *testing.B) {
			defer benchcpu.PerOp(b)()
			for b.Loop() {
				insts := cueload.Instances([]string{"."}, &cueload.Config{Dir: dir})
				if v := ctx.BuildInstance(insts[0]); v.Err() != nil {
					b.Fatal(v.Err())
				}
			}
		})
		b.Run("Evaluate/"+bd.name, func(b *testing.B) {
			defer benchcpu.PerOp(b)()
			for b.Loop() {
				if e, ds := l.Evaluate(dir); e == nil {
					b.Fatal(ds)
				}
			}
		})
	}
}

// BenchmarkPrepare measures what Prepare costs a BSP, per board: boards
// of two files each (the board and a filler, as boardc import and a
// vendor's fill write them) on one SoC package, prepared together, for 2
// and 32 boards. cue/load reads each board's directory, parses its files
// and resolves its import; the difference of the two, over 30 boards, is
// what one more board costs.
//
//	go test -bench Prepare -run '^$' ./compiler/load/
func BenchmarkPrepare(b *testing.B) {
	b.Setenv("CUE_REGISTRY", "none")
	dir := b.TempDir()
	write := func(name, data string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write("cue.mod/module.cue", "module: \"example.com/bsp@v0\"\nlanguage: version: \"v0.17.0\"\n")
	write("soc/s/s.cue", "package s\n\nsoc: {name: \"s\", compatible: [\"vendor,s\"]}\n")
	var paths []string
	for i := range 32 {
		name := fmt.Sprintf("b%02d", i)
		write(name+"/board.cue", fmt.Sprintf("package %s\n\nimport \"example.com/bsp/soc/s\"\n\nname: %q\nsoc: s.soc\nsoc: masters: m%d: enabled: false\n", name, name, i))
		write(name+"/fill.cue", fmt.Sprintf("package %s\n\nmemory: [{base: 0x0, size: 0x4000_0000}]\n", name))
		paths = append(paths, filepath.Join(dir, name))
	}
	l, err := load.New()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{2, 32} {
		b.Run(fmt.Sprintf("boards=%d", n), func(b *testing.B) {
			defer benchcpu.PerOp(b)()
			for b.Loop() {
				l.Prepare(paths[:n])
			}
		})
	}
}
