package tune_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/outputs/tune"
)

// portsCase is the MACCHIATObin-like case: one port on CP0's mvpp2
// master, found through it and the alias ethernet0, and three on CP1's,
// each naming its ethernet-port@N node.
const portsCase = "../../testdata/cases/macchiatobin-ports"

// portNetdevs maps the kernel's names of portsRoot's netdevs to the port
// node each has as its own of_node. The kernel named the CP1 ports in
// another order than the description, so that finding them by name
// tunes the wrong ones.
var portNetdevs = map[string]string{
	"eth0": "/cp0-bus/bus@f2000000/ethernet@0/ethernet-port@0",
	"eth1": "/cp1-bus/bus@f4000000/ethernet@0/ethernet-port@2",
	"eth2": "/cp1-bus/bus@f4000000/ethernet@0/ethernet-port@0",
	"eth3": "/cp1-bus/bus@f4000000/ethernet@0/ethernet-port@1",
}

// portsRoot is a root laid out as mvpp2 ports appear in sysfs: each
// netdev below the platform device of its controller, whose of_node is
// the master's node, with an of_node of its own, its ethernet-port@N
// child (Documentation/devicetree/bindings/net/marvell,pp2.yaml: a
// subnode for each port). Each netdev has 4 receive and 4 transmit
// queues, and the running tree the alias ethernet0 of CP0's port.
func portsRoot() map[string]string {
	const dt = "firmware/devicetree/base"
	f := map[string]string{
		"proc/device-tree/compatible":        "vendor,macchiatobin-ports\x00marvell,armada8040\x00",
		"proc/device-tree/aliases/ethernet0": portNetdevs["eth0"] + "\x00",
		"proc/interrupts":                    "           CPU0       CPU1       CPU2       CPU3\n",
		"run/.keep":                          "",
	}
	ctrl := map[string]string{
		"/cp0-bus/bus@f2000000/ethernet@0": "devices/platform/cp0-bus/f2000000.ethernet",
		"/cp1-bus/bus@f4000000/ethernet@0": "devices/platform/cp1-bus/f4000000.ethernet",
	}
	for node, dev := range ctrl {
		f["sys/"+dev+"/of_node"] = symlink + "../../../../" + dt + node
	}
	for name, port := range portNetdevs {
		f["sys/"+dt+port+"/"] = ""
		dev := ctrl[port[:strings.LastIndex(port, "/")]]
		nd := dev + "/net/" + name
		f["sys/class/net/"+name] = symlink + "../../" + nd
		f["sys/"+nd+"/device"] = symlink + "../.."
		f["sys/"+nd+"/of_node"] = symlink + "../../../../../../" + dt + port
		for q := range 4 {
			f[fmt.Sprintf("sys/%s/queues/rx-%d/rps_cpus", nd, q)] = "0\n"
			f[fmt.Sprintf("sys/%s/queues/tx-%d/xps_cpus", nd, q)] = "0\n"
		}
	}
	return f
}

// portsApplied is what the case's tuning leaves in portsRoot, for the
// description's interfaces in descs: each described interface's masks on
// the netdev of its port.
func portsApplied(descs ...string) map[string]string {
	kernel := map[string]string{"eth0": "eth0", "eth1": "eth2", "eth2": "eth3", "eth3": "eth1"}
	want := map[string]string{}
	for _, d := range descs {
		q := "sys/class/net/" + kernel[d] + "/queues/"
		for i, m := range []string{"3", "3", "c", "c"} {
			want[fmt.Sprintf("%srx-%d/rps_cpus", q, i)] = m + "\n"
		}
		for i, m := range []string{"1", "2", "4", "8"} {
			want[fmt.Sprintf("%stx-%d/xps_cpus", q, i)] = m + "\n"
		}
	}
	return want
}

// queueFiles returns the queue files of a root snapshot through the
// netdevs' class links, the way tune.sh reaches them.
func queueFiles(snap map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range snap {
		if i := strings.Index(k, "/net/"); i >= 0 && strings.HasPrefix(k, "sys/devices/") && strings.Contains(k, "/queues/") && !strings.HasSuffix(k, "/") {
			out["sys/class/net/"+k[i+len("/net/"):]] = v
		}
	}
	return out
}

// TestRootPorts tunes three ports of one master, each found by its own
// port node, under names the kernel gave in another order: every queue
// is written (exit 0), --verify finds no drift, --interface with the
// kernel's name tunes that port alone, and --revert restores the root.
func TestRootPorts(t *testing.T) {
	t.Parallel()
	b := intree.Compile(t, portsCase).Board
	out := writeOutputs(t, tune.Emit(b))
	script := filepath.Join(out, tune.ScriptFile)
	root, work := t.TempDir(), t.TempDir()
	makeTree(t, root, portsRoot())
	orig := snapshot(t, root)
	run := func(args ...string) result {
		return runSh(t, work, nil, script, append([]string{"--root", root}, args...)...)
	}

	r := run("--interface", "eth2")
	if r.code != tune.ExitOK || !strings.Contains(r.stdout, "8 value(s) set") {
		t.Fatalf("--interface eth2: %v", r)
	}
	want := queueFiles(orig)
	for k, v := range portsApplied("eth1") {
		want[k] = v
	}
	if d := treeDiff(want, queueFiles(snapshot(t, root))); len(d) > 0 {
		t.Errorf("--interface eth2 tuned another port than ethernet-port@0:\n%s", strings.Join(d, "\n"))
	}

	r = run()
	if r.code != tune.ExitOK || r.stderr != "" || !strings.Contains(r.stdout, "board macchiatobin-ports: 24 value(s) set, 8 already in place") {
		t.Fatalf("apply: %v", r)
	}
	for desc, kernel := range map[string]string{"eth1": "eth2", "eth2": "eth3", "eth3": "eth1"} {
		if line := fmt.Sprintf("interface %s is %s (node %s)\n", desc, kernel, portNetdevs[kernel]); !strings.Contains(r.stdout, line) {
			t.Errorf("apply: stdout lacks %q", line)
		}
	}
	want = portsApplied("eth0", "eth1", "eth2", "eth3")
	if len(want) != 32 {
		t.Fatalf("%d queue files, want 32", len(want))
	}
	if d := treeDiff(want, queueFiles(snapshot(t, root))); len(d) > 0 {
		t.Errorf("after apply:\n%s", strings.Join(d, "\n"))
	}
	if r := run("--verify"); r.code != tune.ExitOK {
		t.Errorf("--verify: %v", r)
	}
	if r := run("--revert"); r.code != tune.ExitOK {
		t.Fatalf("--revert: %v", r)
	}
	if d := treeDiff(orig, snapshot(t, root)); len(d) > 0 {
		t.Errorf("revert did not restore the root:\n%s", strings.Join(d, "\n"))
	}
}

// TestRootPortsByMaster is the negative control of TestRootPorts: without
// port nodes, the three CP1 interfaces are each found by their master's
// node, which every port's netdev lies below, so each matches all three
// netdevs and none is tuned (exit 4); CP0's one port is still found.
func TestRootPortsByMaster(t *testing.T) {
	t.Parallel()
	// A board of its own: intree.Compile shares its boards between tests.
	c, err := boardc.New()
	if err != nil {
		t.Fatal(err)
	}
	res := c.Compile(portsCase, boardc.Options{})
	if res.Board == nil || res.Diagnostics.HasErrors() {
		t.Fatalf("%s does not compile: %v", portsCase, res.Diagnostics)
	}
	b := res.Board
	for _, m := range b.SoC.Masters {
		for i := range m.NetDevs {
			m.NetDevs[i].Port = ir.Node{}
		}
	}
	out := writeOutputs(t, tune.Emit(b))
	root, work := t.TempDir(), t.TempDir()
	makeTree(t, root, portsRoot())
	orig := snapshot(t, root)
	r := runSh(t, work, nil, filepath.Join(out, tune.ScriptFile), "--root", root)
	if r.code != tune.ExitPartial || !strings.Contains(r.stdout, "8 value(s) set") {
		t.Errorf("apply: %v", r)
	}
	for _, n := range []string{"eth1", "eth2", "eth3"} {
		w := fmt.Sprintf("tune.sh: warning: interface %s (node /cp1-bus/bus@f4000000/ethernet@0) is each of eth1 eth2 eth3: none tuned", n)
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr lacks %q", w)
		}
	}
	want := queueFiles(orig)
	for k, v := range portsApplied("eth0") {
		want[k] = v
	}
	if d := treeDiff(want, queueFiles(snapshot(t, root))); len(d) > 0 {
		t.Errorf("after apply:\n%s", strings.Join(d, "\n"))
	}
}

// TestRootDotName: an interface may be named ".x" (net/core/dev.c
// dev_valid_name() refuses only "", "." and "..", "/", ":" and white
// space): tune.sh finds it by its node and --interface takes the name;
// "." and ".." are usage errors.
func TestRootDotName(t *testing.T) {
	t.Parallel()
	b := intree.Compile(t, portsCase).Board
	script := filepath.Join(writeOutputs(t, tune.Emit(b)), tune.ScriptFile)
	root, work := t.TempDir(), t.TempDir()
	files := map[string]string{}
	for k, v := range portsRoot() {
		files[strings.Replace(k, "/net/eth1", "/net/.x", 1)] = strings.Replace(v, "/net/eth1", "/net/.x", 1)
	}
	makeTree(t, root, files)
	run := func(args ...string) result {
		return runSh(t, work, nil, script, append([]string{"--root", root}, args...)...)
	}
	r := run("--interface", ".x")
	if r.code != tune.ExitOK || !strings.Contains(r.stdout, "8 value(s) set") ||
		!strings.Contains(r.stdout, "interface eth3 is .x (node "+portNetdevs["eth1"]+")\n") {
		t.Fatalf("--interface .x: %v", r)
	}
	if r := run(); r.code != tune.ExitOK || !strings.Contains(r.stdout, "24 value(s) set, 8 already in place") {
		t.Errorf("apply: %v", r)
	}
	for _, bad := range []string{".", "..", "a:b"} {
		if r := run("--interface", bad); r.code != tune.ExitUsage || !strings.Contains(r.stderr, "--interface: not an interface name: "+bad) {
			t.Errorf("--interface %s: %v", bad, r)
		}
	}
}
