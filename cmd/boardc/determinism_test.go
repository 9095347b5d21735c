package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/internal/synth"
)

// TestDeterministicBuild runs `boardc build -o DIR ./boards/... SYNTH` as
// separate processes, twice under each of GOMAXPROCS=1, 2 and 4, and
// compares every output tree and stderr with the first byte for byte. A
// process of its own has its own map seeds, scheduling and CUE runtime,
// which two compilations in one process share. SYNTH is a synthetic
// board large enough that its lowering and emitting run on several
// goroutines.
func TestDeterministicBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("runs boardc six times over every in-tree board")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// testscript.Main (see TestMain) runs boardc when the test binary is
	// started under that name.
	bin := filepath.Join(t.TempDir(), "boardc")
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	big, err := synth.Write(t.TempDir(), synth.Default(400))
	if err != nil {
		t.Fatal(err)
	}

	var (
		firstName string
		firstTree map[string]string
		firstErr  string
	)
	for _, procs := range []int{1, 2, 4} {
		for run := 1; run <= 2; run++ {
			name := fmt.Sprintf("GOMAXPROCS=%d run %d", procs, run)
			out := t.TempDir()
			cmd := exec.Command(bin, "build", "-o", out, "./boards/...", big)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), fmt.Sprintf("GOMAXPROCS=%d", procs), "CUE_REGISTRY=none")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%s: boardc build: %v\n%s", name, err, stderr.String())
			}
			tree := readTree(t, out)
			if firstTree == nil {
				firstName, firstTree, firstErr = name, tree, stderr.String()
				continue
			}
			if diff := cmp.Diff(firstTree, tree); diff != "" {
				t.Errorf("outputs of %s differ from those of %s (-%[2]s +%[1]s):\n%[3]s", name, firstName, diff)
			}
			if diff := cmp.Diff(firstErr, stderr.String()); diff != "" {
				t.Errorf("stderr of %s differs from that of %s (-%[2]s +%[1]s):\n%[3]s", name, firstName, diff)
			}
		}
	}
	if len(firstTree) < 20 {
		t.Errorf("only %d files written: not every board was built", len(firstTree))
	}
}
