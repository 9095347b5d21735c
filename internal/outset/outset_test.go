package outset

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boardc.dev/boardc/outputs"
)

// set returns a board's files as data: the given path/content pairs and
// a manifest.json listing them.
func set(t *testing.T, kv ...string) []outputs.File {
	t.Helper()
	var files []outputs.File
	var m outputs.Manifest
	for i := 0; i < len(kv); i += 2 {
		files = append(files, outputs.File{Path: kv[i], Data: []byte(kv[i+1])})
		m.Files = append(m.Files, outputs.ManifestFile{Path: kv[i]})
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, outputs.File{Path: outputs.ManifestPath, Data: data})
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files
}

// write writes files as OUT/name under OUT's lock, as a build does.
func write(t *testing.T, out, name string, files []outputs.File) Change {
	t.Helper()
	o, err := Lock(out)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Unlock()
	ch, err := o.Write(name, files)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// readTree returns the files below dir by path, with their content.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		got[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// entries returns the names in dir, sorted.
func entries(t *testing.T, dir string) string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}

// TestWrite writes a set, the same set again, and a set that changes one
// file, adds one and drops one: an unchanged file keeps its inode and
// modification time, a dropped file the previous manifest lists goes, a
// file boardc did not write and an old temporary file are kept and
// removed, and OUT holds nothing else of boardc's afterwards.
func TestWrite(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	cur := filepath.Join(out, "tiny")
	a := set(t, "tiny.dtsi", "a\n", "tune.sh", "#!/bin/sh\n", "sysctl.d/90.conf", "x=1\n")
	ch := write(t, out, "tiny", a)
	if diff := cmp.Diff(Change{Written: []string{"manifest.json", filepath.Join("sysctl.d", "90.conf"), "tiny.dtsi", "tune.sh"}}, ch); diff != "" {
		t.Errorf("fresh write (-want +got):\n%s", diff)
	}
	if fi, err := os.Stat(filepath.Join(cur, "tune.sh")); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("tune.sh: %v, %v; want mode 0755", fi.Mode(), err)
	}
	before, err := os.Stat(filepath.Join(cur, "tiny.dtsi"))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	if ch := write(t, out, "tiny", a); len(ch.Written)+len(ch.Removed) != 0 {
		t.Errorf("rewriting the same set changed %+v", ch)
	}

	writeFile(t, filepath.Join(cur, "README.local"), "mine\n")
	writeFile(t, filepath.Join(cur, ".tune.sh.tmp123"), "half")
	b := set(t, "tiny.dtsi", "a\n", "tune.sh", "#!/bin/sh\necho\n", "new.h", "h\n")
	ch = write(t, out, "tiny", b)
	want := Change{
		Written: []string{"manifest.json", "new.h", "tune.sh"},
		Removed: []string{".tune.sh.tmp123", filepath.Join("sysctl.d", "90.conf")},
	}
	if diff := cmp.Diff(want, ch); diff != "" {
		t.Errorf("changed write (-want +got):\n%s", diff)
	}
	wantTree := map[string]string{"README.local": "mine\n"}
	for _, f := range b {
		wantTree[f.Path] = string(f.Data)
	}
	if diff := cmp.Diff(wantTree, readTree(t, cur)); diff != "" {
		t.Errorf("OUT/tiny (-want +got):\n%s", diff)
	}
	after, err := os.Stat(filepath.Join(cur, "tiny.dtsi"))
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) || !before.ModTime().Equal(after.ModTime()) {
		t.Errorf("the unchanged tiny.dtsi was rewritten (mtime %v, then %v)", before.ModTime(), after.ModTime())
	}
	if got := entries(t, out); got != ".boardc.lock tiny" {
		t.Errorf("OUT holds %s, want the lock file and tiny", got)
	}

	// A file of the same size is read and compared; one that grew or
	// shrank is not read.
	c := set(t, "tiny.dtsi", "b\n", "tune.sh", "#!/bin/sh\necho\n", "new.h", "h\n\n")
	if diff := cmp.Diff(Change{Written: []string{"new.h", "tiny.dtsi"}}, write(t, out, "tiny", c)); diff != "" {
		t.Errorf("same-size write (-want +got):\n%s", diff)
	}
	if !Unchanged(out, "tiny", c) || Unchanged(out, "tiny", b) {
		t.Errorf("Unchanged: true for the set just written and false for the one before, want both")
	}
}

// TestWriteRefusesPath checks that an OUT/<board> that is a file or a
// symbolic link, and a name or a file path that leaves OUT/<board>, are
// errors naming the path, and that nothing is touched.
func TestWriteRefusesPath(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	elsewhere := filepath.Join(dir, "elsewhere")
	writeFile(t, filepath.Join(elsewhere, "keep"), "k\n")
	writeFile(t, filepath.Join(out, "file"), "x")
	if err := os.Symlink(elsewhere, filepath.Join(out, "link")); err != nil {
		t.Fatal(err)
	}
	o, err := Lock(out)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Unlock()
	a := set(t, "tiny.dtsi", "a\n")
	for _, tc := range []struct {
		name  string
		files []outputs.File
		want  string
	}{
		{"file", a, "write " + filepath.Join(out, "file") + ": not a directory"},
		{"link", a, "write " + filepath.Join(out, "link") + ": " + ErrBoardSymlink.Error()},
		{"..", a, "write " + filepath.Join(out, "..") + ": invalid argument"},
		{".", a, "write " + out + ": invalid argument"},
		{"a/b", a, "write " + filepath.Join(out, "a", "b") + ": invalid argument"},
		{"tiny", set(t, "../elsewhere/keep", "x\n"), "write " + filepath.Join(out, "tiny", "..", "elsewhere", "keep") + ": invalid argument"},
	} {
		_, err := o.Write(tc.name, tc.files)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Write(%q): %v, want %s", tc.name, err, tc.want)
		}
	}
	if diff := cmp.Diff(map[string]string{"keep": "k\n"}, readTree(t, elsewhere)); diff != "" {
		t.Errorf("the link's target changed (-want +got):\n%s", diff)
	}
	if got := entries(t, out); got != ".boardc.lock file link" {
		t.Errorf("OUT holds %s", got)
	}
}

// TestStateSymlink checks that a symbolic link at OUT/.boardc is refused,
// when the lock is taken and when a set is written, with an error naming
// it, and that the files of its target, which the recovery would remove
// by following it, are left.
func TestStateSymlink(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	victim := filepath.Join(dir, "victim")
	writeFile(t, filepath.Join(victim, "precious"), "p\n")
	writeFile(t, filepath.Join(victim, "tiny.old", "f"), "o\n")
	writeFile(t, filepath.Join(victim, "tiny.new", "f"), "n\n")
	wantVictim := readTree(t, victim)
	state := filepath.Join(out, StateDir)
	wantErr := "open " + state + ": " + ErrStateSymlink.Error()

	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, state); err != nil {
		t.Fatal(err)
	}
	if o, err := Lock(out); err == nil || err.Error() != wantErr || !errors.Is(err, ErrStateSymlink) {
		if err == nil {
			o.Unlock()
		}
		t.Errorf("Lock: %v, want %s", err, wantErr)
	}

	// A link made while the lock is held: writing a changed set, which
	// stages in OUT/.boardc, refuses it too.
	if err := os.Remove(state); err != nil {
		t.Fatal(err)
	}
	o, err := Lock(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, state); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Write("tiny", set(t, "tiny.dtsi", "a\n")); err == nil || err.Error() != wantErr {
		t.Errorf("Write: %v, want %s", err, wantErr)
	}
	o.Unlock()
	if diff := cmp.Diff(wantVictim, readTree(t, victim)); diff != "" {
		t.Errorf("the target of OUT/.boardc changed (-want +got):\n%s", diff)
	}
	if fi, err := os.Lstat(state); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("OUT/.boardc is no longer the link (%v)", err)
	}

	// A file at OUT/.boardc is not boardc's state either.
	if err := os.Remove(state); err != nil {
		t.Fatal(err)
	}
	writeFile(t, state, "x")
	if _, err := Lock(out); err == nil || err.Error() != "open "+state+": not a directory" {
		t.Errorf("Lock with a file at OUT/.boardc: %v", err)
	}
}

// TestLockSymlink checks that a symbolic link at OUT/.boardc.lock is
// refused with an error naming it, that a dangling one does not create
// the file it points to, and that a link to an existing file does not
// lock that file.
func TestLockSymlink(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(out, LockName)
	nowhere := filepath.Join(dir, "nowhere")
	if err := os.Symlink(nowhere, lock); err != nil {
		t.Fatal(err)
	}
	wantErr := "open " + lock + ": " + ErrStateSymlink.Error()
	if o, err := Lock(out); err == nil || err.Error() != wantErr {
		if err == nil {
			o.Unlock()
		}
		t.Errorf("Lock: %v, want %s", err, wantErr)
	}
	if unlock, err := RLock(out); err == nil || err.Error() != wantErr {
		if err == nil {
			unlock()
		}
		t.Errorf("RLock: %v, want %s", err, wantErr)
	}
	if _, err := os.Lstat(nowhere); !os.IsNotExist(err) {
		t.Errorf("the dangling link's target was created (%v)", err)
	}
	// The window between the check and the open is closed by O_NOFOLLOW.
	if oNoFollow != 0 {
		if err := os.Symlink(nowhere, filepath.Join(out, "late")); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(filepath.Join(out, "late"), os.O_RDWR|os.O_CREATE|oNoFollow, 0o644)
		if err == nil || !errors.Is(err, syscall.ELOOP) {
			t.Errorf("O_NOFOLLOW open of a link: %v", err)
			f.Close()
		}
		if _, err := os.Lstat(nowhere); !os.IsNotExist(err) {
			t.Errorf("the dangling link's target was created (%v)", err)
		}
	}
}

// TestLockExcludes checks that a second Lock of OUT waits until the
// first is let go, and that RLock waits for a Lock too.
func TestLockExcludes(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	o, err := Lock(out)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 2)
	go func() {
		o2, err := Lock(out)
		if err != nil {
			got <- err.Error()
			return
		}
		got <- "locked"
		o2.Unlock()
	}()
	go func() {
		unlock, err := RLock(out)
		if err != nil {
			got <- err.Error()
			return
		}
		got <- "rlocked"
		unlock()
	}()
	select {
	case s := <-got:
		t.Fatalf("%s while the lock was held", s)
	case <-time.After(300 * time.Millisecond):
	}
	o.Unlock()
	seen := map[string]bool{<-got: true, <-got: true}
	if !seen["locked"] || !seen["rlocked"] {
		t.Errorf("after the unlock: %v", seen)
	}
}

// TestFallbackSwapRecovery checks the two-rename swap used where
// RENAME_EXCHANGE is not available, and that the recovery run when the
// lock is taken undoes a swap cut between its renames: the previous set
// comes back and the staged one goes.
func TestFallbackSwapRecovery(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	cur := filepath.Join(out, "tiny")
	state := filepath.Join(out, StateDir)
	a := set(t, "tiny.dtsi", "a\n")
	b := set(t, "tiny.dtsi", "b\n", "tune.sh", "#!/bin/sh\n")
	write(t, out, "tiny", b)
	setB := readTree(t, cur)
	write(t, out, "tiny", a)
	setA := readTree(t, cur)

	// The whole fallback swap: B staged goes in, A comes out at stage.
	stage := filepath.Join(state, "tiny.new")
	write(t, out, "keepB", b)
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(out, "keepB"), stage); err != nil {
		t.Fatal(err)
	}
	if err := fallbackSwap(stage, cur, filepath.Join(state, "tiny.old")); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(setB, readTree(t, cur)); diff != "" {
		t.Errorf("after the swap %s is not B's set (-want +got):\n%s", cur, diff)
	}
	if diff := cmp.Diff(setA, readTree(t, stage)); diff != "" {
		t.Errorf("after the swap %s is not A's set (-want +got):\n%s", stage, diff)
	}

	// Cut between the renames: OUT/tiny is at tiny.old, A staged.
	if err := os.Rename(cur, filepath.Join(state, "tiny.old")); err != nil {
		t.Fatal(err)
	}
	o, err := Lock(out)
	if err != nil {
		t.Fatal(err)
	}
	o.Unlock()
	if diff := cmp.Diff(setB, readTree(t, cur)); diff != "" {
		t.Errorf("recovery did not put the previous set back (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("recovery left %s (%v)", state, err)
	}
	if got := entries(t, out); got != ".boardc.lock tiny" {
		t.Errorf("OUT holds %s, want the lock file and tiny", got)
	}
}

// TestWriteFile checks the atomic write of a single file: its mode
// follows its content, and WriteIfChanged leaves an unchanged file.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "x.d")
	if wrote, err := WriteIfChanged(p, []byte("a: b\n")); err != nil || !wrote {
		t.Fatalf("WriteIfChanged: %v, %v", wrote, err)
	}
	if wrote, err := WriteIfChanged(p, []byte("a: b\n")); err != nil || wrote {
		t.Errorf("WriteIfChanged of the same content: %v, %v", wrote, err)
	}
	if err := WriteFile(p, []byte("#!/bin/sh\n")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("a script: %v, %v; want mode 0755", fi.Mode(), err)
	}
	if got := entries(t, filepath.Dir(p)); got != "x.d" {
		t.Errorf("the directory holds %s", got)
	}
}
