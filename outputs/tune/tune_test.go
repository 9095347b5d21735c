package tune_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/testtool"
	"boardc.dev/boardc/outputs"
	"boardc.dev/boardc/outputs/tune"
)

func TestCPUMask(t *testing.T) {
	for _, c := range []struct {
		cpus []int
		want string
	}{
		{nil, "0"},
		{[]int{0}, "1"},
		{[]int{0, 1}, "3"},
		{[]int{1, 0, 1}, "3"},
		{[]int{4, 5, 6, 7}, "f0"},
		{[]int{31}, "80000000"},
		{[]int{32}, "1,00000000"},
		{[]int{0, 32}, "1,00000001"},
		{[]int{32, 39}, "81,00000000"},
		{[]int{33}, "2,00000000"},
		{[]int{0, 64}, "1,00000000,00000001"},
		{[]int{127}, "80000000,00000000,00000000,00000000"},
		{cpus(40), "ff,ffffffff"},
	} {
		if got := ir.CPUMask(c.cpus); got != c.want {
			t.Errorf("CPUMask(%v) = %q, want %q", c.cpus, got, c.want)
		}
	}
}

func TestCPUList(t *testing.T) {
	for _, c := range []struct {
		cpus []int
		want string
	}{
		{nil, ""},
		{[]int{0}, "0"},
		{[]int{1, 0}, "0-1"},
		{[]int{0, 2}, "0,2"},
		{[]int{0, 1, 2, 5, 7, 8}, "0-2,5,7-8"},
		{[]int{3, 3, 4}, "3-4"},
		{cpus(40), "0-39"},
	} {
		if got := ir.CPUList(c.cpus); got != c.want {
			t.Errorf("CPUList(%v) = %q, want %q", c.cpus, got, c.want)
		}
	}
}

func TestFiles(t *testing.T) {
	b := testBoard()
	var paths []string
	for _, f := range tune.Emit(b) {
		paths = append(paths, f.Path)
	}
	want := []string{"boardc-tune-testboard.service", "boardc-tune-testboard@.service", "cmdline.txt",
		"init.d/S40boardc-tune-testboard", "irqbalance-policy.sh", "irqbalance.env",
		"irqbalance.service.d/90-boardc-testboard.conf", "openwrt/hotplug.d/net/90-boardc-testboard",
		"openwrt/init.d/boardc-tune-testboard", "sysctl.d/90-boardc-testboard.conf", "tune.sh",
		"udev/90-boardc-testboard.rules"}
	if strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Errorf("files %q, want %q", paths, want)
	}

	// Only the parts a board has.
	b.Policy = ir.Policy{Net: b.Policy.Net}
	paths = nil
	for _, f := range tune.Emit(b) {
		paths = append(paths, f.Path)
	}
	if strings.Join(paths, " ") != "boardc-tune-testboard.service boardc-tune-testboard@.service init.d/S40boardc-tune-testboard "+
		"openwrt/hotplug.d/net/90-boardc-testboard openwrt/init.d/boardc-tune-testboard tune.sh udev/90-boardc-testboard.rules" {
		t.Errorf("net only: files %q", paths)
	}
	// IRQs without irqbalanceBan: no policy script, no drop-in, and no
	// per-interface files.
	b.Policy = ir.Policy{IRQs: testBoard().Policy.IRQs}
	if fs := tune.Emit(b); len(fs) != 4 {
		t.Errorf("IRQs without irqbalanceBan: %d files, want 4", len(fs))
	}
	b.Policy = ir.Policy{}
	if fs := tune.Emit(b); len(fs) != 0 {
		t.Errorf("no policy: %d files, want none", len(fs))
	}
}

// TestCmdline checks the kernel command-line fragment: one line that is
// not a comment, the housekeeping CPUs for irqaffinity= and the isolated
// ones for the rest.
func TestCmdline(t *testing.T) {
	fragment := func(b *ir.Board) []string {
		var frag []string
		for _, l := range strings.Split(tune.Cmdline(b), "\n") {
			if l != "" && !strings.HasPrefix(l, "#") {
				frag = append(frag, l)
			}
		}
		return frag
	}
	want := "irqaffinity=0-37 isolcpus=managed_irq,domain,38-39 nohz_full=38-39 rcu_nocbs=38-39"
	if frag := fragment(testBoard()); len(frag) != 1 || frag[0] != want {
		t.Errorf("fragment %q, want [%q]", frag, want)
	}
	// The cgroup v2 way beside it: the fragment without isolcpus=, and an
	// isolated cpuset partition of the isolated CPUs.
	c := tune.Cmdline(testBoard())
	for _, w := range []string{
		"#   irqaffinity=0-37 nohz_full=38-39 rcu_nocbs=38-39\n",
		"#   echo 38-39 > /sys/fs/cgroup/isolated/cpuset.cpus\n",
		"#   echo isolated > /sys/fs/cgroup/isolated/cpuset.cpus.partition\n",
	} {
		if !strings.Contains(c, w) {
			t.Errorf("cmdline.txt lacks %q:\n%s", w, c)
		}
	}
	// Every CPU isolated: no housekeeping CPU to give irqaffinity=.
	b := testBoard()
	b.Policy.IsolatedCPUs = cpus(40)
	want = "isolcpus=managed_irq,domain,0-39 nohz_full=0-39 rcu_nocbs=0-39"
	if frag := fragment(b); len(frag) != 1 || frag[0] != want {
		t.Errorf("all isolated: fragment %q, want [%q]", frag, want)
	}
}

func TestHeaders(t *testing.T) {
	for _, f := range tune.Emit(testBoard()) {
		s := string(f.Data)
		for _, want := range []string{"SPDX-License-Identifier:", outputs.GeneratedNotice, "board testboard"} {
			if !strings.Contains(s, want) {
				t.Errorf("%s: no %q in the header", f.Path, want)
			}
		}
	}
}

func TestScriptContent(t *testing.T) {
	s := tune.Script(testBoard())
	for _, want := range []string{
		"# test/board.cue:10: IRQs named d0090000.crypto (declared by no master) on CPUs 0-1\n\tpin_irq 'd0090000.crypto' '0-1' set '' 'test/board.cue:10'\n",
		"pin_irq 'eth1' '3-5,7' set '' 'test/board.cue:13'",
		"act net mask '/sys/class/net/eth0/queues/rx-1/rps_cpus' '2,00000000' 'test/board.cue:20'",
		"act net mask '/sys/class/net/eth0/queues/tx-1/xps_cpus' '81,00000000' 'test/board.cue:20'",
		"rps_flow_cnt 1000, rounded up to a power of two",
		"act net text '/sys/class/net/eth0/queues/rx-1/rps_flow_cnt' '1024' 'test/board.cue:20'",
		"act sysctl text '/proc/sys/net/core/rps_sock_flow_entries' '32768' 'test/board.cue:31'",
		"act sysctl text '/proc/sys/net/ipv4/ip_local_port_range' '20000 60000' 'test/board.cue:32'",
		"\t'vendor,testboard') return 0 ;;\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("tune.sh lacks %q", want)
		}
	}
	// The SoC compatible does not identify the board.
	if strings.Contains(s, "'vendor,testsoc') return 0") {
		t.Error("tune.sh accepts any board of the SoC")
	}
}

// TestScriptOneCPU: on an SoC with one CPU tune.sh says why it writes no
// RPS or RFS (BC0415), and still writes the XPS masks.
func TestScriptOneCPU(t *testing.T) {
	b := testBoard()
	b.SoC.Clusters = []ir.Cluster{{Core: "arm,cortex-a9", CPUs: []int{0}}}
	b.Policy.Net[0].XPS = [][]int{{0}}
	s := tune.Script(b)
	for _, want := range []string{
		"# test/board.cue:20: no RPS or RFS on eth0: the SoC has one CPU",
		"act net mask '/sys/class/net/eth0/queues/tx-0/xps_cpus' '1' 'test/board.cue:20'",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("tune.sh lacks %q", want)
		}
	}
	for _, bad := range []string{"/rps_cpus'", "/rps_flow_cnt'"} {
		if strings.Contains(s, bad) {
			t.Errorf("tune.sh writes %s on a one-CPU SoC", strings.Trim(bad, "/'"))
		}
	}
}

func TestSysctlConf(t *testing.T) {
	b := testBoard()
	b.Policy.Sysctls[1].Value = "30000"
	s := tune.SysctlConf(b)
	for _, want := range []string{
		"# test/board.cue:30\nnet.core.netdev_budget = 600\n",
		"# 30000 rounded up to a power of two, as the kernel stores it\nnet.core.rps_sock_flow_entries = 32768\n",
		"net.ipv4.ip_local_port_range = 20000 60000\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("sysctl.d file lacks %q:\n%s", want, s)
		}
	}
}

// TestSysctlConfRefused: a key or value a conf file cannot hold as it is
// is left out of the sysctl.d file with the reason, never altered; the
// other sysctls are written, and tune.sh still sets every one.
func TestSysctlConfRefused(t *testing.T) {
	b := testBoard()
	b.Policy.Sysctls[0].Value = "600 "
	b.Policy.Sysctls[2].Key = "net.ipv4.ip_local\nport_range"
	s := tune.SysctlConf(b)
	for _, want := range []string{
		"# test/board.cue:30\n# skipped net.core.netdev_budget: \"600 \" has a blank at its start or end, which the readers of the file strip\n",
		"net.core.rps_sock_flow_entries = 32768\n",
		"# test/board.cue:32\n# skipped the key: \"net.ipv4.ip_local\\nport_range\" holds a control character, a line separator, a bidirectional control or a byte that is not UTF-8\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("sysctl.d file lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "netdev_budget =") || strings.Contains(s, "port_range =") {
		t.Errorf("sysctl.d file writes a refused sysctl:\n%s", s)
	}
	if script := tune.Script(b); !strings.Contains(script, "'/proc/sys/net/core/netdev_budget' '600 '") {
		t.Errorf("tune.sh does not set net.core.netdev_budget to '600 '")
	}
}

// TestUnit checks the systemd side: the boot unit places IRQs and sets
// sysctls and waits on no device unit; the udev rule starts the template
// unit per interface under its final name, escaped (TestUdevRule has the
// rest); the irqbalance drop-in passes
// the policy-script directory and comes after the boot unit.
func TestUnit(t *testing.T) {
	b := testBoard()
	b.Policy.Net = append(b.Policy.Net, ir.NetPolicy{IfName: "br-lan", RPSFlowCount: -1, Pos: at(25)})
	files := map[string]string{}
	for _, f := range tune.Emit(b) {
		files[f.Path] = string(f.Data)
	}
	for path, wants := range map[string][]string{
		"boardc-tune-testboard.service": {
			"Type=oneshot\n", "RemainAfterExit=yes\n", "SuccessExitStatus=4\n",
			"ExecStart=/bin/sh /usr/libexec/boardc/testboard/tune.sh --only irq,sysctl\n",
			"ExecStop=/bin/sh /usr/libexec/boardc/testboard/tune.sh --revert\n",
			"Before=network-pre.target shutdown.target\n",
		},
		"boardc-tune-testboard@.service": {
			"Description=boardc runtime tuning of board testboard: %I\n",
			"After=boardc-tune-testboard.service\n",
			"ExecStart=/bin/sh /usr/libexec/boardc/testboard/tune.sh --instance %I\n",
			"SuccessExitStatus=4\n",
		},
		"udev/90-boardc-testboard.rules": {
			`ACTION=="add|move", SUBSYSTEM=="net", KERNEL=="br-lan", PROGRAM="/usr/bin/systemd-escape --template=boardc-tune-testboard@.service $name", TAG+="systemd", ENV{SYSTEMD_WANTS}+="%c"` + "\n",
		},
		"irqbalance.service.d/90-boardc-testboard.conf": {
			"[Unit]\nAfter=boardc-tune-testboard.service\n",
			"EnvironmentFile=-/usr/libexec/boardc/testboard/irqbalance.env\n",
			"ExecStart=\nExecStart=/usr/sbin/irqbalance --foreground $IRQBALANCE_ARGS --policyscript=/usr/libexec/boardc/irqbalance.d\n",
		},
	} {
		for _, want := range wants {
			if !strings.Contains(files[path], want) {
				t.Errorf("%s lacks %q:\n%s", path, want, files[path])
			}
		}
	}
	if u := files["boardc-tune-testboard.service"]; strings.Contains(u, ".device") {
		t.Errorf("the boot unit waits on a device:\n%s", u)
	}
}

func TestIrqbalanceEnv(t *testing.T) {
	s := tune.IrqbalanceEnvFile(testBoard())
	if !strings.Contains(s, "# test/board.cue:40: isolated CPUs\nIRQBALANCE_BANNED_CPULIST=38-39\n") {
		t.Errorf("irqbalance.env:\n%s", s)
	}
}

// hostileBoard is testBoard with names that would run commands if they
// reached the shell unquoted, or end a comment if printed raw. Each
// command would create a file named pwned* in the working directory.
func hostileBoard() *ir.Board {
	b := testBoard()
	b.Model = "Evil\ntouch pwned0"
	b.Compatible = []string{"vendor,x'$(touch${IFS}pwned1)'", "vendor,*"}
	b.Policy.IRQs = []ir.IRQPin{
		{IRQ: "$(touch${IFS}pwned2)", CPUs: []int{1}, Pos: at(10)},
		{IRQ: "`touch${IFS}pwned3`", CPUs: []int{2}, Pos: at(11)},
		{IRQ: "a;touch${IFS}pwned4", CPUs: []int{3}, Pos: at(12)},
	}
	b.Policy.Net = []ir.NetPolicy{{
		IfName: "e'\";touch${IFS}pwned5;#", RPS: [][]int{{0}}, RPSFlowCount: -1,
		Pos: ir.Pos{File: "x\ntouch pwned6", Line: 1},
	}}
	b.Policy.Sysctls = []ir.Sysctl{
		{Key: "net.core.x$(touch${IFS}pwned7)", Value: "$(touch${IFS}pwned8)", Pos: at(30)},
		{Key: "net.core.y", Value: "1\nkernel.panic = 1", Pos: at(31)},
	}
	b.Policy.IsolatedCPUs = nil
	return b
}

func hostileRoot() map[string]string {
	return map[string]string{
		"proc/device-tree/compatible": "vendor,x'$(touch${IFS}pwned1)'\x00",
		"proc/interrupts": interruptsHeader +
			" 40:   0   0   0   0   GICv3  80 Level   $(touch${IFS}pwned2)\n" +
			" 41:   0   0   0   0   GICv3  81 Level   `touch${IFS}pwned3`\n" +
			" 42:   0   0   0   0   GICv3  82 Level   a;touch${IFS}pwned4\n",
		"proc/irq/40/smp_affinity_list":                               "0-39\n",
		"proc/irq/41/smp_affinity_list":                               "0-39\n",
		"proc/irq/42/smp_affinity_list":                               "0-39\n",
		"sys/class/net/e'\";touch${IFS}pwned5;#/queues/rx-0/rps_cpus": "0\n",
		"proc/sys/net/core/x$(touch${IFS}pwned7)":                     "0\n",
		"proc/sys/net/core/y":                                         "0\n",
		"run/.keep":                                                   "",
	}
}

// TestHostileNames runs the scripts of a board with hostile names against
// a root that has those names, and checks that no command ran, that the
// values reached the files named, and that no comment was broken.
func TestHostileNames(t *testing.T) {
	t.Parallel()
	b := hostileBoard()
	files := tune.Emit(b)
	// SC2016 and SC1003 ask whether a '$', '`' or '\'' inside single
	// quotes was meant to expand: here they are meant literally, which is
	// the point of the test.
	shellcheck(t, files, "SC2016", "SC1003")
	for _, f := range files {
		for _, line := range strings.Split(string(f.Data), "\n") {
			// In a script a quoted value may span lines; elsewhere no
			// value may.
			if strings.HasPrefix(line, "touch") ||
				!strings.HasSuffix(f.Path, ".sh") && strings.HasPrefix(line, "kernel.panic") {
				t.Errorf("%s: a name broke out of its line: %q", f.Path, line)
			}
		}
	}
	out := writeOutputs(t, files)
	root := t.TempDir()
	makeTree(t, root, hostileRoot())
	work := t.TempDir()
	script := filepath.Join(out, "tune.sh")

	r := runSh(t, work, nil, script, "--root", root)
	if r.code != 0 {
		t.Fatalf("apply: %v", r)
	}
	got := snapshot(t, root)
	for path, want := range map[string]string{
		"proc/irq/40/smp_affinity_list":                               "1\n",
		"proc/irq/41/smp_affinity_list":                               "2\n",
		"proc/irq/42/smp_affinity_list":                               "3\n",
		"sys/class/net/e'\";touch${IFS}pwned5;#/queues/rx-0/rps_cpus": "1\n",
		"proc/sys/net/core/x$(touch${IFS}pwned7)":                     "$(touch${IFS}pwned8)\n",
		"proc/sys/net/core/y":                                         "1\nkernel.panic = 1\n",
	} {
		if got[path] != want {
			t.Errorf("%s = %q, want %q", path, got[path], want)
		}
	}
	if r := runSh(t, work, nil, script, "--root", root, "--verify"); r.code != 0 {
		t.Errorf("verify: %v", r)
	}
	if r := runSh(t, work, nil, script, "--root", root, "--revert"); r.code != 0 {
		t.Errorf("revert: %v", r)
	}
	policy := filepath.Join(out, "irqbalance-policy.sh")
	for _, irq := range []string{"40", "41", "42"} {
		r := runSh(t, work, []string{"BOARDC_ROOT=" + root}, policy, "/sys/devices/x", irq)
		if r.code != 0 || r.stdout != "ban=true\n" {
			t.Errorf("policy script for IRQ %s: %v", irq, r)
		}
	}

	// A compatible is a literal, not a pattern: "vendor,*" matches no
	// other board.
	makeTree(t, root, map[string]string{"proc/device-tree/compatible": "vendor,other\x00"})
	if r := runSh(t, work, nil, script, "--root", root); r.code != tune.ExitRefused {
		t.Errorf("vendor,* matched vendor,other: %v", r)
	}

	for _, dir := range []string{work, out, root} {
		for name := range snapshot(t, dir) {
			if strings.Contains(filepath.Base(name), "pwned") && !strings.Contains(name, "$") && !strings.Contains(name, "`") {
				t.Errorf("a name ran a command: %s created", filepath.Join(dir, name))
			}
		}
	}
	if _, err := os.Stat("pwned0"); err == nil {
		t.Error("pwned0 created in the package directory")
	}
}

// TestUnitVerify has systemd check the units of the test board and of a
// board with interface names that need escaping: the boot unit, an
// instance of the template unit (systemd verifies no bare template), and
// the irqbalance drop-in over a minimal irqbalance unit in a root of its
// own (--root), with a stand-in irqbalance binary.
func TestUnitVerify(t *testing.T) {
	sa := testtool.Look(t, "systemd-analyze", "systemd")
	b := testBoard()
	b.Policy.Net = append(b.Policy.Net, ir.NetPolicy{IfName: "br-lan.7", RPSFlowCount: -1, Pos: at(25)})
	for _, b := range []*ir.Board{testBoard(), b} {
		dir := t.TempDir()
		var units []string
		for _, f := range tune.Emit(b) {
			switch {
			case f.Path == tune.UnitFile(b):
				units = append(units, filepath.Join(dir, f.Path))
				makeTree(t, dir, map[string]string{f.Path: string(f.Data)})
			case f.Path == tune.TemplateUnitFile(b):
				inst := strings.Replace(f.Path, "@", `@br\x2dlan.7`, 1)
				// A master's instance has a ':', which verify reads as
				// FILE:UNIT: the template file under the instance's name.
				master := filepath.Join(dir, f.Path) + ":" + strings.Replace(f.Path, "@", `@master:crypto`, 1)
				units = append(units, filepath.Join(dir, inst), master)
				makeTree(t, dir, map[string]string{f.Path: string(f.Data), inst: string(f.Data)})
			}
		}
		out, err := exec.Command(sa, append([]string{"verify", "--man=no"}, units...)...).CombinedOutput()
		if err != nil || len(out) > 0 {
			t.Errorf("systemd-analyze verify %q: %v\n%s", units, err, out)
		}

		root := t.TempDir()
		for _, f := range tune.Emit(b) {
			if strings.HasPrefix(f.Path, "irqbalance.service.d/") {
				makeTree(t, root, map[string]string{"etc/systemd/system/" + f.Path: string(f.Data)})
			}
		}
		makeTree(t, root, map[string]string{
			"etc/systemd/system/irqbalance.service": "[Unit]\nDescription=irqbalance daemon\nDefaultDependencies=no\n[Service]\nExecStart=/usr/sbin/irqbalance --foreground\n",
			"usr/sbin/irqbalance":                   "#!/bin/sh\n",
		})
		if err := os.Chmod(filepath.Join(root, "usr/sbin/irqbalance"), 0o755); err != nil {
			t.Fatal(err)
		}
		out, err = exec.Command(sa, "verify", "--man=no", "--root="+root, "/etc/systemd/system/irqbalance.service").CombinedOutput()
		if err != nil || len(out) > 0 {
			t.Errorf("systemd-analyze verify of irqbalance.service with the drop-in: %v\n%s", err, out)
		}
	}
}

// TestUnitNamesTemplateOnlyWithInterfaces: the boot unit points at the
// per-interface template unit only on a board that has one.
func TestUnitNamesTemplateOnlyWithInterfaces(t *testing.T) {
	b := testBoard()
	if len(b.Policy.Net) == 0 {
		t.Fatal("testBoard has no interface policy")
	}
	if u := tune.Unit(b); !strings.Contains(u, tune.TemplateUnitFile(b)) {
		t.Errorf("with interfaces, the unit does not name %s:\n%s", tune.TemplateUnitFile(b), u)
	}
	b.Policy.Net = nil
	if u := tune.Unit(b); strings.Contains(u, "@.service") {
		t.Errorf("without interfaces, the unit names a template unit:\n%s", u)
	}
}
