package integrations

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"boardc.dev/boardc/internal/testtool"
)

// buildroot returns the Buildroot source tree named by BOARDC_BUILDROOT,
// skipping the test when it is not set: a Buildroot tree cannot be
// fetched where the suite runs without network (CI).
func buildroot(t *testing.T) string {
	t.Helper()
	br := os.Getenv("BOARDC_BUILDROOT")
	if br == "" {
		t.Skip("BOARDC_BUILDROOT is not set: set it to a Buildroot source tree " +
			"(git clone https://gitlab.com/buildroot.org/buildroot.git) to run the br2-external tree through it")
	}
	if _, err := os.Stat(filepath.Join(br, "package", "pkg-golang.mk")); err != nil {
		t.Fatalf("BOARDC_BUILDROOT=%s is not a Buildroot source tree: %v", br, err)
	}
	testtool.Look(t, "make", "make")
	testtool.Look(t, "gcc", "gcc")
	return br
}

// brConfigure writes a configuration: Buildroot's defconfig, then the
// lines of extra, completed by olddefconfig. It returns the output
// directory.
func brConfigure(t *testing.T, br, defconfig string, extra ...string) string {
	t.Helper()
	ext, err := filepath.Abs(brTree)
	if err != nil {
		t.Fatal(err)
	}
	o := t.TempDir()
	env := []string{"BR2_EXTERNAL=" + ext}
	run(t, br, env, "make", "-s", "O="+o, defconfig)
	f, err := os.OpenFile(filepath.Join(o, ".config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(strings.Join(extra, "\n") + "\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	run(t, br, env, "make", "-s", "O="+o, "olddefconfig")
	return o
}

// printvars returns the values Buildroot computes for the variables.
func printvars(t *testing.T, br, o string, vars ...string) map[string]string {
	t.Helper()
	out := run(t, br, nil, "make", "-s", "O="+o, "printvars", "QUOTED_VARS=1", "VARS="+strings.Join(vars, " "))
	got := map[string]string{}
	for _, m := range quotedVar.FindAllStringSubmatch(out, -1) {
		got[m[1]] = strings.TrimSpace(strings.ReplaceAll(m[2], `'\''`, "'"))
	}
	return got
}

// quotedVar matches one NAME='value' of printvars QUOTED_VARS=1; a value
// may span lines, and quotes in it are written '\”.
var quotedVar = regexp.MustCompile(`(?ms)^([A-Z0-9_]+)='((?:[^']|'\\''|)*?)'$`)

// TestBuildrootParses configures Buildroot's ESPRESSObin defconfig (BusyBox
// init) with the external tree's packages and kernel extension, and
// checks what Buildroot makes of them: the host package builds go.mod's
// module with its Go modules vendored at download, installs boardc,
// checks the licence against the .hash; boardc-tune compiles the board
// configured and installs with both init systems; the kernel extension
// makes the kernel wait for boardc-tune and includes the fragment in
// every ESPRESSObin device tree the defconfig builds.
func TestBuildrootParses(t *testing.T) {
	br := buildroot(t)
	const rev = "0123456789abcdef0123456789abcdef01234567"
	o := brConfigure(t, br, "globalscale_espressobin_defconfig",
		"BR2_PACKAGE_HOST_BOARDC=y",
		`BR2_PACKAGE_HOST_BOARDC_VERSION="`+rev+`"`,
		"BR2_PACKAGE_BOARDC_TUNE=y",
		`BR2_PACKAGE_BOARDC_TUNE_BOARD="espressobin"`,
		"BR2_LINUX_KERNEL_EXT_BOARDC_TUNE=y",
	)
	cfg := readFile(t, filepath.Join(o, ".config"))
	for _, want := range []string{
		"BR2_INIT_BUSYBOX=y", "BR2_PACKAGE_HOST_BOARDC=y", "BR2_PACKAGE_BOARDC_TUNE=y",
		"BR2_LINUX_KERNEL_EXT_BOARDC_TUNE=y",
	} {
		if !strings.Contains(cfg, "\n"+want+"\n") {
			t.Errorf(".config lacks %s", want)
		}
	}
	v := printvars(t, br, o,
		"HOST_BOARDC_GOMOD", "HOST_BOARDC_INSTALL_BINS", "HOST_BOARDC_DOWNLOAD_POST_PROCESS",
		"HOST_BOARDC_SITE_METHOD", "HOST_BOARDC_VERSION", "HOST_BOARDC_LICENSE_FILES",
		"HOST_BOARDC_HASH_FILES", "HOST_BOARDC_SITE",
		"BOARDC_TUNE_BUILD_CMDS", "BOARDC_TUNE_INSTALL_INIT_SYSV", "BOARDC_TUNE_INSTALL_INIT_SYSTEMD",
		"BOARDC_TUNE_INSTALL_TARGET_CMDS", "BOARDC_TUNE_FINAL_DEPENDENCIES", "BOARDC_TUNE_SITE",
		"LINUX_FINAL_PATCH_DEPENDENCIES", "LINUX_FINAL_DEPENDENCIES", "LINUX_POST_PATCH_HOOKS", "LINUX_POST_RSYNC_HOOKS",
		"BOARDC_TUNE_KERNEL_FRAGMENT", "LINUX_DTBS", "HOST_BOARDC_LDFLAGS", "BR_NO_CHECK_HASH_FOR",
		"BOARDC_TUNE_LICENSE_FILES", "BOARDC_TUNE_POST_BUILD_HOOKS", "HOST_GO_DEPENDENCIES")
	ext, _ := filepath.Abs(brTree)
	top, _ := filepath.Abs(root)
	for k, want := range map[string]string{
		"HOST_BOARDC_GOMOD":                 goModule(t),
		"HOST_BOARDC_INSTALL_BINS":          "boardc",
		"HOST_BOARDC_DOWNLOAD_POST_PROCESS": "go",
		"HOST_BOARDC_SITE_METHOD":           "git",
		"HOST_BOARDC_VERSION":               rev,
		"HOST_BOARDC_LICENSE_FILES":         "LICENSE",
		"HOST_BOARDC_HASH_FILES":            filepath.Join(ext, "package", "boardc", "boardc.hash"),
		"LINUX_FINAL_PATCH_DEPENDENCIES":    "",
		"HOST_BOARDC_LDFLAGS":               "-X main.version=" + rev,
		"BOARDC_TUNE_LICENSE_FILES":         "boardc-licenses/GPL-2.0-or-later boardc-licenses/MIT",
		"BOARDC_TUNE_POST_BUILD_HOOKS":      "BOARDC_TUNE_CHECK_ETHTOOL",
	} {
		if v[k] != want {
			t.Errorf("%s = %q, want %q", k, v[k], want)
		}
	}
	if filepath.Clean(v["HOST_BOARDC_SITE"]) != top {
		t.Errorf("HOST_BOARDC_SITE = %q, want the checkout %s", v["HOST_BOARDC_SITE"], top)
	}
	if filepath.Clean(v["BOARDC_TUNE_SITE"]) != filepath.Join(top, "boards") {
		t.Errorf("BOARDC_TUNE_SITE = %q, want %s", v["BOARDC_TUNE_SITE"], filepath.Join(top, "boards"))
	}
	for k, want := range map[string]string{
		"BOARDC_TUNE_BUILD_CMDS":           "boardc build --werror -q -o " + filepath.Join(o, "build", "boardc-tune-custom", "boardc-out") + " ./espressobin",
		"BOARDC_TUNE_INSTALL_TARGET_CMDS":  "boardc-tune-install " + filepath.Join(o, "build", "boardc-tune-custom", "boardc-out") + " " + filepath.Join(o, "target") + " files",
		"BOARDC_TUNE_INSTALL_INIT_SYSV":    " " + filepath.Join(o, "target") + " sysv",
		"BOARDC_TUNE_INSTALL_INIT_SYSTEMD": " " + filepath.Join(o, "target") + " systemd",
		"BOARDC_TUNE_FINAL_DEPENDENCIES":   "host-boardc host-skeleton skeleton",
		"LINUX_FINAL_DEPENDENCIES":         "boardc-tune ",
		"LINUX_POST_PATCH_HOOKS":           "BOARDC_TUNE_KERNEL_FRAGMENT",
		"LINUX_POST_RSYNC_HOOKS":           "BOARDC_TUNE_KERNEL_FRAGMENT",
		"HOST_GO_DEPENDENCIES":             "host-go-",
	} {
		if !strings.Contains(v[k], want) {
			t.Errorf("%s = %q, want it to contain %q", k, v[k], want)
		}
	}
	for _, d := range espressobinDTS {
		want := filepath.Join(o, "build", "linux-") // the version is the defconfig's
		dts := "/arch/arm64/boot/dts/" + d + ".dts"
		if !strings.Contains(v["BOARDC_TUNE_KERNEL_FRAGMENT"], dts) || !strings.Contains(v["BOARDC_TUNE_KERNEL_FRAGMENT"], want) {
			t.Errorf("BOARDC_TUNE_KERNEL_FRAGMENT does not include the fragment in %s:\n%s", d, v["BOARDC_TUNE_KERNEL_FRAGMENT"])
		}
	}
	if strings.Contains(v["LINUX_DTBS"], "boardc") || strings.Contains(v["BOARDC_TUNE_KERNEL_FRAGMENT"], "--overlay") {
		t.Errorf("the include route builds an overlay: LINUX_DTBS = %q", v["LINUX_DTBS"])
	}
	if strings.Contains(v["BR_NO_CHECK_HASH_FOR"], "boardc") {
		t.Errorf("BR_NO_CHECK_HASH_FOR = %q: boardc's archive goes unchecked", v["BR_NO_CHECK_HASH_FOR"])
	}
	if strings.Contains(v["BOARDC_TUNE_FINAL_DEPENDENCIES"], "toolchain") || strings.Contains(v["BOARDC_TUNE_FINAL_DEPENDENCIES"], "jq") {
		t.Errorf("BOARDC_TUNE_FINAL_DEPENDENCIES = %q", v["BOARDC_TUNE_FINAL_DEPENDENCIES"])
	}
	if !strings.Contains(cfg, "\nBR2_PACKAGE_HOST_GO=y\n") {
		t.Error("host boardc does not select BR2_PACKAGE_HOST_GO")
	}
}

// TestBuildrootOverlay configures the ESPRESSObin with the overlay route:
// the kernel builds marvell/boardc-espressobin.dtbo beside the five
// device trees, with symbols in them.
func TestBuildrootOverlay(t *testing.T) {
	br := buildroot(t)
	o := brConfigure(t, br, "globalscale_espressobin_defconfig",
		"BR2_PACKAGE_HOST_BOARDC=y",
		`BR2_PACKAGE_HOST_BOARDC_VERSION="v0.1.0"`,
		"BR2_PACKAGE_BOARDC_TUNE=y",
		`BR2_PACKAGE_BOARDC_TUNE_BOARD="espressobin"`,
		"BR2_LINUX_KERNEL_EXT_BOARDC_TUNE=y",
		"BR2_LINUX_KERNEL_EXT_BOARDC_TUNE_OVERLAY=y",
	)
	if !strings.Contains(readFile(t, filepath.Join(o, ".config")), "\nBR2_LINUX_KERNEL_DTB_OVERLAY_SUPPORT=y\n") {
		t.Error("the overlay route does not select BR2_LINUX_KERNEL_DTB_OVERLAY_SUPPORT")
	}
	v := printvars(t, br, o, "LINUX_DTBS", "BOARDC_TUNE_KERNEL_FRAGMENT", "LINUX_MAKE_ENV")
	want := "marvell/armada-3720-espressobin.dtb marvell/armada-3720-espressobin-emmc.dtb marvell/armada-3720-espressobin-v7.dtb " +
		"marvell/armada-3720-espressobin-v7-emmc.dtb marvell/armada-3720-espressobin-ultra.dtb marvell/boardc-espressobin.dtbo"
	if strings.Join(strings.Fields(v["LINUX_DTBS"]), " ") != want {
		t.Errorf("LINUX_DTBS = %q, want %q", v["LINUX_DTBS"], want)
	}
	if f := v["BOARDC_TUNE_KERNEL_FRAGMENT"]; !strings.Contains(f, "boardc-tune-dts --overlay ") ||
		!strings.HasSuffix(f, "/arch/arm64/boot/dts/marvell/boardc-espressobin.dtso") {
		t.Errorf("BOARDC_TUNE_KERNEL_FRAGMENT = %q", f)
	}
	if !strings.Contains(v["LINUX_MAKE_ENV"], "DTC_FLAGS=-@") {
		t.Errorf("LINUX_MAKE_ENV = %q: the DTBs are built without symbols", v["LINUX_MAKE_ENV"])
	}
}

// TestBuildrootOtherBoard configures QEMU's aarch64 virt defconfig with
// boards/qemu-virt and systemd: nothing of the ESPRESSObin remains, and
// without device trees the kernel extension cannot be chosen.
func TestBuildrootOtherBoard(t *testing.T) {
	br := buildroot(t)
	o := brConfigure(t, br, "qemu_aarch64_virt_defconfig",
		"BR2_PACKAGE_HOST_BOARDC=y",
		`BR2_PACKAGE_HOST_BOARDC_VERSION="v0.1.0"`,
		"BR2_PACKAGE_BOARDC_TUNE=y",
		`BR2_PACKAGE_BOARDC_TUNE_BOARD="qemu-virt"`,
		"BR2_LINUX_KERNEL_EXT_BOARDC_TUNE=y",
	)
	if strings.Contains(readFile(t, filepath.Join(o, ".config")), "\nBR2_LINUX_KERNEL_EXT_BOARDC_TUNE=y\n") {
		t.Error("the kernel extension was accepted without BR2_LINUX_KERNEL_DTS_SUPPORT")
	}
	v := printvars(t, br, o, "BOARDC_TUNE_BUILD_CMDS", "LINUX_FINAL_PATCH_DEPENDENCIES", "HOST_BOARDC_SOURCE")
	if !strings.Contains(v["BOARDC_TUNE_BUILD_CMDS"], " ./qemu-virt") || strings.Contains(v["BOARDC_TUNE_BUILD_CMDS"], "espressobin") {
		t.Errorf("BOARDC_TUNE_BUILD_CMDS = %q, want the qemu-virt board only", v["BOARDC_TUNE_BUILD_CMDS"])
	}
	if strings.Contains(v["LINUX_FINAL_PATCH_DEPENDENCIES"], "boardc-tune") {
		t.Errorf("LINUX_FINAL_PATCH_DEPENDENCIES = %q without the extension", v["LINUX_FINAL_PATCH_DEPENDENCIES"])
	}
	if v["HOST_BOARDC_SOURCE"] != "boardc-v0.1.0-git4-go2.tar.gz" {
		t.Errorf("HOST_BOARDC_SOURCE = %q, want Buildroot's vendored git archive", v["HOST_BOARDC_SOURCE"])
	}

	// qemu-virt's tune.sh sets eth0's queue counts with ethtool: without
	// BR2_PACKAGE_ETHTOOL the build step's check stops the build, on its
	// outputs only.
	hook := printvars(t, br, o, "BOARDC_TUNE_CHECK_ETHTOOL", "BOARDC_TUNE_OUTDIR")
	if hook["BOARDC_TUNE_CHECK_ETHTOOL"] == "" {
		t.Fatal("no ethtool check without BR2_PACKAGE_ETHTOOL")
	}
	for board, fails := range map[string]bool{"qemu-virt": true, "espressobin": false, "ls2088a-rdb": false} {
		out, _ := boardOutput(t, board)
		cmd := exec.Command("sh", "-c", strings.ReplaceAll(hook["BOARDC_TUNE_CHECK_ETHTOOL"], hook["BOARDC_TUNE_OUTDIR"], out))
		msg, err := cmd.CombinedOutput()
		want := ""
		if fails {
			want = "boardc-tune: board qemu-virt: tune.sh sets network queue counts with ethtool: enable BR2_PACKAGE_ETHTOOL\n"
		}
		if (err != nil) != fails || string(msg) != want {
			t.Errorf("%s: the ethtool check: %v %q, want %q", board, err, msg, want)
		}
	}
	o = brConfigure(t, br, "qemu_aarch64_virt_defconfig",
		"BR2_PACKAGE_HOST_BOARDC=y", `BR2_PACKAGE_HOST_BOARDC_VERSION="v0.1.0"`,
		"BR2_PACKAGE_BOARDC_TUNE=y", `BR2_PACKAGE_BOARDC_TUNE_BOARD="qemu-virt"`, "BR2_PACKAGE_ETHTOOL=y")
	if h := printvars(t, br, o, "BOARDC_TUNE_POST_BUILD_HOOKS")["BOARDC_TUNE_POST_BUILD_HOOKS"]; h != "" {
		t.Errorf("with ethtool: BOARDC_TUNE_POST_BUILD_HOOKS = %q", h)
	}
}

// TestBuildrootNothingEnabled includes the external tree in a
// configuration that enables none of its packages: Buildroot must parse
// it (a $(error) in a package's .mk, or a local package without a site,
// would stop every build).
func TestBuildrootNothingEnabled(t *testing.T) {
	br := buildroot(t)
	o := brConfigure(t, br, "qemu_aarch64_virt_defconfig")
	v := printvars(t, br, o, "HOST_BOARDC_GOMOD", "BOARDC_TUNE_SITE_METHOD", "LINUX_FINAL_PATCH_DEPENDENCIES")
	if v["HOST_BOARDC_GOMOD"] != goModule(t) || v["BOARDC_TUNE_SITE_METHOD"] != "local" {
		t.Errorf("printvars: %v", v)
	}
	if strings.Contains(v["LINUX_FINAL_PATCH_DEPENDENCIES"], "boardc") {
		t.Errorf("LINUX_FINAL_PATCH_DEPENDENCIES = %q with nothing enabled", v["LINUX_FINAL_PATCH_DEPENDENCIES"])
	}
}

// TestBuildrootRefusesUnset checks the errors of a configuration that
// enables the packages without saying what to build.
func TestBuildrootRefusesUnset(t *testing.T) {
	br := buildroot(t)
	for _, c := range []struct {
		extra []string
		want  string
	}{
		{[]string{"BR2_PACKAGE_HOST_BOARDC=y"},
			"BR2_PACKAGE_HOST_BOARDC_VERSION is empty: set it to the boardc tag or commit to build"},
		{[]string{"BR2_PACKAGE_HOST_BOARDC=y", `BR2_PACKAGE_HOST_BOARDC_VERSION="v0.1.0"`, "BR2_PACKAGE_BOARDC_TUNE=y"},
			"BR2_PACKAGE_BOARDC_TUNE_BOARD is empty: set it to the board directory in "},
	} {
		o := brConfigure(t, br, "qemu_aarch64_virt_defconfig", c.extra...)
		cmd := exec.Command("make", "-s", "O="+o, "-n", "host-boardc")
		cmd.Dir = br
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.want) {
			t.Errorf("%v: make host-boardc: %v\n%s\nwant the error %q", c.extra, err, out, c.want)
		}
	}
}

// TestBuildrootCheckPackage runs Buildroot's utils/check-package on every
// file of the external tree.
func TestBuildrootCheckPackage(t *testing.T) {
	br := buildroot(t)
	testtool.Look(t, "shellcheck", "shellcheck")
	py := ""
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(p, "-c", "import magic, flake8").Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		testtool.Missing(t, "no python3 with the magic and flake8 modules (check-package needs them)", "python3-magic python3-flake8")
	}
	var files []string
	err := filepath.Walk(brTree, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && fi.Name() != "README.md" {
			files = append(files, strings.TrimPrefix(p, brTree+string(filepath.Separator)))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 12 {
		t.Fatalf("found %d files in the tree: %v", len(files), files)
	}
	out := run(t, brTree, nil, py, append([]string{filepath.Join(br, "utils", "check-package"), "-b"}, files...)...)
	if !strings.Contains(out, "\n0 warnings generated\n") {
		t.Errorf("check-package:\n%s", out)
	}
	t.Logf("check-package on %d files: %s", len(files), strings.TrimSpace(out))

	// legal-info checks the licence file against the .hash this way.
	lic, _ := filepath.Abs(filepath.Join(root, "LICENSE"))
	hash, _ := filepath.Abs(filepath.Join(brTree, "package", "boardc", "boardc.hash"))
	run(t, br, nil, filepath.Join(br, "support", "download", "check-hash"), lic, "LICENSE", hash)
	// And boardc-tune's licence texts, as legal-info finds them in the
	// package's source (boardc-licenses/).
	tuneHash, _ := filepath.Abs(filepath.Join(brTree, "package", "boardc-tune", "boardc-tune.hash"))
	for _, f := range []string{"GPL-2.0-or-later", "MIT"} {
		text, _ := filepath.Abs(filepath.Join(brTree, "package", "boardc-tune", "licenses", f))
		run(t, br, nil, filepath.Join(br, "support", "download", "check-hash"), text, "boardc-licenses/"+f, tuneHash)
	}
}

// TestBuildrootDownloadVendors runs Buildroot's download of host-boardc
// as pkg-generic.mk calls it (support/download/dl-wrapper, the git
// backend on this checkout's HEAD, then the go post-process), and checks
// that the archive it makes holds boardc with its modules vendored: the
// go tool then resolves every package of cmd/boardc with GOPROXY=off and
// -mod=vendor, as Buildroot's build step runs it. Buildroot's GOPROXY is
// direct (each module's own repository); here the local module cache
// and the Go proxy stand in for it.
func TestBuildrootDownloadVendors(t *testing.T) {
	br := buildroot(t)
	gobin := testtool.Look(t, "go", "golang-go")
	testtool.Look(t, "git", "git")
	revb, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	rev := strings.TrimSpace(string(revb))
	dl := t.TempDir()
	archive := boardcDownload(t, br, gobin, dl, rev)

	src := filepath.Join(dl, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, ".", nil, "tar", "-C", src, "--strip-components=1", "-xzf", archive)
	for _, f := range []string{"LICENSE", "go.mod", "vendor/modules.txt", "cmd/boardc"} {
		if _, err := os.Stat(filepath.Join(src, f)); err != nil {
			t.Errorf("the download lacks %s: %v", f, err)
		}
	}
	out := run(t, src, []string{"GOFLAGS=-mod=vendor", "GOPROXY=off", "GOTOOLCHAIN=local",
		"GOMODCACHE=" + filepath.Join(dl, "empty")}, gobin, "list", "-deps", goModule(t)+"/cmd/boardc")
	if !strings.Contains(out, "cuelang.org/go/cue\n") {
		t.Errorf("go list -deps from the vendored download does not reach cuelang.org/go/cue:\n%s", out)
	}
}
