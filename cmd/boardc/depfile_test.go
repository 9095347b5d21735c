package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc"
	"boardc.dev/boardc/internal/intree"
)

// TestMakeEscape checks file names are escaped the way gcc writes them in
// depfiles and GNU make reads them back.
func TestMakeEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"boards/espressobin/board.cue", "boards/espressobin/board.cue"},
		{"my boards/board.cue", `my\ boards/board.cue`},
		{"a#b", `a\#b`},
		{"$x", "$$x"},
		{`a\ b`, `a\\\ b`},
		{"tab\there", "tab\\\there"},
	} {
		if got := makeEscape(tc.in); got != tc.want {
			t.Errorf("makeEscape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestDepfileInputs checks that the depfile names, besides the CUE files,
// the directory of every package loaded (so that a .cue file added to the
// board or its SoC counts) and the boardc binary, each with an empty rule.
func TestDepfileInputs(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	r := intree.Compile(t, filepath.Join("..", "..", "boards", "espressobin"))
	dep := string(depfile("out", []string{"stamp"}, []*boardc.Result{r}))
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	boards, err := filepath.Abs(filepath.Join("..", "..", "boards"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{
		exe,
		filepath.Join(boards, "espressobin"),
		filepath.Join(boards, "espressobin", "board.cue"),
		filepath.Join(boards, "soc", "armada37xx"),
		filepath.Join(boards, "cue.mod", "module.cue"),
	} {
		if !strings.Contains(dep, "\n  "+makeEscape(p)+" \\\n") && !strings.HasSuffix(dep, "\n  "+makeEscape(p)+"\n") && !strings.Contains(dep, "\n  "+makeEscape(p)+"\n\n") {
			t.Errorf("depfile does not list %s as a prerequisite:\n%s", p, dep)
		}
		if !strings.Contains(dep, "\n"+makeEscape(p)+":\n") {
			t.Errorf("depfile has no empty rule for %s:\n%s", p, dep)
		}
	}
	if !strings.HasPrefix(dep, "stamp: \\\n") {
		t.Errorf("depfile's target is not the stamp:\n%s", dep)
	}
}
