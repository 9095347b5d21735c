package integrations

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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
// plain values and bb.fatal printing its message and exiting 1.
const pyHarness = `import json, os, sys, textwrap, types
body = open(sys.argv[1]).read()
vars = json.loads(sys.argv[2])
class D:
    def getVar(self, k):
        return vars[k]
def fatal(msg):
    print(msg, file=sys.stderr)
    sys.exit(1)
bb = types.SimpleNamespace(fatal=fatal)
g = {"bb": bb}
exec("def task(d):\n" + textwrap.indent(textwrap.dedent(body), "    "), g)
g["task"](D())
`

// TestYoctoTuneInstall runs boardc-tune.bb's do_install on the outputs of
// every in-tree board, with systemd and SysV init: it installs exactly
// the files the board produces.
func TestYoctoTuneInstall(t *testing.T) {
	py := testtool.Look(t, "python3", "python3")
	dir := t.TempDir()
	body := filepath.Join(dir, "do_install.py")
	if err := os.WriteFile(body, []byte(taskBody(t, filepath.Join(yocto, "recipes-bsp", "boardc-tune", "boardc-tune.bb"), "python do_install() {")), 0o644); err != nil {
		t.Fatal(err)
	}
	harness := filepath.Join(dir, "harness.py")
	if err := os.WriteFile(harness, []byte(pyHarness), 0o644); err != nil {
		t.Fatal(err)
	}
	unpack, _ := filepath.Abs(filepath.Join(yocto, "recipes-bsp", "boardc-tune", "files"))
	for _, bd := range inTreeBoards(t) {
		t.Run(bd, func(t *testing.T) {
			out, name := boardOutput(t, bd)
			files := manifestFiles(t, out, name)
			for _, features := range []string{"systemd", "sysvinit", "systemd sysvinit"} {
				dest := t.TempDir()
				vars, _ := json.Marshal(map[string]string{
					"BOARDC_BOARD": name, "BOARDC_OUTDIR": out, "D": dest,
					"BOARDC_TUNE_DIR": "/usr/libexec/boardc/" + name, "nonarch_libdir": "/usr/lib",
					"DISTRO_FEATURES": "acl " + features, "systemd_system_unitdir": "/usr/lib/systemd/system",
					"UNPACKDIR": unpack, "sysconfdir": "/etc",
				})
				run(t, ".", nil, py, harness, body, string(vars))
				want := []string{"usr/libexec/boardc/" + name + "/tune.sh -rwxr-xr-x"}
				if files["irqbalance-policy.sh"] {
					want = append(want, "usr/libexec/boardc/"+name+"/irqbalance-policy.sh -rwxr-xr-x")
				}
				for f := range files {
					if strings.HasPrefix(f, "sysctl.d/") {
						want = append(want, "usr/lib/"+f+" -rw-r--r--")
					}
				}
				if strings.Contains(features, "systemd") {
					want = append(want, "usr/lib/systemd/system/boardc-tune-"+name+".service -rw-r--r--")
				}
				if strings.Contains(features, "sysvinit") {
					want = append(want, "etc/init.d/boardc-tune -rwxr-xr-x")
				}
				sort.Strings(want)
				if d := cmp.Diff(want, installed(t, dest)); d != "" {
					t.Errorf("DISTRO_FEATURES %q: installed (-want +got):\n%s", features, d)
				}
			}
		})
	}

	// A BOARDC_BOARD that is not the board's name.
	out, _ := boardOutput(t, "mirabox")
	if err := os.Rename(filepath.Join(out, "mirabox"), filepath.Join(out, "other")); err != nil {
		t.Fatal(err)
	}
	vars, _ := json.Marshal(map[string]string{"BOARDC_BOARD": "other", "BOARDC_OUTDIR": out, "D": t.TempDir()})
	cmd := exec.Command(py, harness, body, string(vars))
	msg, err := cmd.CombinedOutput()
	want := filepath.Join(out, "other", "manifest.json") + ": board 'mirabox', but BOARDC_BOARD is 'other': the board's directory and its name must match\n"
	if err == nil || string(msg) != want {
		t.Errorf("misnamed board: %v %q, want %q", err, msg, want)
	}
}

// TestYoctoKernelInclude runs boardc-kernel.bbclass's do_boardc:append
// on a kernel tree with every ESPRESSObin device tree, twice.
func TestYoctoKernelInclude(t *testing.T) {
	out, name := boardOutput(t, "espressobin")
	kernel := t.TempDir()
	dts := filepath.Join(kernel, "arch", "arm64", "boot", "dts")
	for _, d := range espressobinDTS {
		p := filepath.Join(dts, d+".dts")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("/dts-v1/;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	body := taskBody(t, filepath.Join(yocto, "classes", "boardc-kernel.bbclass"), "do_boardc:append() {")
	r := strings.NewReplacer("${BOARDC_BOARD}", name, "${BOARDC_OUTDIR}", out, "${S}", kernel, "${ARCH}", "arm64",
		"${BOARDC_KERNEL_DTS}", strings.Join(espressobinDTS, " "))
	script := "set -e\nbbfatal() { echo \"$*\" >&2; exit 1; }\n" + r.Replace(body)
	if strings.Contains(script, "${") {
		t.Fatalf("unexpanded bitbake variable in:\n%s", script)
	}
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
	bad := strings.NewReplacer("${BOARDC_BOARD}", name, "${BOARDC_OUTDIR}", out, "${S}", kernel, "${ARCH}", "arm64",
		"${BOARDC_KERNEL_DTS}", "marvell/armada-3720-nothere").Replace(body)
	cmd := exec.Command("sh", "-c", "set -e\nbbfatal() { echo \"$*\" >&2; exit 1; }\n"+bad)
	msg, err := cmd.CombinedOutput()
	want := "boardc: " + filepath.Join(dts, "marvell", "armada-3720-nothere.dts") + ": no such device tree in the kernel\n"
	if err == nil || string(msg) != want {
		t.Errorf("missing device tree: %v %q, want %q", err, msg, want)
	}
}
