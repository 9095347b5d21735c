package tune_test

import (
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs/tune"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// rootCase is a synthesized root with the test board's scripts.
type rootCase struct {
	root, work, tune string
	orig             map[string]string
}

func newRootCase(t *testing.T) *rootCase {
	t.Helper()
	out := writeOutputs(t, tune.Emit(testBoard()))
	c := &rootCase{root: t.TempDir(), work: t.TempDir(), tune: filepath.Join(out, tune.ScriptFile)}
	makeTree(t, c.root, fakeRoot())
	c.orig = snapshot(t, c.root)
	return c
}

func (c *rootCase) run(t *testing.T, args ...string) result {
	t.Helper()
	return runSh(t, c.work, nil, c.tune, append([]string{"--root", c.root}, args...)...)
}

// applied is what the test board's tuning leaves in the root.
func applied() map[string]string {
	want := map[string]string{
		"sys/class/net/eth0/queues/rx-0/rps_cpus":     "3\n",
		"sys/class/net/eth0/queues/rx-1/rps_cpus":     "2,00000000\n",
		"sys/class/net/eth0/queues/rx-0/rps_flow_cnt": "1024\n",
		"sys/class/net/eth0/queues/rx-1/rps_flow_cnt": "1024\n",
		"sys/class/net/eth0/queues/tx-0/xps_cpus":     "1\n",
		"sys/class/net/eth0/queues/tx-1/xps_cpus":     "81,00000000\n",
		"proc/sys/net/core/netdev_budget":             "600\n",
		"proc/sys/net/core/rps_sock_flow_entries":     "32768\n",
		"proc/sys/net/ipv4/ip_local_port_range":       "20000 60000\n",
	}
	for n, l := range pinnedIRQs {
		want["proc/irq/"+n+"/smp_affinity_list"] = l + "\n"
	}
	return want
}

func TestRootApplyVerifyRevert(t *testing.T) {
	t.Parallel()
	c := newRootCase(t)
	r := c.run(t)
	if r.code != 0 {
		t.Fatalf("apply: %v", r)
	}
	if !strings.Contains(r.stdout, "board testboard: 16 value(s) set, 0 already in place") {
		t.Errorf("apply output:\n%s", r.stdout)
	}
	got := snapshot(t, c.root)
	for p, w := range applied() {
		if got[p] != w {
			t.Errorf("after apply %s = %q, want %q", p, got[p], w)
		}
	}
	// IRQs of other names, even similar ones, are left alone.
	for _, n := range []string{"3", "4", "7", "25", "32"} {
		if p := "proc/irq/" + n + "/smp_affinity_list"; got[p] != c.orig[p] {
			t.Errorf("IRQ %s changed to %q", n, got[p])
		}
	}
	state := "run/boardc/testboard.state"
	if !strings.Contains(got[state], "irq 21 d0090000.crypto\t0-39\n") ||
		!strings.Contains(got[state], "/proc/sys/net/ipv4/ip_local_port_range\t32768\t60999\n") {
		t.Errorf("state file:\n%s", got[state])
	}

	// Applying again changes nothing and keeps the saved originals.
	r = c.run(t)
	if r.code != 0 || !strings.Contains(r.stdout, "0 value(s) set, 16 already in place") {
		t.Errorf("re-apply: %v", r)
	}
	if d := treeDiff(got, snapshot(t, c.root)); len(d) > 0 {
		t.Errorf("re-apply changed the root:\n%s", strings.Join(d, "\n"))
	}

	if r := c.run(t, "--verify"); r.code != 0 || !strings.Contains(r.stdout, "no drift") {
		t.Errorf("verify: %v", r)
	}

	// The kernel prints masks padded and lists in its own form: no drift.
	makeTree(t, c.root, map[string]string{
		"sys/class/net/eth0/queues/rx-0/rps_cpus": "00,00000003\n",
		"sys/class/net/eth0/queues/tx-1/xps_cpus": "00000081,00000000\n",
		"proc/irq/33/smp_affinity_list":           "3,4,5,7\n",
		"proc/sys/net/ipv4/ip_local_port_range":   "20000\t60000\n",
	})
	if r := c.run(t, "--verify"); r.code != 0 {
		t.Errorf("verify of kernel-formatted values: %v", r)
	}

	// Drift: every drifted value is listed.
	makeTree(t, c.root, map[string]string{
		"sys/class/net/eth0/queues/rx-0/rps_cpus": "00,00000001\n",
		"proc/irq/22/smp_affinity_list":           "0-39\n",
		"proc/sys/net/core/netdev_budget":         "300\n",
	})
	r = c.run(t, "--verify")
	if r.code != tune.ExitDrift {
		t.Errorf("verify after tampering: %v", r)
	}
	for _, want := range []string{
		"drift: /sys/class/net/eth0/queues/rx-0/rps_cpus is 00,00000001, want 3 (test/board.cue:20)",
		"drift: /proc/irq/22/smp_affinity_list is 0-39, want 0-1 (IRQ 22 d0090000.crypto, test/board.cue:10)",
		"drift: /proc/sys/net/core/netdev_budget is 300, want 600 (test/board.cue:30)",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("verify output lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "3 value(s) of board testboard drifted") {
		t.Errorf("verify stderr: %s", r.stderr)
	}

	// Applying over drift fixes it and still keeps the first originals.
	if r := c.run(t); r.code != 0 || !strings.Contains(r.stdout, "3 value(s) set") {
		t.Errorf("apply over drift: %v", r)
	}
	if s := snapshot(t, c.root)[state]; s != got[state] {
		t.Errorf("apply over drift rewrote the saved originals:\n%s\nwant:\n%s", s, got[state])
	}

	r = c.run(t, "--revert")
	if r.code != 0 {
		t.Fatalf("revert: %v", r)
	}
	if d := treeDiff(c.orig, snapshot(t, c.root)); len(d) > 0 {
		t.Errorf("revert did not restore the root:\n%s", strings.Join(d, "\n"))
	}
	if r := c.run(t, "--revert"); r.code != 0 || !strings.Contains(r.stdout, "nothing to revert") {
		t.Errorf("second revert: %v", r)
	}
}

func TestRootDryRun(t *testing.T) {
	t.Parallel()
	c := newRootCase(t)
	r := c.run(t, "--dry-run")
	if r.code != 0 {
		t.Fatalf("dry-run: %v", r)
	}
	if d := treeDiff(c.orig, snapshot(t, c.root)); len(d) > 0 {
		t.Errorf("dry-run changed the root:\n%s", strings.Join(d, "\n"))
	}
	for _, want := range []string{
		"would write 0-1 to /proc/irq/24/smp_affinity_list, now 0-39 (IRQ 24 d0090000.crypto, test/board.cue:10)",
		"would write 81,00000000 to /sys/class/net/eth0/queues/tx-1/xps_cpus, now 00,00000000 (test/board.cue:20)",
		"would write 20000 60000 to /proc/sys/net/ipv4/ip_local_port_range",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("dry-run output lacks %q:\n%s", want, r.stdout)
		}
	}
	if n := strings.Count(r.stdout, "would write"); n != 16 {
		t.Errorf("dry-run printed %d actions, want 16:\n%s", n, r.stdout)
	}
}

func TestRootGuard(t *testing.T) {
	t.Parallel()
	c := newRootCase(t)
	makeTree(t, c.root, map[string]string{"proc/device-tree/compatible": "globalscale,espressobin\x00marvell,armada3720\x00vendor,testsoc\x00"})
	orig := snapshot(t, c.root)
	r := c.run(t)
	if r.code != tune.ExitRefused || !strings.Contains(r.stderr, "this is not board testboard") ||
		!strings.Contains(r.stderr, "globalscale,espressobin") {
		t.Errorf("wrong board: %v", r)
	}
	if d := treeDiff(orig, snapshot(t, c.root)); len(d) > 0 {
		t.Errorf("refused run changed the root:\n%s", strings.Join(d, "\n"))
	}
	if r := c.run(t, "--force"); r.code != 0 {
		t.Errorf("--force: %v", r)
	}
	if r := c.run(t, "--force", "--verify"); r.code != 0 {
		t.Errorf("--force --verify: %v", r)
	}

	c = newRootCase(t)
	makeTree(t, c.root, map[string]string{"proc/device-tree/compatible": "vendor,testboard-v2\x00vendor,testboard\x00vendor,testsoc\x00"})
	if r := c.run(t, "--dry-run"); r.code != 0 {
		t.Errorf("compatible second in the list: %v", r)
	}
}

// TestRootMissingIRQ: an IRQ that is not there is a warning naming it, the
// rest is applied (exit 4), and --strict changes nothing (exit 3).
func TestRootMissingIRQ(t *testing.T) {
	t.Parallel()
	c := newRootCase(t)
	var lines []string
	for _, l := range interruptsLines {
		if !strings.Contains(l, "dpio.3\n") {
			lines = append(lines, l)
		}
	}
	makeTree(t, c.root, map[string]string{"proc/interrupts": interruptsHeader + strings.Join(lines, "")})
	orig := snapshot(t, c.root)

	r := c.run(t, "--strict")
	if r.code != tune.ExitRefused || !strings.Contains(r.stderr, "tune.sh: 1 item(s) missing: nothing changed (--strict)") {
		t.Errorf("--strict with a missing IRQ: %v", r)
	}
	if d := treeDiff(orig, snapshot(t, c.root)); len(d) > 0 {
		t.Errorf("a refused apply changed the root:\n%s", strings.Join(d, "\n"))
	}

	r = c.run(t)
	want := "tune.sh: warning: no IRQ named 'dpio.3' in " + c.root + "/proc/interrupts, skipped (test/board.cue:12)\n"
	if r.code != tune.ExitPartial || !strings.Contains(r.stderr, want) || strings.Count(r.stderr, "dpio.3") != 1 ||
		!strings.Contains(r.stdout, "board testboard: 15 value(s) set, 0 already in place") {
		t.Errorf("missing IRQ: %v\nwant the warning %q once", r, want)
	}
	got := snapshot(t, c.root)
	for p, w := range applied() {
		if p == "proc/irq/31/smp_affinity_list" {
			continue
		}
		if got[p] != w {
			t.Errorf("after a partial apply %s = %q, want %q", p, got[p], w)
		}
	}
	if r := c.run(t, "--verify"); r.code != tune.ExitPartial || !strings.Contains(r.stdout, "no drift") {
		t.Errorf("verify with a missing IRQ: %v", r)
	}
	if r := c.run(t, "--only", "net,sysctl"); r.code != 0 {
		t.Errorf("--only net,sysctl needs no IRQ: %v", r)
	}
}

// TestRootMissingInterface: a missing interface is one warning naming it,
// a missing queue of a present one names the queue, and the rest is
// applied.
func TestRootMissingInterface(t *testing.T) {
	t.Parallel()
	c := newRootCase(t)
	b := testBoard()
	b.Policy.Net = append(b.Policy.Net, ir.NetPolicy{IfName: "eth9", RPS: [][]int{{1}, {2}}, RPSFlowCount: -1, Pos: at(21)})
	out := writeOutputs(t, tune.Emit(b))
	if err := os.Remove(filepath.Join(c.root, "sys/class/net/eth0/queues/tx-1/xps_cpus")); err != nil {
		t.Fatal(err)
	}
	r := runSh(t, c.work, nil, filepath.Join(out, tune.ScriptFile), "--root", c.root)
	for _, want := range []string{
		"tune.sh: warning: no interface eth9 (name) in " + c.root + "/sys/class/net, its queues skipped (test/board.cue:21)\n",
		"tune.sh: warning: missing " + c.root + "/sys/class/net/eth0/queues/tx-1/xps_cpus, skipped (test/board.cue:20)\n",
		"tune.sh: warning: 2 item(s) missing or refused, named above; the rest is done\n",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q", want)
		}
	}
	if r.code != tune.ExitPartial || strings.Count(r.stderr, "eth9") != 1 || !strings.Contains(r.stdout, "15 value(s) set") {
		t.Errorf("missing interface and queue: %v", r)
	}
	if got := snapshot(t, c.root)["sys/class/net/eth0/queues/tx-0/xps_cpus"]; got != "1\n" {
		t.Errorf("the present queues were not tuned: tx-0 xps_cpus %q", got)
	}
}

// TestRootRevertSafety: the saved affinity of an IRQ is restored only
// while its number still has its action name.
func TestRootRevertSafety(t *testing.T) {
	t.Parallel()
	c := newRootCase(t)
	if r := c.run(t); r.code != 0 {
		t.Fatalf("apply: %v", r)
	}
	state := snapshot(t, c.root)["run/boardc/testboard.state"]
	if !strings.Contains(state, "irq 21 d0090000.crypto\t0-39\n") || !strings.Contains(state, "irq 33 eth1\t0-39\n") {
		t.Fatalf("state is not keyed by IRQ number and name:\n%s", state)
	}
	// A driver reload gave number 31 (dpio.3) to another device.
	renamed := strings.Replace(strings.Join(interruptsLines, ""), "dpio.3\n", "mmc0\n", 1)
	makeTree(t, c.root, map[string]string{
		"proc/interrupts":               interruptsHeader + renamed,
		"proc/irq/31/smp_affinity_list": "2\n",
	})
	r := c.run(t, "--revert")
	if r.code != tune.ExitPartial ||
		!strings.Contains(r.stderr, "tune.sh: warning: not restoring IRQ 31 to 0-39: it is no longer named dpio.3 (a driver reload may have given its number to another device)\n") {
		t.Errorf("revert of a renumbered IRQ: %v", r)
	}
	got := snapshot(t, c.root)
	if got["proc/irq/31/smp_affinity_list"] != "2\n" {
		t.Errorf("revert wrote the other device's IRQ 31: %q", got["proc/irq/31/smp_affinity_list"])
	}
	if got["proc/irq/21/smp_affinity_list"] != "0-39\n" || got["proc/sys/net/core/netdev_budget"] != "300\n" {
		t.Error("revert did not restore the rest")
	}
	if _, ok := got["run/boardc/testboard.state"]; ok {
		t.Error("the state file is kept after a revert with nothing left to do")
	}
}

// TestRootManagedIRQ: an IRQ whose affinity the kernel refuses to change
// (EIO on a managed vector; here a file no one may write) is reported and
// the rest is applied.
func TestRootManagedIRQ(t *testing.T) {
	t.Parallel()
	c := newRootCase(t)
	ro := filepath.Join(t.TempDir(), "ro")
	if err := os.WriteFile(ro, []byte("0-39\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(c.root, "proc/irq/30/smp_affinity_list")
	if err := os.Remove(f); err != nil {
		t.Fatal(err)
	}
	// A regular file mode 0444 is writable by root; /proc/sys's read-only
	// files are not, whoever writes.
	target := ro
	if os.Geteuid() == 0 {
		target = "/proc/sys/kernel/osrelease"
	}
	if err := os.Symlink(target, f); err != nil {
		t.Fatal(err)
	}
	r := c.run(t, "--only", "irq")
	if r.code != tune.ExitPartial || !strings.Contains(r.stderr, "tune.sh: warning: cannot write 2 to "+f+": the kernel refuses it (a managed IRQ answers EIO)") ||
		!strings.Contains(r.stdout, "6 value(s) set") {
		t.Errorf("managed IRQ: %v", r)
	}
}

func TestRootMissingFile(t *testing.T) {
	t.Parallel()
	c := newRootCase(t)
	makeTree(t, c.root, map[string]string{"sys/class/net/eth1/.keep": ""})
	b := testBoard()
	b.Policy.Net[0].IfName = "eth1"
	out := writeOutputs(t, tune.Emit(b))
	r := runSh(t, c.work, nil, filepath.Join(out, tune.ScriptFile), "--root", c.root, "--strict")
	if r.code != tune.ExitRefused || !strings.Contains(r.stderr, "missing "+c.root+"/sys/class/net/eth1/queues/rx-0/rps_cpus, skipped") {
		t.Errorf("missing queues, --strict: %v", r)
	}
}

func TestRootOnlyAndUsage(t *testing.T) {
	t.Parallel()
	c := newRootCase(t)
	if r := c.run(t, "--only=net"); r.code != 0 || !strings.Contains(r.stdout, "6 value(s) set") {
		t.Errorf("--only=net: %v", r)
	}
	got := snapshot(t, c.root)
	if got["proc/irq/21/smp_affinity_list"] != "0-39\n" || got["proc/sys/net/core/netdev_budget"] != "300\n" {
		t.Error("--only=net touched IRQs or sysctls")
	}
	for _, args := range [][]string{{"--bogus"}, {"--only", "disk"}, {"--only"}, {"--verify", "--revert"}, {"--root"}} {
		if r := c.run(t, args...); r.code != tune.ExitUsage {
			t.Errorf("%q: %v", args, r)
		}
	}
	if r := c.run(t, "--help"); r.code != 0 || !strings.Contains(r.stdout, "Usage: tune.sh") {
		t.Errorf("--help: %v", r)
	}
	// BOARDC_ROOT stands for --root.
	if r := runSh(t, c.work, []string{"BOARDC_ROOT=" + c.root}, c.tune, "--verify", "--only", "net"); r.code != 0 {
		t.Errorf("BOARDC_ROOT: %v", r)
	}
}

func TestRootDaemons(t *testing.T) {
	t.Parallel()
	c := newRootCase(t)
	if r := c.run(t, "--dry-run"); strings.Contains(r.stderr, "warning") {
		t.Errorf("warning with no daemon: %v", r)
	}
	makeTree(t, c.root, map[string]string{"proc/977/comm": "irqbalance\n", "proc/1203/comm": "tuned\n"})
	r := c.run(t)
	if r.code != 0 {
		t.Fatalf("apply: %v", r)
	}
	for _, want := range []string{"warning: irqbalance is running", "the directory holding irqbalance-policy.sh as --policyscript", "warning: TuneD is running"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("no %q: %v", want, r)
		}
	}
	if r := c.run(t, "--only", "net", "--dry-run"); strings.Contains(r.stderr, "irqbalance") {
		t.Errorf("irqbalance warning without IRQ pinning: %v", r)
	}

	// irqbalance started as the drop-in starts it asks the board's policy
	// script, which bans the pinned IRQs: no warning, as long as the
	// script is installed where --policyscript looks.
	script := tune.PolicyDir + "/boardc-" + testBoard().Name
	for _, tc := range []struct {
		name, cmdline string
		installed     bool
		warn          bool
	}{
		{"drop-in", "/usr/sbin/irqbalance\x00--foreground\x00--policyscript=" + tune.PolicyDir + "\x00", true, false},
		{"-l DIR/", "irqbalance\x00-l\x00" + tune.PolicyDir + "/\x00", true, false},
		{"the script itself", "irqbalance\x00--policyscript\x00" + script + "\x00", true, false},
		{"not installed", "/usr/sbin/irqbalance\x00--foreground\x00--policyscript=" + tune.PolicyDir + "\x00", false, true},
		{"another directory", "irqbalance\x00--policyscript=/etc/irqbalance.d\x00", true, true},
		{"no policy", "irqbalance\x00--foreground\x00", true, true},
	} {
		c := newRootCase(t)
		files := map[string]string{"proc/977/comm": "irqbalance\n", "proc/977/cmdline": tc.cmdline}
		if tc.installed {
			files[strings.TrimPrefix(script, "/")] = "#!/bin/sh\n"
		}
		makeTree(t, c.root, files)
		if tc.installed {
			if err := os.Chmod(filepath.Join(c.root, filepath.FromSlash(script)), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		r := c.run(t, "--dry-run")
		if got := strings.Contains(r.stderr, "irqbalance is running"); got != tc.warn {
			t.Errorf("%s: warned %v, want %v: %v", tc.name, got, tc.warn, r)
		}
	}
}

func TestRootPolicyScript(t *testing.T) {
	t.Parallel()
	out := writeOutputs(t, tune.Emit(testBoard()))
	root := t.TempDir()
	makeTree(t, root, fakeRoot())
	policy := filepath.Join(out, tune.PolicyFile)
	for irq, ban := range map[string]bool{
		"21": true, "24": true, "30": true, "31": true, "33": true,
		"3": false, "4": false, "25": false, "32": false, "99": false, "x": false, "": false,
	} {
		r := runSh(t, root, []string{"BOARDC_ROOT=" + root}, policy, "/sys/devices/platform/x", irq)
		// irqbalance's convention for a directory of policy scripts:
		// 0 with the verdict for its own IRQs, 1 ("not mine") otherwise.
		want, code := "", 1
		if ban {
			want, code = "ban=true\n", 0
		}
		if r.code != code || r.stdout != want {
			t.Errorf("IRQ %q: %v, want %q and exit %d", irq, r, want, code)
		}
	}
}

// TestRootShells runs tune.sh under every POSIX shell installed here
// (posixShells): apply, verify and revert must behave the same in each.
func TestRootShells(t *testing.T) {
	t.Parallel()
	for _, sh := range posixShells(t) {
		t.Run(sh.name, func(t *testing.T) {
			c := newRootCase(t)
			for _, step := range [][]string{{}, {"--verify"}, {"--dry-run"}, {"--revert"}} {
				cmd := sh.command(t, c.tune, append([]string{"--root", c.root}, step...)...)
				cmd.Dir = c.work
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%s %q: %v\n%s", sh.name, step, err, out)
				}
			}
			if d := treeDiff(c.orig, snapshot(t, c.root)); len(d) > 0 {
				t.Errorf("revert did not restore the root:\n%s", strings.Join(d, "\n"))
			}
		})
	}
}

// TestRootDriverXPS: the XPS masks of an interface whose driver sets them
// are checked, never written: apply warns where they differ, --verify
// reports them as drift.
func TestRootDriverXPS(t *testing.T) {
	t.Parallel()
	c := newRootCase(t)
	b := testBoard()
	b.SoC.Masters = []*ir.Master{{Key: "eth", Node: ir.Node{Path: "/soc/eth@0"},
		NetDevs: []ir.NetDev{{Name: "eth0", RxQueues: 2, TxQueues: 2, ByName: true,
			DriverXPS: &ir.DriverSet{Source: "virtnet_set_affinity()", Pos: at(8)}}}}}
	b.ResolvePolicy()
	s := tune.Script(b)
	if !strings.Contains(s, "\texpect net mask '/sys/class/net/eth0/queues/tx-1/xps_cpus' '81,00000000' 'test/board.cue:20'\n") ||
		!strings.Contains(s, "# test/board.cue:8: eth0's driver sets XPS itself: checked, not written: virtnet_set_affinity()\n") {
		t.Errorf("tune.sh:\n%s", s)
	}
	out := writeOutputs(t, tune.Emit(b))
	script := filepath.Join(out, tune.ScriptFile)
	makeTree(t, c.root, map[string]string{"sys/class/net/eth0/queues/tx-0/xps_cpus": "00,00000001\n"})
	r := runSh(t, c.work, nil, script, "--root", c.root, "--only", "net")
	if r.code != 0 || !strings.Contains(r.stderr, "tune.sh: warning: /sys/class/net/eth0/queues/tx-1/xps_cpus is 00,00000000, set by the driver; the description expects 81,00000000 (test/board.cue:20)\n") ||
		strings.Contains(r.stderr, "tx-0") || !strings.Contains(r.stdout, "4 value(s) set") {
		t.Errorf("apply: %v", r)
	}
	got := snapshot(t, c.root)
	if got["sys/class/net/eth0/queues/tx-1/xps_cpus"] != "00,00000000\n" {
		t.Errorf("apply wrote the driver's XPS: %q", got["sys/class/net/eth0/queues/tx-1/xps_cpus"])
	}
	r = runSh(t, c.work, nil, script, "--root", c.root, "--only", "net", "--verify")
	if r.code != tune.ExitDrift || !strings.Contains(r.stdout, "drift: /sys/class/net/eth0/queues/tx-1/xps_cpus is 00,00000000, want 81,00000000 (test/board.cue:20)") {
		t.Errorf("verify: %v", r)
	}
	if r := runSh(t, c.work, nil, script, "--root", c.root, "--revert"); r.code != 0 || strings.Contains(r.stdout, "xps_cpus") {
		t.Errorf("revert touched XPS: %v", r)
	}
}

// TestRootValueLines: tune.sh reads a one-line value with the shell's
// read, whether or not it ends in a newline, and a value of two lines
// whole, which apply refuses to save (status 5), in every shell here.
func TestRootValueLines(t *testing.T) {
	t.Parallel()
	for _, sh := range posixShells(t) {
		t.Run(sh.name, func(t *testing.T) {
			c := newRootCase(t)
			rx0 := "sys/class/net/eth0/queues/rx-0/rps_cpus"
			makeTree(t, c.root, map[string]string{rx0: "00,00000003"})
			run := func(args ...string) (string, int) {
				cmd := sh.command(t, c.tune, append([]string{"--root", c.root, "--only", "net"}, args...)...)
				cmd.Dir = c.work
				out, err := cmd.CombinedOutput()
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				return string(out), code
			}
			// rx-0's mask, 0-1, is in place without a final newline.
			if out, code := run("--dry-run"); code != 0 || !strings.Contains(out, "keep /sys/class/net/eth0/queues/rx-0/rps_cpus = 00,00000003 (test/board.cue:20)") {
				t.Errorf("a value without a final newline: exit %d\n%s", code, out)
			}
			makeTree(t, c.root, map[string]string{rx0: "00,00000003\nmore\n"})
			if out, code := run(); code != tune.ExitFailed || !strings.Contains(out, "tune.sh: cannot save the multi-line value of /sys/class/net/eth0/queues/rx-0/rps_cpus\n") {
				t.Errorf("a value of two lines: exit %d\n%s", code, out)
			}
		})
	}
}
