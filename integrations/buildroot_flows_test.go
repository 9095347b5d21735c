package integrations

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"boardc.dev/boardc/internal/fdt"
	"boardc.dev/boardc/internal/testtool"
)

// crypto is the ESPRESSObin's EIP97 node, to which boardc's fragment
// adds dma-coherent (armada-37xx.dtsi crypto@90000, Linux v7.1).
const espressobinCrypto = "/soc/bus@d0000000/crypto@90000"

// TestBuildrootKernelFlows runs Buildroot's own steps on the ESPRESSObin
// defconfig with the external tree, from a clean output directory, and
// checks that the kernel's device trees get the board's fragment in
// each way a kernel is built:
//
//  1. make linux-patch: the kernel is extracted and patched, and its
//     patch step waits for boardc-tune to be built (host-go, host-boardc
//     and boardc-tune are built first);
//  2. make boardc-tune-rebuild after a description changed: the
//     kernel tree, which links the fragment, sees the new one, which
//     linux-rebuild then builds;
//  3. with LINUX_OVERRIDE_SRCDIR, after boardc-tune-dirclean: the
//     kernel's rsync step waits for boardc-tune and includes the
//     fragment in the copy, not in the source directory.
//
// Each device tree is then built as kbuild does (cpp, dtc): the EIP97
// must carry dma-coherent exactly when the description says so.
//
// Stand-ins, for what Buildroot would download and this test cannot:
//   - the kernel: a custom tarball (file://) of the Linux v7.1 Marvell
//     device trees and dt-bindings headers from the shared corpus;
//   - host-go: host-go-bin from the installed Go (GO_BIN_OVERRIDE_SRCDIR);
//   - host-boardc's download: made beforehand by Buildroot's dl-wrapper
//     from this checkout's HEAD (its go post-process with a local
//     GOPROXY instead of Buildroot's direct), its sha256 in a
//     BR2_GLOBAL_PATCH_DIR hash file, as a user would list it;
//   - host-tar: a wrapper of the system tar that reports 1.35, so that
//     Buildroot does not build host-tar (whose source it cannot
//     download) when the system's tar is older;
//   - the cross toolchain: a musl, static-only configuration, in which
//     host-go needs no toolchain for cgo (boardc-tune needs none).
//
// Not run: the kernel's configure and build steps, which need the cross
// toolchain; kbuild rebuilds a DTB whose included fragment is newer.
func TestBuildrootKernelFlows(t *testing.T) {
	br := buildroot(t)
	if testing.Short() {
		t.Skip("builds host-boardc with Buildroot (minutes)")
	}
	shared := testtool.RequireShared(t, root)
	gobin := testtool.Look(t, "go", "golang-go")
	for _, tool := range []string{"git", "rsync", "cpp", "dtc", "tar"} {
		testtool.Look(t, tool, tool)
	}
	top, _ := filepath.Abs(root)
	revb, err := exec.Command("git", "-C", top, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	rev := strings.TrimSpace(string(revb))
	start := time.Now()
	tmp := t.TempDir()

	// The stand-ins.
	kernel := filepath.Join(tmp, "linux-standin")
	dtsDir := filepath.Join(kernel, "arch", "arm64", "boot", "dts")
	if err := os.MkdirAll(dtsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, tmp, nil, "tar", "-xzf", filepath.Join(shared, "corpus", "linux-v7.1-dts-arm64.tar.gz"), "src/arm64/marvell", "include")
	if err := os.Rename(filepath.Join(tmp, "src", "arm64", "marvell"), filepath.Join(dtsDir, "marvell")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(tmp, "include"), filepath.Join(kernel, "include")); err != nil {
		t.Fatal(err)
	}
	run(t, tmp, nil, "tar", "-czf", "linux-standin.tar.gz", "linux-standin")
	for _, d := range espressobinDTS {
		if slices.Contains(coherentNodes(t, kernel, filepath.Join(dtsDir, d+".dts")), espressobinCrypto) {
			t.Fatalf("the upstream %s already has a dma-coherent EIP97: the checks below would prove nothing", d)
		}
	}
	dl := filepath.Join(tmp, "dl")
	archive := boardcDownload(t, br, gobin, dl, rev)
	patches := filepath.Join(tmp, "patches", "boardc")
	if err := os.MkdirAll(patches, 0o755); err != nil {
		t.Fatal(err)
	}
	hashLine := "sha256  " + fileSHA256(t, archive) + "  " + filepath.Base(archive) + "\n"
	writeFile(t, filepath.Join(patches, "boardc.hash"), hashLine)
	goroot := strings.TrimSpace(run(t, ".", nil, gobin, "env", "GOROOT"))
	localMk := filepath.Join(tmp, "local.mk")
	writeFile(t, localMk, "GO_BIN_OVERRIDE_SRCDIR = "+goroot+"\n")
	tarw := filepath.Join(tmp, "bin", "tar")
	sysTar, _ := exec.LookPath("tar")
	writeFile(t, tarw, "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'tar (GNU tar) 1.35'; exit 0; fi\nexec "+sysTar+" \"$@\"\n")
	if err := os.Chmod(tarw, 0o755); err != nil {
		t.Fatal(err)
	}
	module := filepath.Join(tmp, "module")
	if err := os.CopyFS(module, os.DirFS(filepath.Join(root, "boards"))); err != nil {
		t.Fatal(err)
	}

	o := brConfigure(t, br, "globalscale_espressobin_defconfig",
		`BR2_DL_DIR="`+dl+`"`,
		`BR2_GLOBAL_PATCH_DIR="`+filepath.Dir(patches)+`"`,
		`BR2_PACKAGE_OVERRIDE_FILE="`+localMk+`"`,
		"BR2_TOOLCHAIN_BUILDROOT_MUSL=y",
		"BR2_STATIC_LIBS=y",
		"BR2_PACKAGE_HOST_GO=y",
		"BR2_PACKAGE_HOST_GO_BIN=y",
		"BR2_PACKAGE_HOST_BOARDC=y",
		`BR2_PACKAGE_HOST_BOARDC_VERSION="`+rev+`"`,
		"BR2_PACKAGE_BOARDC_TUNE=y",
		`BR2_PACKAGE_BOARDC_TUNE_MODULE="`+module+`"`,
		`BR2_PACKAGE_BOARDC_TUNE_BOARD="espressobin"`,
		"BR2_LINUX_KERNEL_EXT_BOARDC_TUNE=y",
		"# BR2_LINUX_KERNEL_CUSTOM_VERSION is not set",
		"BR2_LINUX_KERNEL_CUSTOM_TARBALL=y",
		`BR2_LINUX_KERNEL_CUSTOM_TARBALL_LOCATION="file://`+filepath.Join(tmp, "linux-standin.tar.gz")+`"`,
	)
	if v := printvars(t, br, o, "HOST_GO_DEPENDENCIES", "BOARDC_TUNE_FINAL_DEPENDENCIES"); strings.Contains(v["HOST_GO_DEPENDENCIES"]+" "+v["BOARDC_TUNE_FINAL_DEPENDENCIES"], "toolchain") {
		t.Fatalf("the configuration builds the cross toolchain: %v", v)
	}
	// Buildroot's Go cache is the user's, so that boardc builds once.
	cache := strings.TrimSpace(run(t, ".", nil, gobin, "env", "GOCACHE"))
	brMake := func(targets ...string) string {
		t.Helper()
		t0 := time.Now()
		out := run(t, br, nil, "make", append([]string{"O=" + o, "TAR=" + tarw, "HOST_GO_HOST_CACHE=" + cache}, targets...)...)
		t.Logf("make %s: %v", strings.Join(targets, " "), time.Since(t0).Round(time.Second))
		return out
	}
	linuxDTS := filepath.Join(o, "build", "linux-custom", "arch", "arm64", "boot", "dts")
	fragment := filepath.Join(o, "build", "boardc-tune-custom", "boardc-out", "espressobin", "espressobin.dtsi")
	// check fails the test unless every ESPRESSObin tree of the kernel
	// ends by including the fragment, once, through a link to boardc's
	// output, and builds with the EIP97 coherent as want says.
	check := func(flow string, want bool) {
		t.Helper()
		if got, err := os.Readlink(filepath.Join(linuxDTS, "marvell", "boardc-espressobin.dtsi")); err != nil || got != fragment {
			t.Errorf("%s: the kernel's boardc-espressobin.dtsi links to %q (%v), want %s", flow, got, err, fragment)
		}
		for _, d := range espressobinDTS {
			text := readFile(t, filepath.Join(linuxDTS, d+".dts"))
			if n := strings.Count(text, "\n#include \"boardc-espressobin.dtsi\"\n"); n != 1 || !strings.HasSuffix(text, "\n#include \"boardc-espressobin.dtsi\"\n") {
				t.Errorf("%s: %s.dts includes the fragment %d times, or not last", flow, d, n)
			}
			if got := slices.Contains(coherentNodes(t, filepath.Join(o, "build", "linux-custom"), filepath.Join(linuxDTS, d+".dts")), espressobinCrypto); got != want {
				t.Errorf("%s: %s builds with a dma-coherent EIP97: %v, want %v", flow, d, got, want)
			}
		}
	}

	// 1. From the clean output directory.
	brMake("linux-patch")
	check("make linux-patch", true)
	if out := run(t, ".", nil, filepath.Join(o, "host", "bin", "boardc"), "version"); !strings.HasPrefix(out, "boardc "+rev+"\n") {
		t.Errorf("host boardc version:\n%s\nwant boardc %s", out, rev)
	}
	lic := filepath.Join(o, "build", "boardc-tune-custom", "boardc-licenses")
	if readFile(t, filepath.Join(lic, "MIT")) == "" || readFile(t, filepath.Join(lic, "GPL-2.0-or-later")) == "" {
		t.Error("boardc-tune's source holds no licence texts")
	}

	// 2. The EIP97 no longer verified coherent: the fragment loses its
	// dma-coherent, and the kernel tree follows.
	soc := filepath.Join(module, "soc", "armada37xx", "armada37xx.cue")
	text := readFile(t, soc)
	verified := "\t\t\tcoherency: {\n\t\t\t\tcoherent: true\n\t\t\t\tsource:   \"arm64: dts: marvell: armada-37xx: mark EIP97 as dma-coherent (mvebu/dt64, 2026): +3 % to +326 % throughput measured on Armada 3720\"\n\t\t\t}\n"
	if strings.Count(text, verified) != 1 {
		t.Fatalf("%s: the EIP97's verified coherency is not where the test expects it", soc)
	}
	writeFile(t, soc, strings.Replace(text, verified, "", 1))
	brMake("boardc-tune-rebuild")
	check("make boardc-tune-rebuild", false)
	writeFile(t, soc, text)

	// 3. LINUX_OVERRIDE_SRCDIR, boardc-tune built again first.
	brMake("linux-dirclean", "boardc-tune-dirclean")
	writeFile(t, localMk, "GO_BIN_OVERRIDE_SRCDIR = "+goroot+"\nLINUX_OVERRIDE_SRCDIR = "+kernel+"\n")
	out := brMake("linux-patch")
	if !strings.Contains(out, ">>> linux custom Syncing from source dir "+kernel) {
		t.Fatalf("make linux-patch did not rsync the kernel from %s:\n%s", kernel, out)
	}
	check("LINUX_OVERRIDE_SRCDIR", true)
	for _, d := range espressobinDTS {
		if strings.Contains(readFile(t, filepath.Join(dtsDir, d+".dts")), "boardc") {
			t.Errorf("LINUX_OVERRIDE_SRCDIR: the source directory's %s.dts was changed", d)
		}
	}
	t.Logf("the three flows took %v", time.Since(start).Round(time.Second))
}

// boardcDownload makes host-boardc's download of rev in dl/boardc/ as
// Buildroot does (support/download/dl-wrapper: the git backend on this
// checkout, then the go post-process that vendors the modules), with a
// GOPROXY that serves the local module cache, and returns the archive.
func boardcDownload(t *testing.T, br, gobin, dl, rev string) string {
	t.Helper()
	name := "boardc-" + rev + "-git4-go2.tar.gz"
	top, _ := filepath.Abs(root)
	gomod := filepath.Join(t.TempDir(), "gomod")
	env := []string{"GO111MODULE=on", "GOFLAGS=-mod=vendor", "GOTOOLCHAIN=local", "GOPROXY=" + localProxy(gobin),
		"GOMODCACHE=" + gomod, "TAR=tar", "GIT=git", "BR_NO_CHECK_HASH_FOR=" + name}
	hash, _ := filepath.Abs(filepath.Join(brTree, "package", "boardc", "boardc.hash"))
	out := filepath.Join(dl, "boardc", name)
	run(t, br, env, filepath.Join(br, "support", "download", "dl-wrapper"),
		"-c", rev, "-d", filepath.Join(dl, "boardc"), "-D", dl, "-f", name, "-H", hash,
		"-n", "boardc-"+rev, "-N", "boardc", "-o", out,
		"-u", "git+"+top, "-p", "go", "--")
	// The module cache is read-only, as the go command leaves it.
	run(t, ".", nil, "chmod", "-R", "u+w", gomod)
	return out
}

// coherentNodes builds dts in the kernel tree kernel the way kbuild does
// (cpp with the tree's include paths, then dtc) and returns the nodes
// that carry dma-coherent.
func coherentNodes(t *testing.T, kernel, dts string) []string {
	t.Helper()
	dir := filepath.Dir(dts)
	cpp := exec.Command("cpp", "-nostdinc", "-I", dir, "-I", filepath.Dir(dir), "-I", filepath.Join(kernel, "include"),
		"-undef", "-D__DTS__", "-x", "assembler-with-cpp", dts)
	pre, err := cpp.Output()
	if err != nil {
		t.Fatalf("cpp %s: %v\n%s", dts, err, stderrOf(err))
	}
	dtc := exec.Command("dtc", "-q", "-I", "dts", "-O", "dtb", "-")
	dtc.Stdin = strings.NewReader(string(pre))
	dtb, err := dtc.Output()
	if err != nil {
		t.Fatalf("dtc %s: %v\n%s", dts, err, stderrOf(err))
	}
	tree, err := fdt.Parse(dtb)
	if err != nil {
		t.Fatal(err)
	}
	return tree.WithProperty("dma-coherent")
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
