package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestExitCodes checks the exit-status contract of every command, as
// boardc --help states it once: 0 success; 1 an input with errors (a
// description or tree missing, unreadable or not checking, a pattern
// without a board, drift, nothing matched); 2 usage; 3 I/O writing the
// outputs (also TestIOErrorKeepsOldSet, and the killed and concurrent
// builds).
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.cue")
	if err := os.WriteFile(bad, []byte("package bad\nname: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	const board, missing = "../../boards/espressobin", "testdata/does-not-exist"
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"vet", board}, exitOK},
		{[]string{"vet", bad}, exitDiags},
		{[]string{"vet", missing}, exitDiags},
		{[]string{"vet", missing + "/..."}, exitDiags},
		{[]string{"vet", empty + "/..."}, exitDiags},
		{[]string{"vet"}, exitUsage},
		{[]string{"vet", "--format=xml", "x"}, exitUsage},

		{[]string{"build", "-o", filepath.Join(dir, "out"), board}, exitOK},
		{[]string{"build", "-o", filepath.Join(dir, "out"), missing}, exitDiags},
		{[]string{"build", "-o", filepath.Join(dir, "out"), missing + "/..."}, exitDiags},
		{[]string{"build", "--no-such-flag", "x"}, exitUsage},
		{[]string{"build", "-o", "", board}, exitUsage},
		{[]string{"build", "-o", file, board}, exitUsage},
		{[]string{"build", "--check", "-o", "", board}, exitUsage},
		{[]string{"build", "-o", filepath.Join(file, "out"), board}, exitIO},

		{[]string{"diff", "--against", filepath.Join(dir, "out"), board}, exitOK},
		{[]string{"diff", "--against", filepath.Join(dir, "out"), missing}, exitDiags},

		{[]string{"list", "../../boards"}, exitOK},
		{[]string{"list", "--json", missing}, exitDiags},
		{[]string{"list", empty}, exitDiags},
		{[]string{"list", "a", "b"}, exitUsage},

		{[]string{"explain", board, "crypto"}, exitOK},
		{[]string{"explain", "--json", board, "no-such-thing"}, exitDiags},
		{[]string{"explain", missing, "crypto"}, exitDiags},
		{[]string{"explain", board}, exitUsage},

		{[]string{"migrate", "--dry-run", board}, exitOK},
		{[]string{"migrate", missing}, exitDiags},
		{[]string{"migrate", missing + "/..."}, exitDiags},
		{[]string{"migrate"}, exitUsage},

		{[]string{"import", "-o", filepath.Join(dir, "imp"), missing + ".dtb"}, exitDiags},
		{[]string{"import", "-o", filepath.Join(dir, "imp"), file}, exitUsage},

		{[]string{"checks", "BC0101"}, exitOK},
		{[]string{"checks", "no-such-check"}, exitUsage},
		{[]string{"no-such-command"}, exitUsage},
		{[]string{"--version"}, exitOK},
	} {
		var out, errb bytes.Buffer
		if got := runWith(tc.args, &out, &errb); got != tc.want {
			t.Errorf("boardc %v: exit %d, want %d\nstderr:\n%s", tc.args, got, tc.want, errb.String())
		}
	}
}
