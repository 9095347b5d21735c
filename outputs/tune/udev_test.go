package tune_test

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"boardc.dev/boardc/internal/testtool"
	"boardc.dev/boardc/outputs/tune"
)

// udevLines returns the rule lines of a udev rules file, comments and
// blank lines left out.
func udevLines(rules string) []string {
	var out []string
	for _, l := range strings.Split(rules, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// TestUdevRule checks the rule of a board with one interface found each
// way and a master without interface: each matches the board's own
// hardware only, on add and on a rename, and has systemd-escape write the
// instance; the master's IRQs are placed again when a driver binds.
func TestUdevRule(t *testing.T) {
	b := irqIfaceBoard()
	files := map[string]string{}
	for _, f := range tune.Emit(b) {
		files[f.Path] = string(f.Data)
	}
	wants := `PROGRAM="/usr/bin/systemd-escape --template=boardc-tune-testboard@.service $name", TAG+="systemd", ENV{SYSTEMD_WANTS}+="%c"`
	net := `ACTION=="add|move", SUBSYSTEM=="net", `
	want := []string{
		net + `ATTRS{uevent}=="*OF_FULLNAME=/soc/internal-regs/ethernet@30000?OF_*", ` + wants,
		net + `ATTRS{uevent}=="*OF_FULLNAME=/pcie@10000000?OF_*", ` + wants,
		net + `SUBSYSTEMS=="fsl-mc", KERNELS=="dpni.4", ` + wants,
		net + `ATTRS{uevent}=="*OF_FULLNAME=/soc/switch@0?OF_*", ` + wants,
		net + `KERNEL=="eth4", ` + wants,
		`ACTION=="bind", ATTRS{uevent}=="*OF_FULLNAME=/soc/crypto@90000?OF_*", TAG+="systemd", ENV{SYSTEMD_WANTS}+="boardc-tune-testboard@master:crypto.service"`,
	}
	got := udevLines(files["udev/90-boardc-testboard.rules"])
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rule lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range []string{"udev/90-boardc-testboard.rules", "boardc-tune-testboard@.service", "boardc-tune-testboard.service"} {
		if !strings.Contains(files[f], "/usr/lib/") {
			t.Errorf("%s does not say where it is installed:\n%s", f, files[f])
		}
	}
	tmpl := files["boardc-tune-testboard@.service"]
	for _, w := range []string{
		"ExecStart=/bin/sh /usr/libexec/boardc/testboard/tune.sh --instance %I\n",
		"After=boardc-tune-testboard.service\n",
		"SuccessExitStatus=4\n",
	} {
		if !strings.Contains(tmpl, w) {
			t.Errorf("the template unit lacks %q:\n%s", w, tmpl)
		}
	}
	// It binds to no device unit, which a name may not reach
	// (".x" is sys-subsystem-net-devices-.x.device, its instance \x2ex),
	// and ends with tune.sh, so that the next appearance starts it again.
	for _, bad := range []string{".device", "BindsTo=", "RemainAfterExit=yes"} {
		if strings.Contains(tmpl, bad) {
			t.Errorf("the template unit has %q:\n%s", bad, tmpl)
		}
	}
}

// ofUevent is the uevent file of a device whose of_node is path, as
// of_device_uevent() (drivers/of/device.c) and uevent_show()
// (drivers/base/core.c) write it.
func ofUevent(path string) string {
	name := path[strings.LastIndex(path, "/")+1:]
	name, _, _ = strings.Cut(name, "@")
	return "DRIVER=x\nOF_NAME=" + name + "\nOF_FULLNAME=" + path + "\nOF_COMPATIBLE_0=vendor,x\nOF_COMPATIBLE_N=1\nMODALIAS=of:N" + name + "T(null)Cvendor,x"
}

// TestUdevUeventMatch matches the rule's ATTRS{uevent} patterns as udev
// does, with fnmatch() and no flags, which is what a shell's case does:
// each matches the uevent of its master's device and not that of a
// sibling whose path starts the same.
func TestUdevUeventMatch(t *testing.T) {
	rules := ""
	for _, f := range tune.Emit(irqIfaceBoard()) {
		if strings.HasPrefix(f.Path, "udev/") {
			rules = string(f.Data)
		}
	}
	pat := regexp.MustCompile(`ATTRS\{uevent\}=="([^"]*)"`)
	for path, wantMatch := range map[string]map[string]bool{
		"/soc/internal-regs/ethernet@30000": {"/soc/internal-regs/ethernet@30000": true, "/soc/internal-regs/ethernet@300000": false, "/soc/internal-regs/ethernet@30000/mdio": false},
		"/soc/crypto@90000":                 {"/soc/crypto@90000": true, "/soc/crypto@9000": false, "/soc/internal-regs/ethernet@30000": false},
	} {
		var p string
		for _, m := range pat.FindAllStringSubmatch(rules, -1) {
			if strings.Contains(m[1], "="+path+"?") {
				p = m[1]
			}
		}
		if p == "" {
			t.Fatalf("no pattern for %s in:\n%s", path, rules)
		}
		for dev, want := range wantMatch {
			err := exec.Command("sh", "-c", `case $1 in $2) exit 0 ;; esac; exit 1`, "sh", ofUevent(dev), p).Run()
			if got := err == nil; got != want {
				t.Errorf("pattern %q on the uevent of %s: match %v, want %v", p, dev, got, want)
			}
		}
	}
}

// TestUdevEscape runs the rule's PROGRAM as udev does for interface
// names that need escaping: systemd-escape writes the instance systemd
// reads back (%I) as the name, and tune.sh --instance tunes that
// interface: br-lan was br/lan, and --interface refused it with status 2.
func TestUdevEscape(t *testing.T) {
	se := testtool.Look(t, "systemd-escape", "systemd")
	b := irqIfaceBoard()
	rules := ""
	for _, f := range tune.Emit(b) {
		if strings.HasPrefix(f.Path, "udev/") {
			rules = string(f.Data)
		}
	}
	prog := regexp.MustCompile(`PROGRAM="/usr/bin/systemd-escape ([^"$]*)\$name"`).FindStringSubmatch(rules)
	if prog == nil {
		t.Fatalf("no PROGRAM in the rule:\n%s", rules)
	}
	for name, unit := range map[string]string{
		"br-lan":      `boardc-tune-testboard@br\x2dlan.service`,
		"virbr0-nic":  `boardc-tune-testboard@virbr0\x2dnic.service`,
		"eth0.100":    `boardc-tune-testboard@eth0.100.service`,
		"br-0a1b2c3d": `boardc-tune-testboard@br\x2d0a1b2c3d.service`,
		"end0":        `boardc-tune-testboard@end0.service`,
	} {
		out, err := exec.Command(se, append(strings.Fields(prog[1]), name)...).Output()
		if err != nil || strings.TrimSpace(string(out)) != unit {
			t.Errorf("systemd-escape %s %s: %q %v, want %s", prog[1], name, out, err, unit)
			continue
		}
		// %I: the instance unescaped, as systemd.unit(5) says.
		out, err = exec.Command(se, "--unescape", "--instance", unit).Output()
		if err != nil || strings.TrimSpace(string(out)) != name {
			t.Errorf("systemd-escape --unescape --instance %s: %q %v, want %s", unit, out, err, name)
		}
	}

	// tune.sh run as the unit runs it: the interface br-lan, found by
	// name, and the master crypto.
	b.Policy.Net[4].IfName = "br-lan"
	b.Policy.Net[4].Dev.Name = "br-lan"
	out := writeOutputs(t, tune.Emit(b))
	root, work := t.TempDir(), t.TempDir()
	f := ifaceRoot()
	f["sys/class/net/br-lan"] = symlink + "../../devices/virtual/net/br-lan"
	f["sys/devices/virtual/net/br-lan/queues/rx-0/rps_cpus"] = "00,00000000\n"
	makeTree(t, root, f)
	script := filepath.Join(out, tune.ScriptFile)
	r := runSh(t, work, nil, script, "--root", root, "--instance", "br-lan")
	if r.code != 0 || r.stdout != "set /sys/class/net/br-lan/queues/rx-0/rps_cpus = 2, was 00,00000000 (test/board.cue:24)\nboard testboard: 1 value(s) set, 0 already in place\n" {
		t.Errorf("--instance br-lan: %v", r)
	}
	r = runSh(t, work, nil, script, "--root", root, "--instance", "master:crypto")
	got := snapshot(t, root)
	if r.code != 0 || !strings.Contains(r.stdout, "board testboard: 4 value(s) set") ||
		got["proc/irq/21/smp_affinity_list"] != "0-1\n" || got["proc/irq/24/smp_affinity_list"] != "0-1\n" ||
		got["proc/irq/30/smp_affinity_list"] != "0-39\n" || got["proc/irq/33/smp_affinity_list"] != "0-39\n" ||
		got["proc/sys/net/core/netdev_budget"] != "300\n" {
		t.Errorf("--instance master:crypto placed more or less than the rings: %v", r)
	}
	for _, bad := range [][]string{
		{"--master", "Crypto"}, {"--master", "a;b"}, {"--instance", "master:"},
		{"--master", "crypto", "--interface", "eth0"}, {"--master", "crypto", "--only", "net"},
	} {
		if r := runSh(t, work, nil, script, append([]string{"--root", root}, bad...)...); r.code != tune.ExitUsage {
			t.Errorf("%q: %v, want status %d", bad, r, tune.ExitUsage)
		}
	}
}

// TestUdevVerify has udevadm verify the rules of the in-tree boards,
// where the installed udev has that command (systemd 254 and later).
func TestUdevVerify(t *testing.T) {
	ua, err := exec.LookPath("udevadm")
	if err != nil {
		t.Skip("no udevadm")
	}
	if exec.Command(ua, "verify", "--help").Run() != nil {
		t.Skip("this udevadm has no verify command (systemd 254 added it)")
	}
	dir := t.TempDir()
	var paths []string
	for _, f := range tune.Emit(irqIfaceBoard()) {
		if strings.HasPrefix(f.Path, "udev/") {
			makeTree(t, dir, map[string]string{f.Path: string(f.Data)})
			paths = append(paths, filepath.Join(dir, f.Path))
		}
	}
	if out, err := exec.Command(ua, append([]string{"verify"}, paths...)...).CombinedOutput(); err != nil {
		t.Errorf("udevadm verify: %v\n%s", err, out)
	}
}

// TestOfflineCPU: a pin to a CPU that is not online is one missing item
// (status 4, the IRQ left as it was), not a failure: the kernel would
// take the write as a request for its default affinity
// (kernel/irq/proc.c write_irq_affinity()), and the read-back would
// differ.
func TestOfflineCPU(t *testing.T) {
	t.Parallel()
	out := writeOutputs(t, tune.Emit(testBoard()))
	root, work := t.TempDir(), t.TempDir()
	f := fakeRoot()
	f["sys/devices/system/cpu/online"] = "0-31\n"
	makeTree(t, root, f)
	script := filepath.Join(out, tune.ScriptFile)
	r := runSh(t, work, nil, script, "--root", root)
	got := snapshot(t, root)
	if r.code != tune.ExitPartial ||
		!strings.Contains(r.stderr, "tune.sh: warning: IRQ 31 dpio.3: CPU 35 is not online (0-31), left where it is (test/board.cue:12)\n") ||
		!strings.Contains(r.stderr, "1 item(s) missing") ||
		got["proc/irq/31/smp_affinity_list"] != "0-39\n" || got["proc/irq/30/smp_affinity_list"] != "2\n" {
		t.Errorf("apply with CPU 35 offline: %v", r)
	}
	if r := runSh(t, work, nil, script, "--root", root, "--strict"); r.code != tune.ExitRefused {
		t.Errorf("--strict with CPU 35 offline: %v", r)
	}
	if r := runSh(t, work, nil, script, "--root", root, "--revert"); r.code != 0 {
		t.Errorf("revert: %v", r)
	}

	// An IRQ the kernel places elsewhere than written (here: a file that
	// reads back empty): one missing item, the rest applied.
	root = t.TempDir()
	f = fakeRoot()
	f["proc/irq/30/smp_affinity_list"] = symlink + "/dev/null"
	makeTree(t, root, f)
	r = runSh(t, work, nil, script, "--root", root)
	if r.code != tune.ExitPartial ||
		!strings.Contains(r.stderr, "/proc/irq/30/smp_affinity_list reads back nothing after writing 2: the kernel placed the IRQ elsewhere (IRQ 30 eth0, test/board.cue:11)\n") ||
		snapshot(t, root)["proc/sys/net/core/netdev_budget"] != "600\n" {
		t.Errorf("apply with IRQ 30 placed elsewhere: %v", r)
	}
}
