package outset_test

import (
	"os"
	"path/filepath"
	"testing"

	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/internal/outset"
	"boardc.dev/boardc/internal/synth"
	"boardc.dev/boardc/outputs"
)

// BenchmarkWrite times the last stage of a build, writing a board's files
// (the stages before it are in compiler/bench_test.go), on every in-tree
// board and on the synthetic boards of BOARDC_BENCH_SYNTH:
//
//	Fresh      into an empty directory: every file created and renamed
//	Unchanged  over the same files: each read back and left alone, as a
//	           rebuild in a build tree does
//	Changed    over the same files but one, which differs each time: as a
//	           rebuild after an edit (the set is staged and swapped in)
//
//	go test -bench Write -run '^$' ./internal/outset/
func BenchmarkWrite(b *testing.B) {
	b.Setenv("CUE_REGISTRY", "none")
	dirs := intree.Dirs(b, filepath.Join("..", "..", "boards"))
	sizes, err := synth.BenchSizes(os.Getenv("BOARDC_BENCH_SYNTH"))
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range sizes {
		dir, err := synth.Write(b.TempDir(), synth.Default(n))
		if err != nil {
			b.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	for _, dir := range dirs {
		r := intree.Compile(b, dir)
		name := r.Board.Name
		b.Run("Fresh/"+name, func(b *testing.B) {
			out := filepath.Join(b.TempDir(), name)
			for b.Loop() {
				if written, err := writeFiles(out, r.Files); err != nil || len(written) != len(r.Files) {
					b.Fatalf("wrote %d of %d files: %v", len(written), len(r.Files), err)
				}
				b.StopTimer()
				if err := os.RemoveAll(out); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
		})
		b.Run("Changed/"+name, func(b *testing.B) {
			out := filepath.Join(b.TempDir(), name)
			edited := append([]outputs.File(nil), r.Files...)
			edited[0].Data = append(append([]byte(nil), edited[0].Data...), '\n')
			sets := [2][]outputs.File{r.Files, edited}
			if _, err := writeFiles(out, r.Files); err != nil {
				b.Fatal(err)
			}
			i := 0
			for b.Loop() {
				i++
				if written, err := writeFiles(out, sets[i%2]); err != nil || len(written) != 1 {
					b.Fatalf("wrote %d files, want 1: %v", len(written), err)
				}
			}
		})
		b.Run("Unchanged/"+name, func(b *testing.B) {
			out := b.TempDir()
			if _, err := writeFiles(out, r.Files); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if written, err := writeFiles(out, r.Files); err != nil || len(written) != 0 {
					b.Fatalf("rewrote %d unchanged files: %v", len(written), err)
				}
			}
		})
	}
}

// writeFiles writes a board's set as a build does: it takes the lock of
// the directory above dir (and recovers), writes, and lets go. It
// returns the paths written.
func writeFiles(dir string, files []outputs.File) ([]string, error) {
	out, err := outset.Lock(filepath.Dir(dir))
	if err != nil {
		return nil, err
	}
	defer out.Unlock()
	ch, err := out.Write(filepath.Base(dir), files)
	return ch.Written, err
}
