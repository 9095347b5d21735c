package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestUnreadableUnprivileged runs boardc as an unprivileged user on a
// board file it may not read: as root, chmod 000 does not stop reads, so
// the corpus case file-unreadable is run here instead. Exit 1, a
// diagnostic naming the file, nothing written.
func TestUnreadableUnprivileged(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: the corpus case file-unreadable runs in TestBadCorpusCLI instead")
	}
	const nobody = 65534
	dir := t.TempDir()
	// Open the test's own directories to nobody, up to but not including
	// the system's temporary directory, which stays as it is (1777 on a
	// normal system: changing it breaks every other user of it).
	for d := dir; d != filepath.Dir(d) && d != os.TempDir() && strings.HasPrefix(d, os.TempDir()); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "boardc")
	copyFile(t, mustLook(t, "boardc"), bin, 0o755)
	board := filepath.Join(dir, "u")
	if err := os.Mkdir(board, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(board, "board.cue"), []byte("package u\n"), 0o000); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o777); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "build", "-o", out, "u")
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + dir, "PATH=/usr/bin:/bin", "CUE_REGISTRY=none"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitDiags {
		t.Fatalf("exit: %v, want %d\nstderr:\n%s", err, exitDiags, stderr.String())
	}
	if !pathError.MatchString(stderr.String()) || !strings.Contains(stderr.String(), "board.cue") {
		t.Errorf("stderr has no diagnostic naming board.cue:\n%s", stderr.String())
	}
	t.Logf("stderr:\n%s", stderr.String())
	if entries, _ := os.ReadDir(out); len(entries) > 0 {
		t.Errorf("%d entries written to the output directory", len(entries))
	}
}

func mustLook(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s is not on PATH: %v", name, err)
	}
	return p
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	r, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(w, r); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
