package integrations

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc/internal/testtool"
)

// taskBody returns the body of the function that starts with the line
// head in a recipe or class: the lines up to the first "}" at column 0.
func taskBody(t *testing.T, file, head string) string {
	t.Helper()
	text := readFile(t, file)
	i := strings.Index(text, "\n"+head+"\n")
	if i < 0 {
		t.Fatalf("%s: no %q", file, head)
	}
	rest := text[i+len(head)+2:]
	j := strings.Index(rest, "\n}\n")
	if j < 0 {
		t.Fatalf("%s: %q does not end", file, head)
	}
	return rest[:j+1]
}

// The harness runs a bitbake python function body with a datastore of
// plain values (setVar records, expand replaces ${VAR}), bb.note
// printing "NOTE: " and its message, and bb.fatal printing its message
// and exiting 1; then it prints the variables the function set, as JSON.
const pyHarness = `import json, os, re, sys, textwrap, types
body = open(sys.argv[1]).read()
vars = json.loads(sys.argv[2])
set = {}
class D:
    def getVar(self, k):
        return vars[k]
    def setVar(self, k, v):
        vars[k] = v
        set[k] = v
    def appendVar(self, k, v):
        self.setVar(k, vars.get(k, "") + v)
    def expand(self, s):
        return re.sub(r"\$\{([A-Za-z0-9_:-]+)\}", lambda m: vars[m.group(1)], s)
def fatal(msg):
    print(msg, file=sys.stderr)
    sys.exit(1)
def note(msg):
    print("NOTE: " + msg)
bb = types.SimpleNamespace(fatal=fatal, note=note)
g = {"bb": bb}
exec("def task(d):\n" + textwrap.indent(textwrap.dedent(body), "    "), g)
g["task"](D())
print(json.dumps(set, sort_keys=True, separators=(",", ":")))
`

// yoctoTask writes the body of the python function head of boardc-tune.bb
// and the harness to a directory; it returns the harness and the body.
func yoctoTask(t *testing.T, head string) (harness, body string) {
	t.Helper()
	dir := t.TempDir()
	body = filepath.Join(dir, "task.py")
	if err := os.WriteFile(body, []byte(taskBody(t, filepath.Join(yocto, "recipes-bsp", "boardc-tune", "boardc-tune.bb"), head)), 0o644); err != nil {
		t.Fatal(err)
	}
	harness = filepath.Join(dir, "harness.py")
	if err := os.WriteFile(harness, []byte(pyHarness), 0o644); err != nil {
		t.Fatal(err)
	}
	return harness, body
}

// TestYoctoTuneInstall runs boardc-tune.bb's do_install on the outputs of
// every in-tree board, and of a board with isolated CPUs, with systemd,
// SysV init and both: it installs exactly the files the board produces,
// with their modes, where the generated files expect each other, and
// nothing for mirabox. Then boardc_tune_init_packages, the packaging
// step before systemd.bbclass and update-rc.d.bbclass, must leave them
// nothing to enable or link that is not installed.
func TestYoctoTuneInstall(t *testing.T) {
	py := testtool.Look(t, "python3", "python3")
	harness, install := yoctoTask(t, "python do_install() {")
	_, split := yoctoTask(t, "python boardc_tune_init_packages() {")
	for name, dir := range tuneBoardDirs(t) {
		t.Run(name, func(t *testing.T) {
			out, got := boardOutputAt(t, dir)
			if got != name {
				t.Fatalf("%s compiles to board %s", dir, got)
			}
			tf := tuneBoards[name]
			checkTuneFiles(t, name, tf, manifestFiles(t, out, name))
			for _, features := range []string{"systemd", "sysvinit", "systemd sysvinit"} {
				dest := t.TempDir()
				vars := map[string]string{
					"BOARDC_BOARD": name, "BOARDC_OUTDIR": out, "D": dest, "PN": "boardc-tune",
					"BOARDC_LIBEXEC_DIR": "/usr/libexec/boardc", "nonarch_libdir": "/usr/lib",
					"nonarch_base_libdir": "/usr/lib", "DISTRO_FEATURES": "acl " + features,
					"systemd_system_unitdir": "/usr/lib/systemd/system", "sysconfdir": "/etc",
					"INITSCRIPT_NAME": "boardc-tune-" + name,
				}
				js, _ := json.Marshal(vars)
				msg := run(t, ".", nil, py, harness, install, string(js))
				wantMsg := "{}\n"
				if !tf.tune {
					wantMsg = "NOTE: board " + name + " produces no tune.sh: no runtime tuning to install\n" + wantMsg
				}
				if msg != wantMsg {
					t.Errorf("DISTRO_FEATURES %q: do_install printed %q, want %q", features, msg, wantMsg)
				}
				want := wantTune(yoctoLayout, name, tf, "files")
				if strings.Contains(features, "systemd") {
					want = append(want, wantTune(yoctoLayout, name, tf, "systemd")...)
				}
				if strings.Contains(features, "sysvinit") {
					want = append(want, wantTune(yoctoLayout, name, tf, "sysv")...)
				}
				checkInstalled(t, "DISTRO_FEATURES "+features, dest, filepath.Join(out, name), want)
				if n := checkRefs(t, "DISTRO_FEATURES "+features, dest); tf.tune && n == 0 {
					t.Errorf("DISTRO_FEATURES %q: the installed files refer to nothing: the reference check checked nothing", features)
				}

				setVars := map[string]string{}
				if name == "qemu-virt" { // eth0's queue counts (qemu-virt/board.cue)
					setVars["RDEPENDS:boardc-tune"] = " ethtool"
				}
				if !tf.tune || !strings.Contains(features, "systemd") {
					setVars["SYSTEMD_SERVICE:boardc-tune"] = ""
				}
				if !tf.tune || !strings.Contains(features, "sysvinit") {
					setVars["INHIBIT_UPDATERCD_BBCLASS"] = "1"
				}
				wantSet, _ := json.Marshal(setVars)
				if got := run(t, ".", nil, py, harness, split, string(js)); got != string(wantSet)+"\n" {
					t.Errorf("DISTRO_FEATURES %q: boardc_tune_init_packages set %s, want %s", features, got, wantSet)
				}
			}
		})
	}

	// A BOARDC_BOARD that is not the board's name.
	out, _ := boardOutput(t, "espressobin")
	if err := os.Rename(filepath.Join(out, "espressobin"), filepath.Join(out, "other")); err != nil {
		t.Fatal(err)
	}
	vars, _ := json.Marshal(map[string]string{"BOARDC_BOARD": "other", "BOARDC_OUTDIR": out, "D": t.TempDir()})
	cmd := exec.Command(py, harness, install, string(vars))
	msg, err := cmd.CombinedOutput()
	want := filepath.Join(out, "other", "manifest.json") + ": board 'espressobin', but BOARDC_BOARD is 'other': the board's directory and its name must match\n"
	if err == nil || string(msg) != want {
		t.Errorf("misnamed board: %v %q, want %q", err, msg, want)
	}
}

// TestYoctoKernelInclude runs boardc-kernel.bbclass's boardc_kernel_include
// on a kernel tree with every ESPRESSObin device tree, twice.
func TestYoctoKernelInclude(t *testing.T) {
	out, name := boardOutput(t, "espressobin")
	kernel, dts := espressobinKernel(t, "/dts-v1/;\n")
	body := taskBody(t, filepath.Join(yocto, "classes", "boardc-kernel.bbclass"), "boardc_kernel_include() {")
	script := kernelScript(t, body, name, out, kernel, strings.Join(espressobinDTS, " "))
	for range 2 {
		run(t, ".", nil, "sh", "-c", script)
	}
	for _, d := range espressobinDTS {
		if got, want := readFile(t, filepath.Join(dts, d+".dts")), "/dts-v1/;\n\n#include \"boardc-"+name+".dtsi\"\n"; got != want {
			t.Errorf("%s.dts:\n%s\nwant:\n%s", d, got, want)
		}
	}
	if readFile(t, filepath.Join(dts, "marvell", "boardc-"+name+".dtsi")) != readFile(t, filepath.Join(out, name, name+".dtsi")) {
		t.Error("the fragment in the kernel tree is not boardc's .dtsi")
	}
	cmd := exec.Command("sh", "-c", kernelScript(t, body, name, out, kernel, "marvell/armada-3720-nothere"))
	msg, err := cmd.CombinedOutput()
	want := "boardc: " + filepath.Join(dts, "marvell", "armada-3720-nothere.dts") + ": no such device tree in the kernel\n"
	if err == nil || string(msg) != want {
		t.Errorf("missing device tree: %v %q, want %q", err, msg, want)
	}
}

// kernelScript makes a shell script of the body of boardc-kernel.bbclass's
// boardc_kernel_include, with bitbake's variables set for the board name, its
// output directory out, an arm64 kernel tree and BOARDC_KERNEL_DTS
// kernelDTS, and a bbfatal that prints its message and exits 1.
func kernelScript(t *testing.T, body, name, out, kernel, kernelDTS string) string {
	t.Helper()
	r := strings.NewReplacer("${BOARDC_BOARD}", name, "${BOARDC_OUTDIR}", out, "${S}", kernel, "${ARCH}", "arm64",
		"${BOARDC_KERNEL_DTS}", kernelDTS)
	script := "set -e\nbbfatal() { echo \"$*\" >&2; exit 1; }\n" + r.Replace(body)
	if strings.Contains(script, "${") {
		t.Fatalf("unexpanded bitbake variable in:\n%s", script)
	}
	return script
}
