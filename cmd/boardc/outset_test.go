package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The two variants of board "tiny": A has no sysctl, so no tuning files;
// B has one, and with it tune.sh, a unit and sysctl.d/90-boardc-tiny.conf.
// Both are in one module, in directories a and b.
const (
	setModule = "module: \"example.com/boards@v0\"\nlanguage: version: \"v0.17.0\"\n"
	setSoC    = `package tinysoc

soc: {
	name: "tiny-soc"
	compatible: []
	root: {"#address-cells": 1, "#size-cells": 1}
	cpus: clusters: [{core: "arm,cortex-a53", cpus: [0, 1]}]
	buses: soc: {
		node: path:       "/soc"
		"#address-cells": 1
		"#size-cells":    1
		coherency: {coherent: true, source: "vendor datasheet 4.2", masters: "all"}
	}
	masters: dma0: {
		node: {label: "dma0", path: "/soc/dma@1000"}
		compatible: ["vendor,dma"]
		bus:     "soc"
		dmaBits: 32
		irqs: {}
	}
}
`
	setBoard = `package tiny

import "example.com/boards/soc/tinysoc"

name: "tiny"
compatible: ["vendor,tiny"]
memory: [{base: 0, size: 0x4000_0000}]
policy: {irqs: [], net: {}, sysctls: {SYSCTLS}, isolatedCPUs: []}
waivers: []
soc: tinysoc.soc
`
)

// setTree writes the module with both variants below dir and returns
// the directories of A and B.
func setTree(t *testing.T, dir string) (a, b string) {
	t.Helper()
	files := map[string]string{
		"cue.mod/module.cue":      setModule,
		"soc/tinysoc/tinysoc.cue": setSoC,
		"a/board.cue":             strings.Replace(setBoard, "SYSCTLS", "", 1),
		"b/board.cue":             strings.Replace(setBoard, "SYSCTLS", `"net.core.rps_sock_flow_entries": 4096`, 1),
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "a"), filepath.Join(dir, "b")
}

// checkSet checks that dir holds exactly the set its manifest.json lists,
// each file byte for byte, and returns the manifest.
func checkSet(t *testing.T, dir string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatalf("no manifest: %v", err)
	}
	var m struct {
		Files []struct{ Path, SHA256 string }
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("manifest.json: %v\n%s", err, data)
	}
	want := map[string]bool{"manifest.json": true}
	for _, f := range m.Files {
		want[f.Path] = true
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatalf("manifest.json lists %s: %v", f.Path, err)
		}
		if sum := sha256.Sum256(got); hex.EncodeToString(sum[:]) != f.SHA256 {
			t.Fatalf("%s does not match manifest.json", f.Path)
		}
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if !want[filepath.ToSlash(rel)] {
			return fmt.Errorf("%s is not in manifest.json", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestStaleOutputRemoved checks that a file the previous build produced
// and the new one does not is removed, while a file boardc never wrote
// is left, and that the drift check then passes.
func TestStaleOutputRemoved(t *testing.T) {
	dir := t.TempDir()
	a, b := setTree(t, dir)
	out := filepath.Join(dir, "out")
	stale := filepath.Join(out, "tiny", "sysctl.d", "90-boardc-tiny.conf")
	mine := filepath.Join(out, "tiny", "README.local")
	var stderr bytes.Buffer
	if code := runWith([]string{"build", "-q", "-o", out, b}, &bytes.Buffer{}, &stderr); code != exitOK {
		t.Fatalf("build b: exit %d\n%s", code, stderr.String())
	}
	if _, err := os.Stat(stale); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mine, []byte("notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	if code := runWith([]string{"build", "-q", "-v", "-o", out, a}, &bytes.Buffer{}, &stderr); code != exitOK {
		t.Fatalf("build a: exit %d\n%s", code, stderr.String())
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("%s left behind (stat: %v)", stale, err)
	}
	if !strings.Contains(stderr.String(), "removed "+stale+"\n") {
		t.Errorf("-v does not report the removal:\n%s", stderr.String())
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("a file boardc did not write was removed: %v", err)
	}
	if err := os.Remove(mine); err != nil {
		t.Fatal(err)
	}
	checkSet(t, filepath.Join(out, "tiny"))
	stderr.Reset()
	if code := runWith([]string{"build", "-q", "--check", "-o", out, a}, &bytes.Buffer{}, &stderr); code != exitOK {
		t.Errorf("build --check after the rebuild: exit %d\n%s", code, stderr.String())
	}
}

// TestSameNameTwice checks that two directories declaring one name are a
// usage error naming both, and that one board named twice is built once.
func TestSameNameTwice(t *testing.T) {
	dir := t.TempDir()
	a, b := setTree(t, dir)
	out := filepath.Join(dir, "out")
	var stderr bytes.Buffer
	code := runWith([]string{"build", "-q", "-o", out, a, b}, &bytes.Buffer{}, &stderr)
	want := fmt.Sprintf("boardc build: %s and %s both declare name \"tiny\": one would overwrite the other's outputs\n", a, b)
	if code != exitUsage || !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit %d, stderr starting:\n%s", code, stderr.String(), exitUsage, want)
	}
	if _, err := os.Stat(filepath.Join(out, "tiny")); !os.IsNotExist(err) {
		t.Errorf("something was written: %v", err)
	}
	stderr.Reset()
	if code := runWith([]string{"build", "-q", "-o", out, a, a + "/board.cue", a + "/"}, &bytes.Buffer{}, &stderr); code != exitOK {
		t.Errorf("one board named three ways: exit %d\n%s", code, stderr.String())
	}
	// A file of a package of two files is another board.
	writeFile(t, filepath.Join(a, "extra.cue"), "package tiny\n")
	stderr.Reset()
	code = runWith([]string{"build", "-q", "-o", out, a, a + "/board.cue"}, &bytes.Buffer{}, &stderr)
	want = fmt.Sprintf("boardc build: %s and %s both declare name \"tiny\": one would overwrite the other's outputs\n", a, a+"/board.cue")
	if code != exitUsage || !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit %d, stderr starting:\n%s", code, stderr.String(), exitUsage, want)
	}
}

// TestIOErrorKeepsOldSet makes writing fail half way (a file size limit
// smaller than the new outputs: EFBIG, Go ignores SIGXFSZ) and checks
// that the exit status is exitIO and the previous set is untouched.
func TestIOErrorKeepsOldSet(t *testing.T) {
	dir := t.TempDir()
	a, b := setTree(t, dir)
	out := filepath.Join(dir, "out")
	var stderr bytes.Buffer
	if code := runWith([]string{"build", "-q", "-o", out, a}, &bytes.Buffer{}, &stderr); code != exitOK {
		t.Fatalf("build a: exit %d\n%s", code, stderr.String())
	}
	before := readTree(t, filepath.Join(out, "tiny"))

	// The file-size limit is lowered in a child process only: lowered
	// here, it would also cut the test binary's own log and the files of
	// tests running beside this one. sh's ulimit -f counts 512-byte
	// blocks; Go ignores SIGXFSZ, so the write fails with EFBIG.
	stderr.Reset()
	c := exec.Command("sh", "-c", `ulimit -f 1 && exec "$0" "$@"`, mustLook(t, "boardc"), "build", "-q", "-o", out, b)
	c.Env = append(os.Environ(), "CUE_REGISTRY=none")
	c.Stderr = &stderr
	code := exitOK
	if err := c.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatal(err)
		}
		code = ee.ExitCode()
	}
	if code != exitIO || !strings.Contains(stderr.String(), "file too large") {
		t.Errorf("exit %d, want %d (I/O error); stderr:\n%s", code, exitIO, stderr.String())
	}
	if d := diffTrees(before, readTree(t, filepath.Join(out, "tiny"))); d != "" {
		t.Errorf("a failed write changed the outputs:\n%s", d)
	}
	checkSet(t, filepath.Join(out, "tiny"))
	// The next build recovers.
	stderr.Reset()
	if code := runWith([]string{"build", "-q", "-o", out, b}, &bytes.Buffer{}, &stderr); code != exitOK {
		t.Fatalf("build b: exit %d\n%s", code, stderr.String())
	}
	checkSet(t, filepath.Join(out, "tiny"))
}

// TestKilledBuilds kills builds of boardc, alternating between the
// variants, after a random delay (fixed seed) from 0 to 1.5 times a whole
// build, and checks after each kill that OUT/tiny is exactly the set of
// A or of B, and after every tenth and at the end that a whole build
// recovers and leaves nothing of the interrupted ones behind. The boardc
// killed is this test binary run as boardc (TestMain), a separate process.
func TestKilledBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 110 builds")
	}
	bin := mustLook(t, "boardc")
	dir := t.TempDir()
	a, b := setTree(t, dir)
	out := filepath.Join(dir, "out")
	build := func(board string) *exec.Cmd {
		c := exec.Command(bin, "build", "-q", "-o", out, board)
		c.Env = append(os.Environ(), "CUE_REGISTRY=none")
		return c
	}
	// The manifests of both sets, and how long a build takes.
	manifests := map[string]string{}
	var took time.Duration
	for _, v := range []string{b, a} {
		start := time.Now()
		if o, err := build(v).CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", v, err, o)
		}
		took = max(took, time.Since(start))
		manifests[string(checkSet(t, filepath.Join(out, "tiny")))] = filepath.Base(v)
	}
	rng := rand.New(rand.NewPCG(18, 1))
	seen := map[string]int{}
	inWrite := 0
	// 110 kills, and more, up to 400, while none has landed in a write:
	// on a busy machine a build's time varies, and the write is its
	// last part.
	for i := 0; i < 110 || (inWrite == 0 && i < 400); i++ {
		v := []string{a, b}[i%2]
		delay := time.Duration(rng.Int64N(int64(took) * 3 / 2))
		c := build(v)
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		c.Process.Kill()
		c.Wait()
		// OUT/.boardc exists from when a build takes the lock to when
		// it lets it go: the kill landed while it wrote.
		if _, err := os.Stat(filepath.Join(out, ".boardc")); err == nil {
			inWrite++
		}
		m := checkSet(t, filepath.Join(out, "tiny"))
		which, ok := manifests[string(m)]
		if !ok {
			t.Fatalf("kill %d after %v: manifest.json is neither A's nor B's:\n%s", i, delay, m)
		}
		seen[which]++
		// Every tenth kill, a whole build follows: it recovers what the
		// kill left and makes its own set.
		if i%10 == 9 {
			if o, err := build(v).CombinedOutput(); err != nil {
				t.Fatalf("build after kill %d: %v\n%s", i, err, o)
			}
			if manifests[string(checkSet(t, filepath.Join(out, "tiny")))] != filepath.Base(v) {
				t.Fatalf("build %s after kill %d did not make its set", v, i)
			}
			checkLeftovers(t, out)
		}
	}
	t.Logf("a build takes %v; after the kills OUT/tiny held %v; %d kills landed while a build wrote", took, seen, inWrite)
	if inWrite == 0 {
		t.Error("no kill landed while a build wrote: the test did not exercise the swap")
	}
	if len(seen) != 2 {
		t.Errorf("the kills left only the sets %v: they did not land during builds", seen)
	}
	for _, v := range []string{a, b} {
		if o, err := build(v).CombinedOutput(); err != nil {
			t.Fatalf("build after the kills: %v\n%s", err, o)
		}
		if manifests[string(checkSet(t, filepath.Join(out, "tiny")))] != filepath.Base(v) {
			t.Fatalf("build %s after the kills did not make its set", v)
		}
	}
	checkLeftovers(t, out)
}

// TestConcurrentBuilds runs 20 pairs of builds of A and B into one OUT at
// the same time: both succeed, OUT/tiny is then exactly one of the sets.
func TestConcurrentBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 40 builds")
	}
	bin := mustLook(t, "boardc")
	dir := t.TempDir()
	a, b := setTree(t, dir)
	out := filepath.Join(dir, "out")
	for i := range 20 {
		var wg sync.WaitGroup
		outs := make([][]byte, 2)
		errs := make([]error, 2)
		for j, v := range []string{a, b} {
			wg.Go(func() {
				c := exec.Command(bin, "build", "-q", "-o", out, v)
				c.Env = append(os.Environ(), "CUE_REGISTRY=none")
				outs[j], errs[j] = c.CombinedOutput()
			})
		}
		wg.Wait()
		for j := range errs {
			if errs[j] != nil {
				t.Fatalf("pair %d, build %d: %v\n%s", i, j, errs[j], outs[j])
			}
		}
		checkSet(t, filepath.Join(out, "tiny"))
	}
	checkLeftovers(t, out)
}

// checkLeftovers checks that OUT holds the boards, the lock file and
// nothing else of boardc's.
func checkLeftovers(t *testing.T, out string) {
	t.Helper()
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	if got := strings.Join(names, " "); got != ".boardc.lock tiny" {
		t.Errorf("OUT holds %s, want the lock file and tiny", got)
	}
}

// TestBoardPathNotADirectory checks that an OUT/<board> that is a file or
// a symbolic link is an I/O error saying so, and that neither is touched.
func TestBoardPathNotADirectory(t *testing.T) {
	dir := t.TempDir()
	a, _ := setTree(t, dir)
	out := filepath.Join(dir, "out")
	target := filepath.Join(dir, "elsewhere")
	for _, tc := range []struct {
		make func(path string) error
		want string
	}{
		{func(p string) error { return os.WriteFile(p, []byte("x"), 0o644) }, "not a directory"},
		{func(p string) error { return os.Symlink(target, p) }, "a symbolic link: boardc replaces the directory as a whole, so -o must name the real output directory"},
	} {
		if err := os.RemoveAll(out); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(out, "tiny")
		if err := tc.make(p); err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		code := runWith([]string{"build", "-q", "-o", out, a}, &bytes.Buffer{}, &stderr)
		if want := "boardc build: write " + p + ": " + tc.want + "\n"; code != exitIO || stderr.String() != want {
			t.Errorf("exit %d, stderr %q; want exit %d, stderr %q", code, stderr.String(), exitIO, want)
		}
		if fi, err := os.Lstat(p); err != nil || fi.IsDir() {
			t.Errorf("%s was replaced (%v)", p, err)
		}
	}
}

// TestStateOutsideOut checks that a symbolic link at OUT/.boardc (the
// state directory, whose entries the recovery removes) or a dangling one
// at OUT/.boardc.lock is an I/O error naming it, and that nothing outside
// OUT is touched: the files of the first link's target stay, the second
// link's target is not created.
func TestStateOutsideOut(t *testing.T) {
	dir := t.TempDir()
	a, _ := setTree(t, dir)
	out := filepath.Join(dir, "out")
	victim := filepath.Join(dir, "victim")
	if err := os.MkdirAll(filepath.Join(victim, "tiny.old"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(victim, "precious"), "p\n")
	writeFile(t, filepath.Join(victim, "tiny.old", "f"), "o\n")
	before := readTree(t, victim)
	nowhere := filepath.Join(dir, "nowhere")
	for _, tc := range []struct{ link, target string }{
		{filepath.Join(out, ".boardc"), victim},
		{filepath.Join(out, ".boardc.lock"), nowhere},
	} {
		if err := os.RemoveAll(out); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(tc.target, tc.link); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"build", "-q", "-o", out, a}, {"build", "-q", "--depfile", filepath.Join(dir, "x.d"), "-o", out, a}} {
			var stderr bytes.Buffer
			code := runWith(args, &bytes.Buffer{}, &stderr)
			want := "boardc " + args[0] + ": open " + tc.link + ": a symbolic link: boardc does not follow it, so as to touch nothing outside the output directory; remove it\n"
			if code != exitIO || stderr.String() != want {
				t.Errorf("boardc %v: exit %d, stderr %q; want exit %d, stderr %q", args, code, stderr.String(), exitIO, want)
			}
		}
		if _, err := os.Stat(filepath.Join(out, "tiny")); !os.IsNotExist(err) {
			t.Errorf("OUT/tiny was written (%v)", err)
		}
	}
	if d := diffTrees(before, readTree(t, victim)); d != "" {
		t.Errorf("the files of the OUT/.boardc link's target changed:\n%s", d)
	}
	if _, err := os.Lstat(nowhere); !os.IsNotExist(err) {
		t.Errorf("the OUT/.boardc.lock link's target was created (%v)", err)
	}
}

// TestDriftReadError checks that diff and build --check exit with exitIO
// when DIR/<board> cannot be read (an output path that is a directory).
func TestDriftReadError(t *testing.T) {
	dir := t.TempDir()
	a, _ := setTree(t, dir)
	out := filepath.Join(dir, "out")
	if err := os.MkdirAll(filepath.Join(out, "tiny", "tiny.dtsi"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"diff", "-q", "--against", out, a}, {"build", "-q", "--check", "-o", out, a}} {
		var stderr bytes.Buffer
		code := runWith(args, &bytes.Buffer{}, &stderr)
		want := "boardc " + args[0] + ": read " + filepath.Join(out, "tiny", "tiny.dtsi") + ": is a directory\n"
		if code != exitIO || stderr.String() != want {
			t.Errorf("boardc %v: exit %d, stderr %q; want exit %d, stderr %q", args, code, stderr.String(), exitIO, want)
		}
	}
}

// TestBuildWaitsForLock holds OUT/.boardc.lock and checks that a build
// into OUT waits for it before writing, then writes.
func TestBuildWaitsForLock(t *testing.T) {
	bin := mustLook(t, "boardc")
	dir := t.TempDir()
	a, _ := setTree(t, dir)
	out := filepath.Join(dir, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(filepath.Join(out, ".boardc.lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	c := exec.Command(bin, "build", "-q", "-o", out, a)
	c.Env = append(os.Environ(), "CUE_REGISTRY=none")
	var stderr bytes.Buffer
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("the build finished while the lock was held: %v\n%s", err, stderr.String())
	case <-time.After(2 * time.Second):
	}
	if _, err := os.Stat(filepath.Join(out, "tiny")); !os.IsNotExist(err) {
		t.Fatalf("the build wrote while the lock was held (%v)", err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_UN); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("build: %v\n%s", err, stderr.String())
	}
	checkSet(t, filepath.Join(out, "tiny"))
}
