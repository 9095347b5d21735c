package main

import (
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestBoardcVersion checks where boardc's version comes from, in order:
// the linked-in version, the main module's version, the build info's
// commit, and "(devel)" only when none names one.
func TestBoardcVersion(t *testing.T) {
	rev := "69aa627abcdef0123456789abcdef0123456789a"
	vcs := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	for _, c := range []struct {
		name, linked string
		bi           *debug.BuildInfo
		want         string
	}{
		{"linked wins", "v0.2.0", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}, Settings: vcs("false")}, "v0.2.0"},
		{"module version", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}, Settings: vcs("true")}, "v0.1.0"},
		{"pseudo-version", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201221633-69aa627abcde+dirty"}}, "v0.0.0-20261201221633-69aa627abcde+dirty"},
		{"commit", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("false")}, rev},
		{"dirty commit", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("true")}, rev + "+dirty"},
		{"no vcs", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "(devel)"},
		{"no build info", "", nil, "(devel)"},
	} {
		if got := boardcVersion(c.linked, c.bi); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestVersionLinked links boardc the way the Buildroot package and the
// Yocto recipe do, with -buildvcs=false (no commit in the build info) and
// -X main.version: boardc version must print what was linked in.
func TestVersionLinked(t *testing.T) {
	if testing.Short() {
		t.Skip("links a boardc binary")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "boardc")
	const v = "0123456789abcdef0123456789abcdef01234567"
	if out, err := exec.Command(gobin, "build", "-trimpath", "-buildvcs=false", "-ldflags", "-X main.version="+v, "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(string(out), "\n"); first != "boardc "+v {
		t.Errorf("boardc version printed %q first, want %q", first, "boardc "+v)
	}
}
