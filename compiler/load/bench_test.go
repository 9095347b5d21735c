package load_test

import (
	"os"
	"testing"

	"cuelang.org/go/cue/cuecontext"
	cueload "cuelang.org/go/cue/load"

	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/internal/synth"
)

// BenchmarkCUE sets the loader against CUE's own work on the same files, in
// the same run, on synthetic boards (BOARDC_BENCH_SYNTH as for the
// compiler's benchmarks):
//
//	Parse     load.Instances: read and parse the module's files
//	Build     Parse, then BuildInstance of the description alone: the
//	          evaluation `cue export` does, without the schema
//	Evaluate  the Loader's Evaluate: the description built under the
//	          schema and validated
//
// Evaluate/Build is what the schema costs; Build is the floor of any tool
// that evaluates the description with CUE.
//
//	BOARDC_BENCH_SYNTH=1000,5000 go test -bench CUE -run '^$' ./compiler/load/
func BenchmarkCUE(b *testing.B) {
	b.Setenv("CUE_REGISTRY", "none")
	sizes, err := synth.BenchSizes(os.Getenv("BOARDC_BENCH_SYNTH"))
	if err != nil {
		b.Fatal(err)
	}
	l, err := load.New()
	if err != nil {
		b.Fatal(err)
	}
	ctx := cuecontext.New()
	for _, n := range sizes {
		p := synth.Default(n)
		dir, err := synth.Write(b.TempDir(), p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("Parse/"+p.Name(), func(b *testing.B) {
			for b.Loop() {
				if err := cueload.Instances([]string{"."}, &cueload.Config{Dir: dir})[0].Err; err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Build/"+p.Name(), func(b *testing.B) {
			for b.Loop() {
				insts := cueload.Instances([]string{"."}, &cueload.Config{Dir: dir})
				if v := ctx.BuildInstance(insts[0]); v.Err() != nil {
					b.Fatal(v.Err())
				}
			}
		})
		b.Run("Evaluate/"+p.Name(), func(b *testing.B) {
			for b.Loop() {
				if e, ds := l.Evaluate(dir); e == nil {
					b.Fatal(ds)
				}
			}
		})
	}
}
