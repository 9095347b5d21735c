package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestExitCodes checks the documented exit status: 0 success, 1 a
// description with errors, 2 usage errors (3, an I/O error writing
// outputs, is checked by TestIOErrorKeepsOldSet).
func TestExitCodes(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"vet", "../../boards/espressobin"}, exitOK},
		{[]string{"vet", "testdata/does-not-exist"}, exitDiags},
		{[]string{"vet"}, exitUsage},
		{[]string{"vet", "--format=xml", "x"}, exitUsage},
		{[]string{"no-such-command"}, exitUsage},
		{[]string{"build", "--no-such-flag", "x"}, exitUsage},
		{[]string{"--version"}, exitOK},
		{[]string{"explain", "--json", "../../boards/espressobin", "no-such-thing"}, exitDiags},
		{[]string{"list", "--json", "testdata/does-not-exist"}, exitUsage},
		{[]string{"build", "-o", "", "../../boards/espressobin"}, exitUsage},
		{[]string{"build", "-o", file, "../../boards/espressobin"}, exitUsage},
		{[]string{"build", "--check", "-o", "", "../../boards/espressobin"}, exitUsage},
	} {
		var out, errb bytes.Buffer
		if got := runWith(tc.args, &out, &errb); got != tc.want {
			t.Errorf("boardc %v: exit %d, want %d\nstderr:\n%s", tc.args, got, tc.want, errb.String())
		}
	}
}
