package integrations

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// yocto is the layer, relative to this package.
var yocto = filepath.Join("yocto")

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
// ship Go 1.26, a pinned SRCREV of a commit of this repository whose
// go.mod, go.sum and LICENSE are the ones the recipe's checksums and
// module list were made from, no AUTOREV, no CLOSED licence, the tuning
// packaged per machine, and KERNEL_DEVICETREE with every ESPRESSObin
// device tree.
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

	src := readFile(t, filepath.Join(yocto, "recipes-devtools", "boardc", "boardc-source.inc"))
	m = regexp.MustCompile(`(?m)^BOARDC_SRCREV \?= "([0-9a-f]{40})"$`).FindStringSubmatch(src)
	if m == nil {
		t.Fatal("boardc-source.inc: BOARDC_SRCREV is not a full commit id")
	}
	rev := m[1]
	if _, err := exec.LookPath("git"); err != nil {
		t.Log("git not installed: the pinned commit is not checked")
	} else if out, err := exec.Command("git", "-C", root, "rev-parse", "--git-dir").Output(); err != nil || len(out) == 0 {
		t.Log("not a git checkout: the pinned commit is not checked")
	} else if exec.Command("git", "-C", root, "cat-file", "-e", rev+"^{commit}").Run() != nil &&
		isShallow() {
		t.Logf("BOARDC_SRCREV %s is not in this shallow clone: the pinned commit is not checked", rev[:12])
	} else {
		for _, f := range []string{"go.mod", "go.sum", "LICENSE"} {
			cmd := exec.Command("git", "-C", root, "show", rev+":"+f)
			at, err := cmd.Output()
			if err != nil {
				t.Errorf("BOARDC_SRCREV %s: no %s in it (%v): pin a commit of this repository", rev, f, err)
				continue
			}
			if string(at) != readFile(t, filepath.Join(root, f)) {
				t.Errorf("%s at BOARDC_SRCREV %s differs from the checkout's: pin the commit that changed it, and regenerate boardc-go-mods.inc", f, rev[:12])
			}
		}
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

// isShallow reports whether the checkout is a shallow clone.
func isShallow() bool {
	out, err := exec.Command("git", "-C", root, "rev-parse", "--is-shallow-repository").Output()
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// kernelDTS takes the path of a kernel device tree below arch/<arch>/boot/dts/.
var kernelDTS = regexp.MustCompile(`^arch/[^/]+/boot/dts/(.+)\.dts$`)
