package main

import (
	"bytes"
	"testing"
)

// TestExitCodes checks the documented exit status: 0 success, 1 a
// description with errors, 2 usage errors.
func TestExitCodes(t *testing.T) {
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
	} {
		var out, errb bytes.Buffer
		if got := runWith(tc.args, &out, &errb); got != tc.want {
			t.Errorf("boardc %v: exit %d, want %d\nstderr:\n%s", tc.args, got, tc.want, errb.String())
		}
	}
}
