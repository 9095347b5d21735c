package integrations

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"boardc.dev/boardc/internal/testtool"
)

// bitbakeEnv sets up a build directory with oe-core (BOARDC_OECORE), the
// layer and a test layer holding a machine that requires
// boardc-espressobin.inc and a linux-yocto bbappend inheriting
// boardc-kernel. It skips when BOARDC_OECORE or BOARDC_BITBAKE is not
// set. It returns the build directory and the environment to run
// bitbake in.
func bitbakeEnv(t *testing.T) (string, []string) {
	t.Helper()
	core, bb := os.Getenv("BOARDC_OECORE"), os.Getenv("BOARDC_BITBAKE")
	if core == "" || bb == "" {
		t.Skip("BOARDC_OECORE and BOARDC_BITBAKE are not set: set them to openembedded-core and bitbake " +
			"source trees to parse the layer with bitbake")
	}
	if _, err := os.Stat(filepath.Join(core, "meta", "conf", "layer.conf")); err != nil {
		t.Fatalf("BOARDC_OECORE=%s is not openembedded-core: %v", core, err)
	}
	if _, err := os.Stat(filepath.Join(bb, "bin", "bitbake")); err != nil {
		t.Fatalf("BOARDC_BITBAKE=%s is not bitbake: %v", bb, err)
	}
	testtool.Look(t, "python3", "python3")
	layer, err := filepath.Abs(yocto)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	files := map[string]string{
		"testlayer/conf/layer.conf": `BBPATH .= ":${LAYERDIR}"
BBFILES += "${LAYERDIR}/recipes-*/*/*.bbappend"
BBFILE_COLLECTIONS += "boardctest"
BBFILE_PATTERN_boardctest = "^${LAYERDIR}/"
LAYERSERIES_COMPAT_boardctest = "wrynose blacksail"
`,
		"testlayer/conf/machine/boardc-test.conf": `require conf/machine/include/arm/armv8a/tune-cortexa53.inc
require conf/machine/include/boardc-espressobin.inc
PREFERRED_PROVIDER_virtual/kernel = "linux-yocto"
COMPATIBLE_MACHINE:pn-linux-yocto = "boardc-test"
KMACHINE = "qemuarm64"
`,
		"testlayer/recipes-kernel/linux/linux-yocto_%.bbappend": "inherit boardc-kernel\n",
		"build/conf/bblayers.conf": `BBPATH = "${TOPDIR}"
BBFILES ?= ""
BBLAYERS = "` + filepath.Join(core, "meta") + " " + layer + " " + filepath.Join(tmp, "testlayer") + `"
`,
		// Parse only: no sanity checks (they refuse root and want every
		// build tool). Every oe-core recipe is parsed with the layer.
		"build/conf/local.conf": `MACHINE = "boardc-test"
DISTRO = "nodistro"
DISTRO_FEATURES:append = " systemd sysvinit"
INHERIT:remove = "sanity"
HOSTTOOLS:remove = "` + strings.Join(missingHostTools(t, core), " ") + `"
`,
	}
	for name, text := range files {
		p := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	build := filepath.Join(tmp, "build")
	env := []string{
		"PATH=" + filepath.Join(bb, "bin") + ":" + os.Getenv("PATH"),
		"BBPATH=" + build,
		"LANG=en_US.UTF-8",
	}
	// bitbake insists on en_US.UTF-8: make one where the system has none.
	if exec.Command("python3", "-c", "import locale; locale.setlocale(locale.LC_CTYPE, ('en_US', 'UTF-8'))").Run() != nil {
		loc := filepath.Join(tmp, "locale")
		if err := os.MkdirAll(loc, 0o755); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("localedef", "-i", "en_US", "-f", "UTF-8", filepath.Join(loc, "en_US.UTF-8")).CombinedOutput(); err != nil {
			testtool.Missing(t, "no en_US.UTF-8 locale for bitbake and localedef cannot make one ("+strings.TrimSpace(string(out))+")", "locales")
		}
		env = append(env, "LOCPATH="+loc, "BB_ENV_PASSTHROUGH_ADDITIONS=LOCPATH")
	}
	return build, env
}

// missingHostTools lists oe-core's HOSTTOOLS (meta/conf/bitbake.conf)
// that are not installed: a parse does not run them.
func missingHostTools(t *testing.T, core string) []string {
	t.Helper()
	conf := readFile(t, filepath.Join(core, "meta", "conf", "bitbake.conf"))
	var missing []string
	for _, m := range regexp.MustCompile(`(?ms)^HOSTTOOLS \+?= "(.*?)"`).FindAllStringSubmatch(conf, -1) {
		for _, tool := range strings.Fields(strings.ReplaceAll(m[1], "\\\n", " ")) {
			if strings.ContainsAny(tool, "${}'") {
				continue
			}
			if _, err := exec.LookPath(tool); err != nil {
				missing = append(missing, tool)
			}
		}
	}
	return missing
}

// getvar returns the value bitbake gives a recipe's variable; -q keeps
// the server's messages (such as "Bitbake still alive" during a long
// parse) out of the value.
func getvar(t *testing.T, build string, env []string, recipe, v string) string {
	t.Helper()
	return strings.TrimSpace(run(t, build, env, filepath.Join(os.Getenv("BOARDC_BITBAKE"), "bin", "bitbake-getvar"), "-q", "-r", recipe, "--value", v))
}

// TestYoctoBitbakeParse parses the layer with bitbake and every recipe
// of oe-core: no error and no warning, and the values the recipes must
// have for the ESPRESSObin machine.
func TestYoctoBitbakeParse(t *testing.T) {
	build, env := bitbakeEnv(t)
	out := run(t, build, env, filepath.Join(os.Getenv("BOARDC_BITBAKE"), "bin", "bitbake"), "-p")
	if !strings.Contains(out, " 0 errors.") || strings.Contains(out, "WARNING") || strings.Contains(out, "ERROR") {
		t.Errorf("bitbake -p:\n%s", out)
	}
	t.Log(out[strings.LastIndex(out, "Parsing of"):])

	srcURI := getvar(t, build, env, "boardc-native", "SRC_URI")
	mods := strings.Count(readFile(t, goModsInc), "gomod://")
	if n := strings.Count(srcURI, "gomod://"); n != mods || mods < 20 {
		t.Errorf("boardc-native fetches %d Go modules, boardc-go-mods.inc lists %d", n, mods)
	}
	top, _ := filepath.Abs(root)
	if !strings.HasPrefix(srcURI, "git://"+top+";protocol=file;nobranch=1;destsuffix=") {
		t.Errorf("boardc-native's SRC_URI starts %.80q, want the checkout %s", srcURI, top)
	}
	lic := []byte(readFile(t, filepath.Join(root, "LICENSE")))
	for recipe, want := range map[string]map[string]string{
		"boardc-native": {
			"GO_IMPORT": goModule(t),
		},
		"boardc-tune": {
			"PACKAGE_ARCH":                "boardc_test",
			"SYSTEMD_SERVICE:boardc-tune": "boardc-tune-espressobin.service",
			"INITSCRIPT_NAME":             "boardc-tune-espressobin",
			"INITSCRIPT_PARAMS":           "start 40 S . stop 20 0 6 .",
			"BOARDC_BOARDS":               "espressobin",
		},
		"boardc-dtbo": {
			"PACKAGE_ARCH": "boardc_test",
			"DT_FILES":     "espressobin.dtso",
		},
		"linux-yocto": {
			"BOARDC_KERNEL_DTS": strings.Join(espressobinDTS, " "),
			"KERNEL_DTC_FLAGS":  "-@",
		},
	} {
		for v, w := range want {
			if got := getvar(t, build, env, recipe, v); got != w {
				t.Errorf("%s: %s = %q, want %q", recipe, v, got, w)
			}
		}
	}
	// boardc-tune's packaging step runs before systemd.bbclass's and
	// update-rc.d.bbclass's, which it may tell there is nothing to enable.
	split := strings.Fields(getvar(t, build, env, "boardc-tune", "PACKAGESPLITFUNCS"))
	if len(split) < 3 || split[0] != "boardc_tune_init_packages" || !slices.Contains(split, "systemd_populate_packages") ||
		!slices.Contains(split, "populate_packages_updatercd") {
		t.Errorf("boardc-tune: PACKAGESPLITFUNCS = %q, want boardc_tune_init_packages before systemd_populate_packages and populate_packages_updatercd", split)
	}
	if got := getvar(t, build, env, "boardc-native", "LIC_FILES_CHKSUM"); !strings.Contains(got, "/LICENSE;md5="+md5Hex(lic)) {
		t.Errorf("boardc-native: LIC_FILES_CHKSUM lacks LICENSE's md5:\n%.200s", got)
	}
	if got := getvar(t, build, env, "linux-yocto", "SRC_URI"); !strings.Contains(got, "git://"+top+";protocol=file;nobranch=1;destsuffix=boardc;name=boardc") {
		t.Errorf("linux-yocto does not fetch the board module:\n%s", got)
	}

	// Every recipe builds the commit checked out beside the layer, and
	// boardc is linked with it as its version.
	head := strings.TrimSpace(run(t, root, nil, "git", "rev-parse", "HEAD"))
	for recipe, v := range map[string]string{"boardc-native": "SRCREV", "boardc-tune": "SRCREV", "boardc-dtbo": "SRCREV", "linux-yocto": "SRCREV_boardc"} {
		if got := getvar(t, build, env, recipe, v); got != head {
			t.Errorf("%s: %s = %q, want the checkout's HEAD %s", recipe, v, got, head)
		}
	}
	if got := getvar(t, build, env, "boardc-native", "GO_EXTRA_LDFLAGS"); !strings.Contains(got, "-X main.version="+head) {
		t.Errorf("boardc-native: GO_EXTRA_LDFLAGS = %q, want -X main.version=%s", got, head)
	}
	// boardc-tune compiles nothing: no cross compiler, no C library.
	if deps := strings.Fields(getvar(t, build, env, "boardc-tune", "DEPENDS")); !slices.Contains(deps, "boardc-native") ||
		slices.ContainsFunc(deps, func(d string) bool { return strings.HasPrefix(d, "virtual/") }) {
		t.Errorf("boardc-tune: DEPENDS = %q, want boardc-native and no virtual/ toolchain", deps)
	}
	// The kernel's sources are edited in its patch step, after do_boardc.
	if deps := getvarFlag(t, build, env, "linux-yocto", "do_boardc", "deps"); !strings.Contains(deps, "do_unpack") || strings.Contains(deps, "do_configure") {
		t.Errorf("linux-yocto: do_boardc[deps] = %q, want after do_unpack, not do_configure", deps)
	}
	if deps := getvarFlag(t, build, env, "linux-yocto", "do_patch", "deps"); !strings.Contains(deps, "do_boardc") {
		t.Errorf("linux-yocto: do_patch[deps] = %q, want do_boardc", deps)
	}
	if post := getvarFlag(t, build, env, "linux-yocto", "do_patch", "postfuncs"); !strings.Contains(post, "boardc_kernel_include") {
		t.Errorf("linux-yocto: do_patch[postfuncs] = %q", post)
	}
}

// getvarFlag returns the value bitbake gives a flag of a recipe's variable.
func getvarFlag(t *testing.T, build string, env []string, recipe, v, flag string) string {
	t.Helper()
	return strings.TrimSpace(run(t, build, env, filepath.Join(os.Getenv("BOARDC_BITBAKE"), "bin", "bitbake-getvar"), "-q", "-r", recipe, "-f", flag, "--value", v))
}
