package plainfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

// TestReadFile reads what os.ReadFile reads, and fails where it fails
// with the same error text: a missing file, a directory.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, 511, 512, 513, 4096, 100_000} {
		p := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte("ab\n"), n)[:n]
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(p)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%d bytes: got %d bytes, %v", n, len(got), err)
		}
	}
	for _, p := range []string{filepath.Join(dir, "missing"), dir} {
		_, want := os.ReadFile(p)
		_, err := ReadFile(p)
		if err == nil || err.Error() != want.Error() || os.IsNotExist(err) != os.IsNotExist(want) {
			t.Errorf("%s: error %v, want %v", p, err, want)
		}
	}
}

// TestOpenNoFollow: a symbolic link opens through to its target, and not
// at all with noFollow.
func TestOpenNoFollow(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("plainfile: no O_NOFOLLOW here")
	}
	dir := t.TempDir()
	target, link := filepath.Join(dir, "target"), filepath.Join(dir, "link")
	if err := os.WriteFile(target, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	f, err := Open(link, false)
	if err != nil {
		t.Fatalf("open through the link: %v", err)
	}
	if b, err := ReadAll(f, 0); err != nil || string(b) != "x" {
		t.Errorf("read through the link: %q, %v", b, err)
	}
	f.Close()
	if f, err := Open(link, true); err == nil || !errors.Is(err, syscall.ELOOP) {
		if f != nil {
			f.Close()
		}
		t.Errorf("open with noFollow: %v, want ELOOP", err)
	}
}
