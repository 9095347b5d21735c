//go:build unix

package outset

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestRewrite keeps what it does not mean to change: a symbolic link is
// followed and stays a link, the mode stays, and hard links keep sharing
// the new content.
func TestRewrite(t *testing.T) {
	dir := t.TempDir()
	read := func(p string) string {
		t.Helper()
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	write := func(p, s string, mode os.FileMode) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("symlink", func(t *testing.T) {
		real := filepath.Join(dir, "real.cue")
		link := filepath.Join(dir, "link.cue")
		write(real, "old\n", 0o640)
		if err := os.Symlink("real.cue", link); err != nil {
			t.Fatal(err)
		}
		if err := Rewrite(link, []byte("new\n")); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("link.cue is no longer a symbolic link (%v)", err)
		}
		if got := read(real); got != "new\n" {
			t.Errorf("the link's target holds %q, want the new content", got)
		}
	})
	t.Run("mode", func(t *testing.T) {
		for _, mode := range []os.FileMode{0o600, 0o444, 0o755} {
			p := filepath.Join(dir, "mode.cue")
			os.Remove(p)
			write(p, "old\n", mode)
			if err := Rewrite(p, []byte("new\n")); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != mode || read(p) != "new\n" {
				t.Errorf("mode %v: after the rewrite %v, %q", mode, fi.Mode().Perm(), read(p))
			}
		}
	})
	t.Run("hardlink", func(t *testing.T) {
		a := filepath.Join(dir, "a.cue")
		b := filepath.Join(dir, "b.cue")
		write(a, "old\n", 0o644)
		if err := os.Link(a, b); err != nil {
			t.Fatal(err)
		}
		if err := Rewrite(a, []byte("new\n")); err != nil {
			t.Fatal(err)
		}
		if read(b) != "new\n" {
			t.Errorf("the other name holds %q, want the new content", read(b))
		}
		fa, _ := os.Stat(a)
		fb, _ := os.Stat(b)
		if !os.SameFile(fa, fb) || fa.Sys().(*syscall.Stat_t).Nlink != 2 {
			t.Error("the hard link was split")
		}
	})
	t.Run("not regular", func(t *testing.T) {
		if err := Rewrite(dir, []byte("x")); err == nil {
			t.Error("a directory was rewritten")
		}
	})
}
