// Package testtool lets tests use the system tools that consume boardc's
// outputs (dtc, shellcheck, kbuild, ip) and the shared reference device
// trees. A test that needs a missing tool skips with the command that
// installs it, unless BOARDC_REQUIRE_TOOLS=1, where a missing tool fails
// the test: CI must never pass by skipping.
package testtool

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
)

// Required reports whether missing tools fail tests instead of skipping
// them (BOARDC_REQUIRE_TOOLS=1).
func Required() bool { return os.Getenv("BOARDC_REQUIRE_TOOLS") == "1" }

// Look returns the path of the named program, skipping or failing the test
// when it is not installed. pkg is the Debian package that provides it.
func Look(t testing.TB, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(t, name+" not found", pkg)
	}
	return p
}

// Missing skips or fails t because something the Debian package pkg
// provides is not installed.
func Missing(t testing.TB, what, pkg string) {
	t.Helper()
	msg := what + "; install it with: apt-get install -y " + pkg
	if Required() {
		t.Fatal(msg + " (BOARDC_REQUIRE_TOOLS=1)")
	}
	t.Skip(msg)
}

// KernelHeaders returns the kbuild directory of the newest installed
// Debian linux-headers-*-amd64 package (a tree with a Makefile that
// builds out-of-tree modules), skipping or failing when there is none.
func KernelHeaders(t testing.TB) string {
	t.Helper()
	dirs, _ := filepath.Glob("/usr/src/linux-headers-*-amd64")
	sort.Strings(dirs)
	for i := len(dirs) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(dirs[i], "Makefile")); err == nil {
			return dirs[i]
		}
	}
	Missing(t, "no kernel headers in /usr/src/linux-headers-*-amd64", "linux-headers-amd64")
	return ""
}

// SharedDir returns the directory of the project's shared reference data
// as an absolute path (../shared beside the repository, or BOARDC_SHARED),
// or "" when absent.
// Tests that use it skip when it is missing: a plain clone may not have it.
func SharedDir(root string) string {
	d := filepath.Join(root, "..", "shared")
	if e := os.Getenv("BOARDC_SHARED"); e != "" {
		d = e
	}
	if fi, err := os.Stat(filepath.Join(d, "upstream-dts")); err != nil || !fi.IsDir() {
		return ""
	}
	abs, err := filepath.Abs(d)
	if err != nil {
		return ""
	}
	return abs
}

// RequireShared returns SharedDir(root), skipping the test when the
// shared reference set is absent, or failing it when
// BOARDC_REQUIRE_SHARED=1. The set is not a package a machine can
// install: scripts/test.sh requires it where it is present and otherwise
// prints which tests it skips.
func RequireShared(t testing.TB, root string) string {
	t.Helper()
	shared := SharedDir(root)
	if shared == "" {
		what := "the shared reference trees (../shared/upstream-dts, or $BOARDC_SHARED/upstream-dts) are not present"
		if os.Getenv("BOARDC_REQUIRE_SHARED") == "1" {
			t.Fatal(what + " (BOARDC_REQUIRE_SHARED=1)")
		}
		t.Skip(what)
	}
	return shared
}

// DTBindings returns the include directory of the newest Debian
// linux-headers-*-common package, the one with the dt-bindings headers
// the shared reference set's trees include, skipping or failing the
// test when there is none.
func DTBindings(t testing.TB) string {
	t.Helper()
	hdrs, _ := filepath.Glob("/usr/src/linux-headers-*-common/include/dt-bindings")
	sort.Strings(hdrs)
	if len(hdrs) == 0 {
		Missing(t, "no dt-bindings headers in /usr/src/linux-headers-*-common", "linux-headers-amd64")
	}
	return filepath.Dir(hdrs[len(hdrs)-1])
}

// UpstreamTree lays out the shared reference trees (../shared/upstream-dts)
// as a kernel source tree in a temporary directory: arch/ is theirs, and
// scripts/dtc/include-prefixes holds the links a kernel tree has (arm,
// arm64, dt-bindings). It returns the tree's root, the include
// directories the reference set needs besides (the dt-bindings headers of
// Debian's linux-headers-*-common, which the shared set's compile.sh uses
// too: DTBindings), and the shared directory (RequireShared). A missing
// shared set or headers package skips the test, and fails it under
// BOARDC_REQUIRE_TOOLS=1 (the headers) or BOARDC_REQUIRE_SHARED=1 (the
// set).
func UpstreamTree(t testing.TB, root string) (dir string, include []string, shared string) {
	t.Helper()
	shared = RequireShared(t, root)
	hdrs := DTBindings(t)
	up := filepath.Join(shared, "upstream-dts")
	dir = t.TempDir()
	pfx := filepath.Join(dir, "scripts", "dtc", "include-prefixes")
	if err := os.MkdirAll(pfx, 0o755); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		filepath.Join(dir, "arch"):        filepath.Join(up, "arch"),
		filepath.Join(pfx, "arm"):         filepath.Join(up, "arch", "arm", "boot", "dts"),
		filepath.Join(pfx, "arm64"):       filepath.Join(up, "arch", "arm64", "boot", "dts"),
		filepath.Join(pfx, "dt-bindings"): filepath.Join(up, "include", "dt-bindings"),
	}
	for link, target := range links {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	return dir, []string{hdrs}, shared
}

// CompileDTS builds the .dts dts into the DTB out the way kbuild does,
// with compile.sh of the shared reference set's directory up
// (<shared>/upstream-dts), which also writes dtc's log beside out
// (out without .dtb, then .dtc.log). dtcFlags are dtc's extra flags.
// A failed build fails the test.
func CompileDTS(t testing.TB, up, dts, out, dtcFlags string) {
	t.Helper()
	cmd := exec.Command("bash", filepath.Join(up, "compile.sh"), dts, out)
	cmd.Env = append(os.Environ(), "EXTRA_INC="+filepath.Join(up, "include"), "DTC_FLAGS="+dtcFlags)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("compile.sh %s: %v\n%s", dts, err, b)
	}
}

// CopyFiles copies the regular files of the directory src into dst,
// creating dst; subdirectories and links are not copied.
func CopyFiles(t testing.TB, src, dst string) {
	t.Helper()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
