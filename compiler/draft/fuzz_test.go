package draft_test

import (
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"testing"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/draft"
	"boardc.dev/boardc/compiler/load"
	"boardc.dev/boardc/internal/testtool"
)

// FuzzImport feeds import arbitrary .dtb bytes: it never panics, never
// allocates past a fixed limit (a header may claim any size), and every
// draft it writes is CUE that parses and formats. The seeds are the
// draft tests' trees, compiled by dtc.
func FuzzImport(f *testing.F) {
	dtc := testtool.Look(f, "dtc", "device-tree-compiler")
	dts, err := filepath.Glob("testdata/*.dts")
	if err != nil || len(dts) == 0 {
		f.Fatalf("no seed trees: %v", err)
	}
	for _, p := range dts {
		out, err := exec.Command(dtc, "-q", "-I", "dts", "-O", "dtb", "-@", p).Output()
		if err != nil {
			f.Fatalf("dtc %s: %v", p, err)
		}
		f.Add(out)
	}
	// A memory limit the bounds of basetree.Read keep every input
	// far below: an input that escapes them makes the collector run
	// without pause, and the fuzzer's time limit catch it.
	debug.SetMemoryLimit(512 << 20)
	f.Fuzz(func(t *testing.T, dtb []byte) {
		tree, err := basetree.Read(dtb, "fuzz.dtb")
		if err != nil {
			return
		}
		d, err := draft.Generate(tree, draft.Options{Source: "fuzz.dtb", Module: "fuzz.example"})
		if err != nil {
			return
		}
		for _, file := range d.Files {
			if _, err := load.Format(file.Data); err != nil {
				t.Fatalf("%s is not CUE: %v\n%s", file.Path, err, file.Data)
			}
		}
	})
}
