package integrations

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tuneFiles says which of the tuning emitter's files a board produces
// (boards/*/expected/, outputs/tune Emit).
type tuneFiles struct {
	tune     bool // tune.sh, its boot unit and init scripts
	sysctl   bool // sysctl.d/90-boardc-<board>.conf
	iface    bool // the per-interface and per-master template unit and udev rule
	policy   bool // the irqbalance drop-in and policy script
	env      bool // irqbalance.env (isolated CPUs)
	cmdline  bool // cmdline.txt (isolated CPUs), never installed
	testCase string
}

// tuneBoards is what every in-tree board produces, and one compiler test
// case with isolated CPUs, the only kind of board with irqbalance.env and
// cmdline.txt.
var tuneBoards = map[string]tuneFiles{
	"espressobin":     {tune: true, sysctl: true, iface: true, policy: true},
	"ls2088a-rdb":     {tune: true, iface: true, policy: true},
	"mirabox":         {}, // one CPU: nothing to tune
	"qemu-virt":       {tune: true, sysctl: true, iface: true, policy: true},
	"policy-isolated": {tune: true, iface: true, policy: true, env: true, cmdline: true, testCase: "policy-isolated"},
}

// tuneBoardDirs returns the board directories of tuneBoards, failing
// the test when the in-tree boards are not the table's.
func tuneBoardDirs(t *testing.T) map[string]string {
	t.Helper()
	dirs := map[string]string{}
	for _, b := range inTreeBoards(t) {
		if _, ok := tuneBoards[b]; !ok {
			t.Fatalf("in-tree board %s is not in tuneBoards: add what it produces", b)
		}
		dirs[b] = filepath.Join(root, "boards", b)
	}
	for b, tf := range tuneBoards {
		if tf.testCase != "" {
			dirs[b] = filepath.Join(root, "testdata", "cases", tf.testCase)
		} else if dirs[b] == "" {
			t.Fatalf("tuneBoards names %s, which is not an in-tree board", b)
		}
	}
	return dirs
}

// checkTuneFiles fails the test when the board's manifest does not list
// exactly the tuning files tf says it has.
func checkTuneFiles(t *testing.T, name string, tf tuneFiles, files map[string]bool) {
	t.Helper()
	for f, want := range map[string]bool{
		"tune.sh":                                          tf.tune,
		"boardc-tune-" + name + ".service":                 tf.tune,
		"init.d/S40boardc-tune-" + name:                    tf.tune,
		"sysctl.d/90-boardc-" + name + ".conf":             tf.sysctl,
		"boardc-tune-" + name + "@.service":                tf.iface,
		"udev/90-boardc-" + name + ".rules":                tf.iface,
		"irqbalance.service.d/90-boardc-" + name + ".conf": tf.policy,
		"irqbalance-policy.sh":                             tf.policy,
		"irqbalance.env":                                   tf.env,
		"cmdline.txt":                                      tf.cmdline,
	} {
		if files[f] != want {
			t.Errorf("board %s: produces %s: %v, tuneBoards says %v", name, f, files[f], want)
		}
	}
}

// tuneLayout is where an integration puts the files.
type tuneLayout struct {
	initScript func(board string) string // the S-script, under DESTDIR
}

var (
	buildrootLayout = tuneLayout{func(b string) string { return "etc/init.d/S40boardc-tune-" + b }}
	yoctoLayout     = tuneLayout{func(b string) string { return "etc/init.d/boardc-tune-" + b }}
)

// installedFile is one file an integration installs: its path under
// DESTDIR, its mode, and the generated file it is a copy of.
type installedFile struct {
	path, mode, src string
}

// wantTune returns what an integration installs for a board, for the
// parts "files" (init-independent), "sysv" and "systemd".
func wantTune(l tuneLayout, name string, tf tuneFiles, part string) []installedFile {
	if !tf.tune {
		return nil
	}
	const x, r = "-rwxr-xr-x", "-rw-r--r--"
	lib := "usr/libexec/boardc/"
	var w []installedFile
	switch part {
	case "files":
		w = append(w, installedFile{lib + name + "/tune.sh", x, "tune.sh"})
		if tf.sysctl {
			f := "sysctl.d/90-boardc-" + name + ".conf"
			w = append(w, installedFile{"usr/lib/" + f, r, f})
		}
	case "sysv":
		w = append(w, installedFile{l.initScript(name), x, "init.d/S40boardc-tune-" + name})
	case "systemd":
		unit := "boardc-tune-" + name + ".service"
		w = append(w, installedFile{"usr/lib/systemd/system/" + unit, r, unit})
		if tf.iface {
			tmpl := "boardc-tune-" + name + "@.service"
			rule := "90-boardc-" + name + ".rules"
			w = append(w, installedFile{"usr/lib/systemd/system/" + tmpl, r, tmpl},
				installedFile{"usr/lib/udev/rules.d/" + rule, r, "udev/" + rule})
		}
		if tf.policy {
			f := "irqbalance.service.d/90-boardc-" + name + ".conf"
			w = append(w, installedFile{"etc/systemd/system/" + f, r, f},
				installedFile{lib + "irqbalance.d/boardc-" + name, x, "irqbalance-policy.sh"})
		}
		if tf.env {
			w = append(w, installedFile{lib + name + "/irqbalance.env", r, "irqbalance.env"})
		}
	}
	return w
}

// checkInstalled fails the test unless dest holds exactly the files of
// want, with their modes, each a copy of the generated file.
func checkInstalled(t *testing.T, what, dest, gen string, want []installedFile) {
	t.Helper()
	var ws []string
	for _, f := range want {
		ws = append(ws, f.path+" "+f.mode)
	}
	sort.Strings(ws)
	if d := cmp.Diff(ws, installed(t, dest)); d != "" {
		t.Errorf("%s: installed files (-want +got):\n%s", what, d)
		return
	}
	for _, f := range want {
		if readFile(t, filepath.Join(dest, f.path)) != readFile(t, filepath.Join(gen, f.src)) {
			t.Errorf("%s: %s is not the board's %s", what, f.path, f.src)
		}
	}
}

// libexecRef and unitRef find what an installed file refers to: a path
// below /usr/libexec/boardc (tune.sh, the policy directory, the
// irqbalance environment) and a unit of the board (After=, the udev
// rule's SYSTEMD_WANTS).
var (
	libexecRef = regexp.MustCompile(`/usr/libexec/boardc/[A-Za-z0-9._@/-]*[A-Za-z0-9_@-]`)
	unitRef    = regexp.MustCompile(`boardc-tune-[A-Za-z0-9._-]+?(@[^ .]*)?\.service`)
)

// checkRefs fails the test when a file installed in dest uses a path or
// unit that is not installed there: the files must land where the
// generated ones expect each other. Comment lines are not read: they say
// where to install a file, or mention a unit the board may not have; nor
// is tune.sh's policy_script= line, a path it only probes for (the policy
// script is there where the irqbalance drop-in is installed, and tune.sh
// then does not warn about irqbalance). It returns how many references
// it followed.
func checkRefs(t *testing.T, what, dest string) int {
	t.Helper()
	n := 0
	for _, e := range installed(t, dest) {
		rel := strings.Fields(e)[0]
		var lines []string
		for _, l := range strings.Split(readFile(t, filepath.Join(dest, rel)), "\n") {
			if l := strings.TrimSpace(l); !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "policy_script=") {
				lines = append(lines, l)
			}
		}
		text := strings.Join(lines, "\n")
		for _, ref := range libexecRef.FindAllString(text, -1) {
			n++
			if _, err := os.Stat(filepath.Join(dest, ref)); err != nil {
				t.Errorf("%s: %s refers to %s, which is not installed", what, rel, ref)
			}
		}
		for _, m := range unitRef.FindAllStringSubmatch(text, -1) {
			unit := m[0]
			if m[1] != "" {
				unit = strings.Replace(unit, m[1], "@", 1)
			}
			n++
			if _, err := os.Stat(filepath.Join(dest, "usr/lib/systemd/system", unit)); err != nil {
				t.Errorf("%s: %s refers to %s, which is not installed", what, rel, m[0])
			}
		}
	}
	return n
}
