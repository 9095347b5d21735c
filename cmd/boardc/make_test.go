package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardc.dev/boardc/internal/testtool"
)

// TestMakeIntegration runs GNU make with integrations/make/Makefile on a
// copy of the ESPRESSObin tree: the first make runs boardc, a second is a
// no-op, touching the SoC file reruns boardc without rewriting unchanged
// outputs, so do deleting an output (which comes back), adding a .cue file
// to the board's package and installing a new boardc binary, and a broken
// description fails make and leaves the outputs as they were.
func TestMakeIntegration(t *testing.T) {
	makeBin := testtool.Look(t, "make", "make")
	dir := t.TempDir()
	// A copy of the test binary (set up by TestMain as boardc), so that
	// the test can install a new one.
	boardc := filepath.Join(dir, "bin", "boardc")
	if err := os.MkdirAll(filepath.Dir(boardc), 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, mustLook(t, "boardc"), boardc, 0o755)
	for _, p := range []string{"cue.mod", "soc/armada37xx", "espressobin"} {
		copyTree(t, filepath.Join("../../boards", p), filepath.Join(dir, "boards", p))
	}
	copyTree(t, "../../integrations/make/Makefile", filepath.Join(dir, "Makefile"))

	runMake := func(wantOK bool) string {
		t.Helper()
		cmd := exec.Command(makeBin, "BOARDC="+boardc)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if (err == nil) != wantOK {
			t.Fatalf("make: %v, want success %t\n%s", err, wantOK, out)
		}
		return string(out)
	}
	out := filepath.Join(dir, "out", "espressobin")
	soc := filepath.Join(dir, "boards", "soc", "armada37xx", "armada37xx.cue")
	board := filepath.Join(dir, "boards", "espressobin", "board.cue")

	// First make: boardc runs, writes the outputs, the depfile, the stamp.
	if o := runMake(true); !strings.Contains(o, "build -o out --depfile out/espressobin.d") {
		t.Fatalf("first make did not run boardc:\n%s", o)
	}
	dep, err := os.ReadFile(filepath.Join(dir, "out", "espressobin.d"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(dep), "boards/soc/armada37xx/armada37xx.cue:\n") {
		t.Errorf("depfile does not name the SoC file:\n%s", dep)
	}
	// Move every file 10 s into the past, so that a touch is newer
	// whatever the file system's time granularity.
	backdate(t, dir, time.Now().Add(-10*time.Second))
	before := readTree(t, out)
	dtsi := filepath.Join(out, "espressobin.dtsi")
	mtime := modTime(t, dtsi)

	// Second make: nothing to do.
	if o := runMake(true); strings.Contains(o, "boardc") || !strings.Contains(o, "Nothing to be done") {
		t.Fatalf("second make was not a no-op:\n%s", o)
	}

	// Touching the SoC file reruns boardc; the outputs, unchanged, keep
	// their modification time; the next make is a no-op again.
	now := time.Now()
	if err := os.Chtimes(soc, now, now); err != nil {
		t.Fatal(err)
	}
	if o := runMake(true); !strings.Contains(o, "--depfile") {
		t.Fatalf("make after touching the SoC file did not run boardc:\n%s", o)
	}
	if !modTime(t, dtsi).Equal(mtime) {
		t.Errorf("%s rewritten although its content did not change", dtsi)
	}
	if o := runMake(true); !strings.Contains(o, "Nothing to be done") {
		t.Fatalf("make after the rebuild was not a no-op:\n%s", o)
	}

	// Deleting an output reruns boardc, which makes it again.
	dtso := filepath.Join(out, "espressobin.dtso")
	if err := os.Remove(dtso); err != nil {
		t.Fatal(err)
	}
	if o := runMake(true); !strings.Contains(o, "--depfile") {
		t.Fatalf("make after deleting an output did not run boardc:\n%s", o)
	}
	if diff := diffTrees(before, readTree(t, out)); diff != "" {
		t.Errorf("the rebuild did not restore the outputs:\n%s", diff)
	}
	if o := runMake(true); !strings.Contains(o, "Nothing to be done") {
		t.Fatalf("make after restoring the output was not a no-op:\n%s", o)
	}

	// A new .cue file in the board's package reruns boardc.
	backdate(t, dir, now.Add(-5*time.Second))
	extra := filepath.Join(dir, "boards", "espressobin", "notes.cue")
	if err := os.WriteFile(extra, []byte("package espressobin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if o := runMake(true); !strings.Contains(o, "--depfile") {
		t.Fatalf("make after adding %s did not run boardc:\n%s", extra, o)
	}
	if o := runMake(true); !strings.Contains(o, "Nothing to be done") {
		t.Fatalf("make after the rebuild was not a no-op:\n%s", o)
	}

	// A new boardc binary reruns boardc.
	backdate(t, dir, now.Add(-5*time.Second))
	copyFile(t, mustLook(t, "boardc"), boardc, 0o755)
	if err := os.Chtimes(boardc, now, now); err != nil {
		t.Fatal(err)
	}
	if o := runMake(true); !strings.Contains(o, "--depfile") {
		t.Fatalf("make after installing a new boardc did not run it:\n%s", o)
	}
	before = readTree(t, out) // manifest.json lists notes.cue now

	// A broken description fails make and writes nothing.
	src, err := os.ReadFile(board)
	if err != nil {
		t.Fatal(err)
	}
	broken := bytes.Replace(src, []byte("rxQueues: 1"), []byte(`rxQueues: "one"`), 1)
	if bytes.Equal(broken, src) {
		t.Fatal("could not break board.cue")
	}
	if err := os.WriteFile(board, broken, 0o644); err != nil {
		t.Fatal(err)
	}
	backdate(t, dir, now.Add(-5*time.Second))
	if err := os.Chtimes(board, now, now); err != nil {
		t.Fatal(err)
	}
	if o := runMake(false); !strings.Contains(o, "board.cue:") || !strings.Contains(o, "error:") {
		t.Errorf("failing make does not show the diagnostic:\n%s", o)
	}
	if diff := diffTrees(before, readTree(t, out)); diff != "" {
		t.Errorf("a failed build changed the outputs:\n%s", diff)
	}
	// Still failing on the next make: the stamp was not touched.
	runMake(false)
}

// backdate sets the modification time of every file below dir to when.
func backdate(t *testing.T, dir string, when time.Time) {
	t.Helper()
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, when, when)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func modTime(t *testing.T, path string) time.Time {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.ModTime()
}

// diffTrees names the files that differ between two trees read by
// readTree, or returns "".
func diffTrees(a, b map[string]string) string {
	var d []string
	for k, v := range a {
		if b[k] != v {
			d = append(d, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			d = append(d, k)
		}
	}
	return strings.Join(d, "\n")
}

// copyTree copies the file or directory src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, data, fi.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}
