package c_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/internal/testtool"
	"boardc.dev/boardc/outputs/c"
)

// readmeExample returns the C example of the README, the fenced block
// after the line "<!-- kbuild-example: boards/mirabox -->".
func readmeExample(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const mark = "<!-- kbuild-example: boards/mirabox -->\n```c\n"
	_, rest, ok := strings.Cut(string(data), mark)
	if !ok {
		t.Fatalf("README.md has no %q", mark)
	}
	code, _, ok := strings.Cut(rest, "```\n")
	if !ok {
		t.Fatal("the README's kbuild example is not closed")
	}
	return code
}

// jobs is make's -j for the kernel builds: one job a CPU. The four
// builds of the package also run side by side (t.Parallel): each
// spends its start in make's single-threaded reading of the kernel's
// makefiles.
func jobs() string { return "-j" + strconv.Itoa(runtime.NumCPU()) }

// makeModules runs make modules in dir against the kernel headers with W=1
// and any further make arguments, and fails the test on a failed build or
// any warning; it returns the output.
func makeModules(t *testing.T, headers, dir string, args ...string) string {
	t.Helper()
	args = append([]string{jobs(), "-C", headers, "M=" + dir, "W=1"}, append(args, "modules")...)
	out, err := exec.Command("make", args...).CombinedOutput()
	t.Logf("make %s", strings.Join(args, " "))
	if err != nil {
		t.Fatalf("make failed: %v\n%s", err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if ll := strings.ToLower(l); strings.Contains(ll, "warning") || strings.Contains(ll, "error") {
			t.Errorf("kbuild: %s", l)
		}
	}
	if t.Failed() {
		t.Logf("full output:\n%s", out)
	}
	return string(out)
}

// TestKbuild builds the header of every in-tree board, of the hand-built
// edge cases and of testdata/cases/dma-split (a board with entries)
// into one out-of-tree module against the installed Debian kernel
// headers, with -Werror and W=1, and fails on any warning. One unit
// includes every header side by side and calls each board's functions,
// which checks that the headers of several boards coexist; the README's
// vendor-driver example is built into the same module, against
// boards/mirabox's header.
func TestKbuild(t *testing.T) {
	t.Parallel()
	headers := testtool.KernelHeaders(t)
	testtool.Look(t, "make", "make")
	testtool.Look(t, "gcc", "gcc")

	boards := append(intree.Boards(t, "../../boards"), c.EdgeBoards()...)
	boards = append(boards, intree.Compile(t, "../../testdata/cases/dma-split").Board)
	dir := t.TempDir()
	var includes, calls []string
	for _, b := range boards {
		for _, f := range c.Emit(b) {
			if f.Path != c.HeaderName(b) {
				continue
			}
			if err := os.WriteFile(filepath.Join(dir, f.Path), f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		includes = append(includes, "#include \""+c.HeaderName(b)+"\"\n")
		calls = append(calls, "\tif (!"+c.LookupFunc(b)+"(dev->of_node))\n\t\terr |= "+c.SetupFunc(b)+"(dev);\n")
	}
	// The headers hold no module_init or license: a wrapper gives the
	// module both, and calls every board's functions.
	wrapper := "// SPDX-License-Identifier: GPL-2.0\n#include <linux/module.h>\n\n" +
		strings.Join(includes, "") +
		"\nint boardc_kbuild_all(struct device *dev);\nint boardc_kbuild_all(struct device *dev)\n{\n\tint err = 0;\n\n" +
		strings.Join(calls, "") + "\treturn err;\n}\n" +
		"\nMODULE_LICENSE(\"GPL\");\nMODULE_DESCRIPTION(\"boardc kernel C build test\");\n"
	kb := "obj-m := boardc_kbuild.o\n" +
		"boardc_kbuild-y := boardc_kbuild_main.o boardc_kbuild_example.o\n" +
		"ccflags-y := -Werror\n"
	for _, f := range []struct{ name, data string }{
		{"boardc_kbuild_main.c", wrapper},
		{"Kbuild", kb},
		{"boardc_kbuild_example.c", "// SPDX-License-Identifier: GPL-2.0\n" + readmeExample(t)},
	} {
		if err := os.WriteFile(filepath.Join(dir, f.name), []byte(f.data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	makeModules(t, headers, dir)
	if _, err := os.Stat(filepath.Join(dir, "boardc_kbuild.ko")); err != nil {
		t.Errorf("no module built: %v", err)
	}
}

// TestKbuildTwoModules builds two modules that each include the header of
// testdata/cases/dma-split (an entry the kernel's default lacks: 40-bit
// streaming, 32-bit coherent) and use it, from testdata/twomod as
// scripts/target-test.sh builds them for its guest, with W=1 -Werror.
// The header defines no global symbol, so the two modules export
// nothing: Module.symvers lists no symbol of theirs, where the negative
// control, two modules each linking a definition exported the way the
// board's C once was, lists that symbol for both (which the kernel
// refuses to load twice: the target test loads them).
func TestKbuildTwoModules(t *testing.T) {
	t.Parallel()
	headers := testtool.KernelHeaders(t)
	testtool.Look(t, "make", "make")
	testtool.Look(t, "gcc", "gcc")
	testtool.Look(t, "sh", "dash")

	b := intree.Compile(t, "../../testdata/cases/dma-split").Board
	if len(c.Capabilities(b)) == 0 {
		t.Fatal("dma-split has no entry: the test needs one")
	}
	src := t.TempDir()
	dir := filepath.Join(t.TempDir(), "two")
	for _, f := range c.Emit(b) {
		if f.Path == c.HeaderName(b) {
			if err := os.WriteFile(filepath.Join(src, f.Path), f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if out, err := exec.Command("sh", "testdata/twomod/prepare.sh", dir, filepath.Join(src, c.HeaderName(b))).CombinedOutput(); err != nil {
		t.Fatalf("prepare.sh: %v\n%s", err, out)
	}
	makeModules(t, headers, dir, "BOARDC_BOARD="+b.CIdent())
	for _, m := range []string{"boardc_two_a", "boardc_two_b", "boardc_two_wrong", "boardc_old_a", "boardc_old_b"} {
		if _, err := os.Stat(filepath.Join(dir, m+".ko")); err != nil {
			t.Errorf("%s not built: %v", m, err)
		}
	}
	symvers, err := os.ReadFile(filepath.Join(dir, "Module.symvers"))
	if err != nil {
		t.Fatal(err)
	}
	exports := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(symvers)), "\n") {
		if f := strings.Split(l, "\t"); len(f) >= 3 {
			exports[f[2]] = append(exports[f[2]], f[1])
		}
	}
	for _, m := range []string{"boardc_two_a", "boardc_two_b", "boardc_two_wrong"} {
		if len(exports[dir+"/"+m]) > 0 {
			t.Errorf("%s exports %v: a second module of the board would clash", m, exports[dir+"/"+m])
		}
	}
	for _, m := range []string{"boardc_old_a", "boardc_old_b"} {
		if got := exports[dir+"/"+m]; len(got) != 1 || got[0] != "boardc_exported_dma_caps" {
			t.Errorf("negative control: %s exports %v, want boardc_exported_dma_caps (Module.symvers:\n%s)", m, got, symvers)
		}
	}
}

// TestKbuildVerifier builds the verifier module of every in-tree board and
// of the hand-built edge cases, each a module of its own, the way its
// generated Kbuild says, against the installed Debian kernel headers with
// W=1 and -Werror, and fails on any warning.
func TestKbuildVerifier(t *testing.T) {
	t.Parallel()
	headers := testtool.KernelHeaders(t)
	testtool.Look(t, "make", "make")
	testtool.Look(t, "gcc", "gcc")

	dir := t.TempDir()
	var kbuild strings.Builder
	for _, b := range append(intree.Boards(t, "../../boards"), c.EdgeBoards()...) {
		var own string
		for _, f := range c.Emit(b) {
			switch f.Path {
			case c.VerifyName(b):
				if err := os.WriteFile(filepath.Join(dir, f.Path), f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			case "Kbuild":
				own = string(f.Data)
			}
		}
		if !strings.Contains(own, "obj-m += "+strings.TrimSuffix(c.VerifyName(b), ".c")+".o") {
			t.Fatalf("%s: the generated Kbuild does not build %s:\n%s", b.Name, c.VerifyName(b), own)
		}
		kbuild.WriteString(own)
	}
	kbuild.WriteString("ccflags-y := -Werror\n")
	if err := os.WriteFile(filepath.Join(dir, "Kbuild"), []byte(kbuild.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{jobs(), "-C", headers, "M=" + dir, "W=1", "modules"}
	out, err := exec.Command("make", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("make %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if ll := strings.ToLower(l); strings.Contains(ll, "warning") || strings.Contains(ll, "error") {
			t.Errorf("kbuild: %s", l)
		}
	}
	mods, _ := filepath.Glob(filepath.Join(dir, "*_verify.ko"))
	if len(mods) < 4 {
		t.Errorf("%d verifier modules built, want one per board:\n%s", len(mods), out)
	}
}
