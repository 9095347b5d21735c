package tune_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs/tune"
)

// ifaceBoard has one interface found each way: eth0 by its master's node
// through a DT alias, eth1 by the node of a parent device (a PCI host
// bridge), eth2 by DPAA2 object, eth3 by a node two netdevs share, and
// eth4 by name.
func ifaceBoard() *ir.Board {
	b := testBoard()
	b.Policy.IRQs, b.Policy.Sysctls, b.Policy.IsolatedCPUs = nil, nil, nil
	master := func(key, path string, nd ir.NetDev) *ir.Master {
		nd.RxQueues, nd.TxQueues = 1, 1
		return &ir.Master{Key: key, Node: ir.Node{Path: path}, NetDevs: []ir.NetDev{nd}}
	}
	b.SoC.Masters = []*ir.Master{
		master("eth", "/soc/internal-regs/ethernet@30000", ir.NetDev{Name: "eth0", Alias: "ethernet0"}),
		master("pcie", "/pcie@10000000", ir.NetDev{Name: "eth1"}),
		master("fsl_mc", "/soc/fsl-mc@80c000000", ir.NetDev{Name: "eth2", DPNI: 4, HasDPNI: true}),
		master("switch", "/soc/switch@0", ir.NetDev{Name: "eth3"}),
		master("usb", "/soc/usb@58000", ir.NetDev{Name: "eth4", ByName: true}),
	}
	b.Policy.Net = nil
	for i, n := range []string{"eth0", "eth1", "eth2", "eth3", "eth4"} {
		b.Policy.Net = append(b.Policy.Net, ir.NetPolicy{IfName: n, RPS: [][]int{{1}}, RPSFlowCount: -1, Pos: at(20 + i)})
	}
	b.ResolvePolicy()
	return b
}

// ifaceRoot is a root whose netdevs carry other names than the
// description's: end0 (the alias's node, moved from where the description
// says), enp0s1 (a virtio device below a PCI host bridge, the bridge
// having the of_node), eth7 (dpni.4), sw0 and sw1 (one switch node), and
// a virtual eth1 and eth4 with no device at all.
func ifaceRoot() map[string]string {
	f := fakeRoot()
	for k := range f {
		if strings.HasPrefix(k, "sys/class/net/") {
			delete(f, k)
		}
	}
	dt := "sys/firmware/devicetree/base"
	net := func(name, dev string) {
		f["sys/class/net/"+name] = symlink + "../../" + dev + "/net/" + name
		f[dev+"/net/"+name+"/queues/rx-0/rps_cpus"] = "00,00000000\n"
	}
	f["proc/device-tree/aliases/ethernet0"] = "/soc/bus@d0000000/ethernet@30000\x00"
	f[dt+"/soc/bus@d0000000/ethernet@30000/"] = ""
	f[dt+"/pcie@10000000/"] = ""
	f[dt+"/soc/fsl-mc@80c000000/"] = ""
	f[dt+"/soc/switch@0/ports/port@1/"] = ""
	f[dt+"/soc/switch@0/ports/port@2/"] = ""

	f["devices/platform/soc/d0030000.ethernet/of_node"] = symlink + "../../../../sys/firmware/devicetree/base/soc/bus@d0000000/ethernet@30000"
	net("end0", "devices/platform/soc/d0030000.ethernet")

	f["devices/platform/4010000000.pcie/of_node"] = symlink + "../../../sys/firmware/devicetree/base/pcie@10000000"
	net("enp0s1", "devices/platform/4010000000.pcie/pci0000:00/0000:00:01.0/virtio0")

	f["devices/platform/80c000000.fsl-mc/of_node"] = symlink + "../../../sys/firmware/devicetree/base/soc/fsl-mc@80c000000"
	net("eth7", "devices/platform/80c000000.fsl-mc/dprc.1/dpni.4")
	f["devices/platform/80c000000.fsl-mc/dprc.1/dpni.4/net/eth7/device"] = symlink + "../.."
	net("eth8", "devices/platform/80c000000.fsl-mc/dprc.1/dpni.5")
	f["devices/platform/80c000000.fsl-mc/dprc.1/dpni.5/net/eth8/device"] = symlink + "../.."

	f["devices/platform/soc/switch/port1/of_node"] = symlink + "../../../../../sys/firmware/devicetree/base/soc/switch@0/ports/port@1"
	net("sw0", "devices/platform/soc/switch/port1")
	f["devices/platform/soc/switch/port2/of_node"] = symlink + "../../../../../sys/firmware/devicetree/base/soc/switch@0/ports/port@2"
	net("sw1", "devices/platform/soc/switch/port2")

	net("eth1", "devices/virtual")
	net("eth4", "devices/virtual")
	// sysfs lives at ROOT/sys: move the devices below it.
	g := map[string]string{}
	for k, v := range f {
		if strings.HasPrefix(k, "devices/") {
			k = "sys/" + k
			v = strings.Replace(v, symlink+"../../../../sys/", symlink+"../../../../", 1)
			v = strings.Replace(v, symlink+"../../../sys/", symlink+"../../../", 1)
			v = strings.Replace(v, symlink+"../../../../../sys/", symlink+"../../../../../", 1)
		}
		g[k] = v
	}
	return g
}

func TestRootInterfaces(t *testing.T) {
	t.Parallel()
	out := writeOutputs(t, tune.Emit(ifaceBoard()))
	script := filepath.Join(out, tune.ScriptFile)
	root, work := t.TempDir(), t.TempDir()
	makeTree(t, root, ifaceRoot())
	orig := snapshot(t, root)
	run := func(args ...string) result {
		return runSh(t, work, nil, script, append([]string{"--root", root}, args...)...)
	}
	rps := func(dev string) string {
		return "sys/devices/" + dev + "/queues/rx-0/rps_cpus"
	}
	devs := map[string]string{
		"end0":   "platform/soc/d0030000.ethernet/net/end0",
		"enp0s1": "platform/4010000000.pcie/pci0000:00/0000:00:01.0/virtio0/net/enp0s1",
		"eth7":   "platform/80c000000.fsl-mc/dprc.1/dpni.4/net/eth7",
		"eth8":   "platform/80c000000.fsl-mc/dprc.1/dpni.5/net/eth8",
		"sw0":    "platform/soc/switch/port1/net/sw0",
		"eth1":   "virtual/net/eth1",
		"eth4":   "virtual/net/eth4",
	}
	tuned := func(t *testing.T, want ...string) {
		t.Helper()
		got := snapshot(t, root)
		for name, dev := range devs {
			w := orig[rps(dev)]
			for _, n := range want {
				if n == name {
					w = "2\n"
				}
			}
			if got[rps(dev)] != w {
				t.Errorf("%s rps_cpus = %q, want %q", name, got[rps(dev)], w)
			}
		}
	}

	r := run("--interface", "enp0s1")
	if r.code != 0 || !strings.Contains(r.stdout, "interface eth1 is enp0s1 (node /pcie@10000000)\n") {
		t.Errorf("--interface enp0s1: %v", r)
	}
	tuned(t, "enp0s1")
	if r := run("--interface", "eth0"); r.code != 0 || !strings.Contains(r.stdout, "interface eth0 is end0 (node /soc/internal-regs/ethernet@30000)\n") {
		t.Errorf("--interface eth0, the description's name: %v", r)
	}
	tuned(t, "enp0s1", "end0")
	if r := run("--interface", "lo"); r.code != 0 || r.stdout != "lo is not an interface of board testboard: nothing to do\n" {
		t.Errorf("--interface lo: %v", r)
	}
	if r := run("--interface", "../eth0"); r.code != tune.ExitUsage {
		t.Errorf("--interface ../eth0: %v", r)
	}

	r = run()
	if r.code != tune.ExitPartial ||
		!strings.Contains(r.stderr, "tune.sh: warning: interface eth3 (node /soc/switch@0) is each of sw0 sw1: none tuned (test/board.cue:23)\n") ||
		!strings.Contains(r.stdout, "interface eth2 is eth7 (dpni 4)\n") {
		t.Errorf("apply: %v", r)
	}
	// eth4 is found by name; the virtual eth1 is not the description's
	// eth1, whose hardware is enp0s1.
	tuned(t, "enp0s1", "end0", "eth7", "eth4")
	if r := run("--verify"); r.code != tune.ExitPartial || !strings.Contains(r.stdout, "no drift") {
		t.Errorf("verify: %v", r)
	}
	if r := run("--revert"); r.code != 0 {
		t.Errorf("revert: %v", r)
	}
	if d := treeDiff(orig, snapshot(t, root)); len(d) > 0 {
		t.Errorf("revert did not restore the root:\n%s", strings.Join(d, "\n"))
	}
}

// irqIfaceBoard is ifaceBoard whose masters declare IRQs the policy pins:
// eth (eth0's master) the IRQ eth0, pcie (eth1's) the IRQ eth1, and
// crypto, which has no interface, the EIP97 rings.
func irqIfaceBoard() *ir.Board {
	b := ifaceBoard()
	ms := b.SoC.Masters
	ms[0].IRQs = []ir.IRQ{{Key: "port", Name: "eth0", Count: 1}}
	ms[1].IRQs = []ir.IRQ{{Key: "msi", Name: "eth1", Count: 1}}
	b.SoC.Masters = append(ms, &ir.Master{Key: "crypto", Node: ir.Node{Path: "/soc/crypto@90000"},
		IRQs: []ir.IRQ{{Key: "rings", Name: "d0090000.crypto", Count: 4}}})
	b.Policy.IRQs = []ir.IRQPin{
		{IRQ: "d0090000.crypto", CPUs: []int{1, 0}, Pos: at(10)},
		{IRQ: "eth0", CPUs: []int{2}, Pos: at(11)},
		{IRQ: "eth1", CPUs: []int{3, 5, 4, 7}, Pos: at(13)},
	}
	b.ResolvePolicy()
	return b
}

// TestRootInterfaceIRQs: --interface places the IRQs of the master that
// owns the interface, by either of its names, and no other IRQ; its saved
// values join the boot run's, and a revert restores the root exactly,
// also after a driver reload renumbered the IRQ.
func TestRootInterfaceIRQs(t *testing.T) {
	t.Parallel()
	b := irqIfaceBoard()
	s := tune.Script(b)
	for _, want := range []string{
		"# test/board.cue:11: IRQs named eth0 (master eth) on CPU 2\n\tpin_irq 'eth0' '2' set 'eth' 'test/board.cue:11'\n",
		"\tiface 'eth1' node '/pcie@10000000' '' 'pcie' 'test/board.cue:21'\n",
		"\tiface 'eth2' dpni '4' '' 'fsl_mc' 'test/board.cue:22'\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("tune.sh lacks %q", want)
		}
	}
	out := writeOutputs(t, tune.Emit(b))
	script := filepath.Join(out, tune.ScriptFile)
	root, work := t.TempDir(), t.TempDir()
	makeTree(t, root, ifaceRoot())
	orig := snapshot(t, root)
	run := func(args ...string) result {
		return runSh(t, work, nil, script, append([]string{"--root", root}, args...)...)
	}
	affinity := func(n string) string { return snapshot(t, root)["proc/irq/"+n+"/smp_affinity_list"] }
	// only checks that the IRQs named are placed as want says and every
	// other IRQ is as it was.
	only := func(t *testing.T, want map[string]string) {
		t.Helper()
		for _, n := range []string{"3", "4", "7", "21", "22", "23", "24", "25", "30", "31", "32", "33"} {
			w, ok := want[n]
			if !ok {
				w = orig["proc/irq/"+n+"/smp_affinity_list"]
			}
			if got := affinity(n); got != w {
				t.Errorf("IRQ %s: smp_affinity_list %q, want %q", n, got, w)
			}
		}
	}

	r := run("--interface", "end0", "--dry-run")
	if r.code != 0 || !strings.Contains(r.stdout, "would write 2 to /proc/irq/30/smp_affinity_list, now 0-39 (IRQ 30 eth0, test/board.cue:11)\n") ||
		strings.Contains(r.stdout, "/proc/irq/33/") || strings.Contains(r.stdout, "/proc/irq/21/") {
		t.Errorf("--interface end0 --dry-run: %v", r)
	}
	only(t, nil)
	// end0 is the description's eth0: its master eth declares IRQ eth0.
	r = run("--interface", "end0")
	if r.code != 0 || !strings.Contains(r.stdout, "set /proc/irq/30/smp_affinity_list = 2, was 0-39 (IRQ 30 eth0, test/board.cue:11)\n") {
		t.Errorf("--interface end0: %v", r)
	}
	only(t, map[string]string{"30": "2\n"})
	if r := run("--interface", "end0", "--verify"); r.code != 0 || r.stdout != "board testboard: no drift\n" {
		t.Errorf("--interface end0 --verify: %v", r)
	}
	// --verify of the other interface sees its master's IRQ undone, not
	// eth0's or the rings.
	if r := run("--interface", "enp0s1", "--verify"); r.code != tune.ExitDrift ||
		r.stdout != "drift: /sys/class/net/enp0s1/queues/rx-0/rps_cpus is 00,00000000, want 2 (test/board.cue:21)\n"+
			"drift: /proc/irq/33/smp_affinity_list is 0-39, want 3-5,7 (IRQ 33 eth1, test/board.cue:13)\n" {
		t.Errorf("--interface enp0s1 --verify: %v", r)
	}
	// The netdev eth1 is not the board's: the kernel's name is what udev
	// passes, so the description's eth1 (enp0s1) is not meant.
	if r := run("--interface", "eth1"); r.code != 0 || r.stdout != "eth1 is not an interface of board testboard: nothing to do\n" {
		t.Errorf("--interface eth1: %v", r)
	}
	only(t, map[string]string{"30": "2\n"})
	// --only narrows --interface; the sysctls are never its part.
	if r := run("--interface", "enp0s1", "--only", "irq"); r.code != 0 || strings.Contains(r.stdout, "rps_cpus") {
		t.Errorf("--interface enp0s1 --only irq: %v", r)
	}
	only(t, map[string]string{"30": "2\n", "33": "3-5,7\n"})
	if r := run("--interface", "enp0s1", "--only", "sysctl"); r.code != tune.ExitUsage ||
		r.stderr != "tune.sh: --interface tunes only the parts irq and net\nTry tune.sh --help.\n" {
		t.Errorf("--interface enp0s1 --only sysctl: %v", r)
	}

	// The boot run places the rest and keeps the values saved first.
	if r := run(); r.code != tune.ExitPartial {
		t.Errorf("apply: %v", r)
	}
	only(t, map[string]string{"30": "2\n", "33": "3-5,7\n", "21": "0-1\n", "22": "0-1\n", "23": "0-1\n", "24": "0-1\n"})
	// A run that overlapped another appends what it read after the first
	// line of the key: the first line is what a revert restores.
	state := filepath.Join(root, "run/boardc/testboard.state")
	f, err := os.OpenFile(state, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("irq 30 eth0\t2\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if r := run("--revert"); r.code != 0 {
		t.Errorf("revert: %v", r)
	}
	if d := treeDiff(orig, snapshot(t, root)); len(d) > 0 {
		t.Errorf("revert did not restore the root:\n%s", strings.Join(d, "\n"))
	}

	// A driver reload: eth0's IRQ comes back as 40, at its default
	// affinity, after the boot run; --interface places it, and a revert
	// restores it and warns about the number that is gone.
	if r := run(); r.code != tune.ExitPartial {
		t.Errorf("apply: %v", r)
	}
	reload := map[string]string{
		"proc/interrupts": strings.Replace(orig["proc/interrupts"], " 30:       1234          0          0          0     GICv3  74 Level     eth0\n",
			" 40:          3          0          0          0     GICv3  74 Level     eth0\n", 1),
		"proc/irq/40/smp_affinity_list": "0-39\n",
	}
	makeTree(t, root, reload)
	if err := os.RemoveAll(filepath.Join(root, "proc/irq/30")); err != nil {
		t.Fatal(err)
	}
	r = run("--interface", "end0")
	if r.code != 0 || !strings.Contains(r.stdout, "set /proc/irq/40/smp_affinity_list = 2, was 0-39 (IRQ 40 eth0, test/board.cue:11)\n") {
		t.Errorf("--interface end0 after the reload: %v", r)
	}
	if got := affinity("33"); got != "3-5,7\n" {
		t.Errorf("IRQ 33 after the reload: %q", got)
	}
	r = run("--revert")
	if r.code != tune.ExitPartial || !strings.Contains(r.stdout, "restored /proc/irq/40/smp_affinity_list = 0-39\n") ||
		!strings.Contains(r.stderr, "tune.sh: warning: not restoring IRQ 30 to 0-39: it is no longer named eth0 (a driver reload may have given its number to another device)\n") {
		t.Errorf("revert after the reload: %v", r)
	}
	for k, v := range reload {
		orig[k] = v
	}
	delete(orig, "proc/irq/30/")
	delete(orig, "proc/irq/30/smp_affinity_list")
	orig["proc/irq/40/"] = ""
	if d := treeDiff(orig, snapshot(t, root)); len(d) > 0 {
		t.Errorf("revert after the reload did not restore the root:\n%s", strings.Join(d, "\n"))
	}

	// Names swapped: the netdev eth0 is the description's eth1 (pcie's),
	// and the kernel's name wins over the description's eth0.
	link := filepath.Join(root, "sys/class/net/enp0s1")
	target, err := os.Readlink(link)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(root, "sys/class/net/eth0")); err != nil {
		t.Fatal(err)
	}
	renamed := snapshot(t, root)
	r = run("--interface", "eth0")
	if r.code != 0 || !strings.Contains(r.stdout, "interface eth1 is eth0 (node /pcie@10000000)\n") ||
		!strings.Contains(r.stdout, "set /proc/irq/33/smp_affinity_list = 3-5,7, was 0-39 (IRQ 33 eth1, test/board.cue:13)\n") ||
		strings.Contains(r.stdout, "/proc/irq/40/") || strings.Contains(r.stdout, "end0") {
		t.Errorf("--interface eth0, the netdev of the description's eth1: %v", r)
	}
	if r := run("--revert"); r.code != 0 {
		t.Errorf("revert after the rename: %v", r)
	}
	if d := treeDiff(renamed, snapshot(t, root)); len(d) > 0 {
		t.Errorf("revert after the rename did not restore the root:\n%s", strings.Join(d, "\n"))
	}
}
