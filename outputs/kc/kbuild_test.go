package kc_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/internal/testtool"
	"boardc.dev/boardc/outputs/kc"
)

// dpaa2Symvers declares, for modpost only, the symbol the generated DPAA2
// code links against: dpaa2_io_service_select() is exported with
// EXPORT_SYMBOL_GPL by drivers/soc/fsl/dpio/dpio-service.c, built into
// fsl-mc-dpio.ko, which an amd64 kernel does not build
// (CONFIG_FSL_MC_DPIO is unset). Its prototype still comes from the real
// include/soc/fsl/dpaa2-io.h of the installed headers; this file only lets
// modpost resolve the import as an arm64 kernel would, instead of
// warning that it is undefined. It is a test stand-in, not a kernel fact.
const dpaa2Symvers = "0x00000000\tdpaa2_io_service_select\tdrivers/soc/fsl/dpio/fsl-mc-dpio\tEXPORT_SYMBOL_GPL\t\n"

// TestKbuild builds the C of every in-tree board, and of the hand-built
// edge cases, as one out-of-tree module against the installed Debian
// kernel headers, with -Werror and W=1, and fails on any warning.
func TestKbuild(t *testing.T) {
	headers := testtool.KernelHeaders(t)
	testtool.Look(t, "make", "make")
	testtool.Look(t, "gcc", "gcc")

	boards := append(intree.Boards(t, "../../boards"), kc.EdgeBoards()...)
	dir := t.TempDir()
	var objs, includes []string
	for _, b := range boards {
		for _, f := range kc.Emit(b) {
			if err := os.WriteFile(filepath.Join(dir, f.Path), f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		objs = append(objs, strings.TrimSuffix(kc.SourceName(b), ".c")+".o")
		includes = append(includes, "#include \""+kc.HeaderName(b)+"\"\n")
	}
	// The generated sources have no module_init or license: a wrapper gives
	// the module both, and includes every header side by side, which
	// checks that the headers of several boards coexist in one unit.
	wrapper := "// SPDX-License-Identifier: GPL-2.0\n#include <linux/module.h>\n\n" +
		strings.Join(includes, "") +
		"\nMODULE_LICENSE(\"GPL\");\nMODULE_DESCRIPTION(\"boardc kernel C build test\");\n"
	kbuild := "obj-m := boardc_kbuild.o\n" +
		"boardc_kbuild-y := boardc_kbuild_main.o " + strings.Join(objs, " ") + "\n" +
		"ccflags-y := -Werror\n"
	symvers := filepath.Join(dir, "dpaa2.symvers")
	for _, f := range []struct{ name, data string }{
		{"boardc_kbuild_main.c", wrapper},
		{"Kbuild", kbuild},
		{"dpaa2.symvers", dpaa2Symvers},
	} {
		if err := os.WriteFile(filepath.Join(dir, f.name), []byte(f.data), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	args := []string{"-C", headers, "M=" + dir, "W=1", "KBUILD_MODPOST_WARN=1",
		"KBUILD_EXTRA_SYMBOLS=" + symvers, "modules"}
	cmd := exec.Command("make", args...)
	out, err := cmd.CombinedOutput()
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
	if _, err := os.Stat(filepath.Join(dir, "boardc_kbuild.ko")); err != nil {
		t.Errorf("no module built: %v", err)
	}
}

// TestKbuildVerifier builds the verifier module of every in-tree board and
// of the hand-built edge cases, each a module of its own, the way its
// generated Kbuild says, against the installed Debian kernel headers with
// W=1 and -Werror, and fails on any warning.
func TestKbuildVerifier(t *testing.T) {
	headers := testtool.KernelHeaders(t)
	testtool.Look(t, "make", "make")
	testtool.Look(t, "gcc", "gcc")

	dir := t.TempDir()
	var kbuild strings.Builder
	for _, b := range append(intree.Boards(t, "../../boards"), kc.EdgeBoards()...) {
		var own string
		for _, f := range kc.Emit(b) {
			switch f.Path {
			case kc.VerifyName(b):
				if err := os.WriteFile(filepath.Join(dir, f.Path), f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			case "Kbuild":
				own = string(f.Data)
			}
		}
		if !strings.Contains(own, "obj-m += "+strings.TrimSuffix(kc.VerifyName(b), ".c")+".o") {
			t.Fatalf("%s: the generated Kbuild does not build %s:\n%s", b.Name, kc.VerifyName(b), own)
		}
		kbuild.WriteString(own)
	}
	kbuild.WriteString("ccflags-y := -Werror\n")
	if err := os.WriteFile(filepath.Join(dir, "Kbuild"), []byte(kbuild.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-C", headers, "M=" + dir, "W=1", "modules"}
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
