package tune_test

import (
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
