package integrations

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// yocto is the layer, relative to this package.
var yocto = filepath.Join("meta-boardc")

// yoctoRecipes are the layer's recipes and classes, for the text checks.
var yoctoRecipes = []string{
	"recipes-devtools/boardc/boardc_0.1.0.bb",
	"recipes-devtools/boardc/boardc-source.inc",
	"recipes-devtools/boardc/boardc-board.inc",
	"recipes-bsp/boardc-tune/boardc-tune.bb",
	"recipes-bsp/boardc-dtbo/boardc-dtbo.bb",
	"classes/boardc.bbclass",
	"classes/boardc-kernel.bbclass",
}

// TestYoctoLayerText checks the layer against oe-core's conventions
// where bitbake is not at hand: a layer.conf naming release series that
// ship Go 1.26, in a directory named meta-boardc; boardc built from the
// commit checked out beside the layer (no pinned commit), with that
// commit linked in as its version; no AUTOREV, no CLOSED licence, the
// tuning packaged per machine with no default dependencies, and
// KERNEL_DEVICETREE with every ESPRESSObin device tree.
func TestYoctoLayerText(t *testing.T) {
	layer := readFile(t, filepath.Join(yocto, "conf", "layer.conf"))
	m := regexp.MustCompile(`(?m)^LAYERSERIES_COMPAT_boardc = "([a-z ]+)"$`).FindStringSubmatch(layer)
	if m == nil || m[1] != "wrynose blacksail" {
		t.Errorf("layer.conf: LAYERSERIES_COMPAT_boardc = %v, want \"wrynose blacksail\" (the series whose Go is 1.26)", m)
	}
	for _, want := range []string{`BBFILE_COLLECTIONS += "boardc"`, `LAYERDEPENDS_boardc = "core"`, `BBFILE_PATTERN_boardc = "^${LAYERDIR}/"`} {
		if !strings.Contains(layer, want+"\n") {
			t.Errorf("layer.conf lacks %s", want)
		}
	}

	for _, f := range yoctoRecipes {
		text := readFile(t, filepath.Join(yocto, f))
		for _, bad := range []string{"AUTOREV", `"CLOSED"`} {
			if strings.Contains(text, bad) {
				t.Errorf("%s uses %s", f, bad)
			}
		}
	}

	// The layer builds the commit checked out beside it: no pinned
	// commit to drift from the code (TestYoctoBitbakeParse checks the
	// value bitbake gives it).
	src := readFile(t, filepath.Join(yocto, "recipes-devtools", "boardc", "boardc-source.inc"))
	if !strings.Contains(src, "\nBOARDC_SRCREV ?= \"${@boardc_checkout_rev(d)}\"\n") {
		t.Error("boardc-source.inc: BOARDC_SRCREV does not default to the checkout's commit")
	}
	for _, f := range append(yoctoRecipes, "conf/layer.conf") {
		if m := regexp.MustCompile(`(?m)^[A-Z_a-z]*SRCREV[A-Za-z_:]* \??= "[0-9a-f]{40}"`).FindString(readFile(t, filepath.Join(yocto, f))); m != "" {
			t.Errorf("%s pins a commit: %s", f, m)
		}
	}
	if filepath.Base(yocto) != "meta-boardc" {
		t.Errorf("the layer's directory is %s: bitbake-layers names a layer after it", yocto)
	}
	if !strings.Contains(readFile(t, filepath.Join(yocto, "recipes-devtools", "boardc", "boardc_0.1.0.bb")), "\nGO_EXTRA_LDFLAGS:append = \" -X main.version=${SRCREV}\"\n") {
		t.Error("boardc_0.1.0.bb does not link the commit in as boardc's version")
	}

	tune := readFile(t, filepath.Join(yocto, "recipes-bsp", "boardc-tune", "boardc-tune.bb"))
	for _, want := range []string{
		`PACKAGE_ARCH = "${MACHINE_ARCH}"`,
		`SYSTEMD_SERVICE:${PN} = "boardc-tune-${BOARDC_BOARD}.service"`,
		`INITSCRIPT_NAME = "boardc-tune-${BOARDC_BOARD}"`,
		`INITSCRIPT_PARAMS = "start 40 S . stop 20 0 6 ."`,
		`PACKAGESPLITFUNCS =+ "boardc_tune_init_packages"`,
		"inherit systemd update-rc.d",
		"json.load(f)",
		`INHIBIT_DEFAULT_DEPS = "1"`,
	} {
		if !strings.Contains(tune, want) {
			t.Errorf("boardc-tune.bb lacks %s", want)
		}
	}
	dtbo := readFile(t, filepath.Join(yocto, "recipes-bsp", "boardc-dtbo", "boardc-dtbo.bb"))
	for _, want := range []string{"inherit devicetree", `DT_FILES = "${BOARDC_BOARD}.dtso"`} {
		if !strings.Contains(dtbo, want) {
			t.Errorf("boardc-dtbo.bb lacks %s", want)
		}
	}

	inc := readFile(t, filepath.Join(yocto, "conf", "machine", "include", "boardc-espressobin.inc"))
	for _, d := range espressobinDTS {
		if !strings.Contains(inc, " "+d+".dtb \\\n") {
			t.Errorf("boardc-espressobin.inc: KERNEL_DEVICETREE lacks %s.dtb", d)
		}
	}
	for _, dir := range inTreeBoards(t) {
		b := compiledBoard(t, dir)
		p := filepath.Join(yocto, "conf", "machine", "include", "boardc-"+b.Name+".inc")
		text := readFile(t, p)
		if !strings.Contains(text, `BOARDC_BOARD = "`+b.Name+`"`) {
			t.Errorf("%s does not name the board %s", p, b.Name)
		}
		// boardc-tune for the boards with runtime tuning only.
		out, _ := boardOutput(t, dir)
		tunes := manifestFiles(t, out, b.Name)["tune.sh"]
		if rec := strings.Contains(text, "\nMACHINE_EXTRA_RRECOMMENDS += \"boardc-tune\"\n"); rec != tunes {
			t.Errorf("%s: recommends boardc-tune: %v, but board %s produces tune.sh: %v", p, rec, b.Name, tunes)
		}
		if b.DTS != "" {
			m := kernelDTS.FindStringSubmatch(b.DTS)
			if m == nil {
				t.Fatalf("%s: dts %q is not arch/<arch>/boot/dts/...", b.Name, b.DTS)
			}
			if dtb := m[1] + ".dtb"; !strings.Contains(text, dtb) {
				t.Errorf("%s: KERNEL_DEVICETREE lacks the board's %s", p, dtb)
			}
		}
	}
}

// kernelDTS takes the path of a kernel device tree below arch/<arch>/boot/dts/.
var kernelDTS = regexp.MustCompile(`^arch/[^/]+/boot/dts/(.+)\.dts$`)
