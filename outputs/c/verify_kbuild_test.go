package c_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/internal/testtool"
	"boardc.dev/boardc/outputs/c"
)

// arm64Headers returns the kbuild directory of Debian's arm64 headers of
// Linux series, as scripts/target/arm64-headers.sh leaves them in
// BOARDC_TARGET_CACHE (default ~/.cache/boardc-target)/headers-SERIES,
// skipping or failing (BOARDC_REQUIRE_TOOLS=1) when they are not there.
func arm64Headers(t *testing.T, series string) string {
	t.Helper()
	cache := os.Getenv("BOARDC_TARGET_CACHE")
	if cache == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home, _ := os.UserHomeDir()
			base = filepath.Join(home, ".cache")
		}
		cache = filepath.Join(base, "boardc-target")
	}
	stamp, err := os.ReadFile(filepath.Join(cache, "headers-"+series, "stamp"))
	f := strings.Fields(string(stamp))
	if err == nil && len(f) == 2 {
		if _, err := os.Stat(filepath.Join(f[1], "Makefile")); err == nil {
			return f[1]
		}
	}
	msg := "no arm64 headers of Linux " + series + " in " + cache + "; fetch them with: scripts/target/arm64-headers.sh " +
		series + " (Debian linux-headers-" + series + "-arm64:arm64 and its linux-kbuild)"
	if testtool.Required() {
		t.Fatal(msg + " (BOARDC_REQUIRE_TOOLS=1)")
	}
	t.Skip(msg)
	return ""
}

// TestKbuildVerifierArm64 builds the verifier module of every in-tree board
// and of the hand-built edge cases for arm64, against Debian's arm64
// headers of Linux 6.1 and 6.12, with W=1 and -Werror, the way each
// generated Kbuild says, and fails on any warning. Those configurations
// have CONFIG_ARM_AMBA=y, CONFIG_PCI=y and CONFIG_FSL_MC_DPIO=m, so every
// optional branch is compiled: the built LS2088A-RDB verifier must import
// dpaa2_io_service_select (the DPIO branch, IS_REACHABLE from a module),
// amba_bustype and pci_find_host_bridge.
func TestKbuildVerifierArm64(t *testing.T) {
	t.Parallel()
	testtool.Look(t, "make", "make")
	testtool.Look(t, "aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu")
	boards := append(intree.Boards(t, "../../boards"), c.EdgeBoards()...)
	for _, series := range []string{"6.1", "6.12"} {
		t.Run(series, func(t *testing.T) {
			t.Parallel()
			headers := arm64Headers(t, series)
			dir := t.TempDir()
			var kbuild strings.Builder
			for _, b := range boards {
				for _, f := range c.Emit(b) {
					switch f.Path {
					case c.VerifyName(b):
						if err := os.WriteFile(filepath.Join(dir, f.Path), f.Data, 0o644); err != nil {
							t.Fatal(err)
						}
					case "Kbuild":
						kbuild.Write(f.Data)
					}
				}
			}
			kbuild.WriteString("ccflags-y := -Werror\n")
			if err := os.WriteFile(filepath.Join(dir, "Kbuild"), []byte(kbuild.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{jobs(), "-C", headers, "M=" + dir, "ARCH=arm64", "CROSS_COMPILE=aarch64-linux-gnu-", "W=1", "modules"}
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
			if len(mods) != len(boards) {
				t.Errorf("%d verifier modules built, want %d:\n%s", len(mods), len(boards), out)
			}
			ko, err := os.ReadFile(filepath.Join(dir, "boardc_ls2088a_rdb_verify.ko"))
			if err != nil {
				t.Fatal(err)
			}
			for _, sym := range []string{"dpaa2_io_service_select", "amba_bustype", "pci_find_host_bridge"} {
				if !bytes.Contains(ko, []byte("\x00"+sym+"\x00")) {
					t.Errorf("the LS2088A-RDB verifier built against %s does not use %s: its branch was not compiled", headers, sym)
				}
			}
		})
	}
}
