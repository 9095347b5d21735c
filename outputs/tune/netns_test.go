package tune_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/outputs/tune"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/testtool"
)

// netnsTools returns unshare, skipping the test unless it runs as root
// where namespaces can be made. Missing ip or unshare, or namespaces that
// cannot be made as root, fail the test under BOARDC_REQUIRE_TOOLS=1.
func netnsTools(t *testing.T) string {
	t.Helper()
	unshare := testtool.Look(t, "unshare", "util-linux")
	testtool.Look(t, "ip", "iproute2")
	testtool.Look(t, "mount", "mount")
	if os.Geteuid() != 0 {
		t.Skip("needs root to make a network namespace; run the tests as root (CI does)")
	}
	if out, err := exec.Command(unshare, "-n", "-m", "true").CombinedOutput(); err != nil {
		msg := fmt.Sprintf("unshare -n -m fails as root: %v %s", err, out)
		if testtool.Required() {
			t.Fatal(msg + " (BOARDC_REQUIRE_TOOLS=1)")
		}
		t.Skip(msg)
	}
	return unshare
}

// onlineCPUs returns the host's online CPUs.
func onlineCPUs(t *testing.T) []int {
	t.Helper()
	data, err := os.ReadFile("/sys/devices/system/cpu/online")
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, part := range strings.Split(strings.TrimSpace(string(data)), ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil {
			t.Fatalf("cannot parse CPU list %q", data)
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	return out
}

// hostState reads the host's own values that a run in a namespace must
// never touch: net sysctls (per-namespace and global ones), every host
// interface's queue settings, and /run/boardc.
func hostState(t *testing.T) map[string]string {
	t.Helper()
	paths := []string{
		"/proc/sys/net/core/somaxconn", "/proc/sys/net/ipv4/ip_local_port_range",
		"/proc/sys/net/core/rps_sock_flow_entries", "/proc/sys/net/core/netdev_budget",
	}
	for _, pat := range []string{"rx-*/rps_cpus", "rx-*/rps_flow_cnt", "tx-*/xps_cpus"} {
		m, _ := filepath.Glob("/sys/class/net/*/queues/" + pat)
		paths = append(paths, m...)
	}
	sort.Strings(paths)
	out := map[string]string{}
	for _, p := range append(paths, "/run/boardc") {
		data, err := os.ReadFile(p)
		if err != nil {
			out[p] = "error: " + err.Error()
		} else {
			out[p] = string(data)
		}
	}
	return out
}

// netnsRun runs tune.sh of b in a private network namespace with the
// interfaces of b's net policy and returns the results the driver wrote.
// Interfaces named in absent are not created: tune.sh must warn about
// them and tune the rest.
func netnsRun(t *testing.T, unshare string, b *ir.Board, only string, absent ...string) map[string]string {
	t.Helper()
	files := tune.Emit(b)
	out := writeOutputs(t, files)
	res := t.TempDir()
	var paths, ifs []string
	tamper := ""
	for _, np := range b.Policy.Net {
		if slices.Contains(absent, np.IfName) {
			continue
		}
		q := "/sys/class/net/" + np.IfName + "/queues/"
		rx := max(len(np.RPS), np.FlowQueues(), 4)
		tx := max(len(np.XPS), 4)
		ifs = append(ifs, fmt.Sprintf("%s:%d:%d", np.IfName, rx, tx))
		for i := range rx {
			paths = append(paths, fmt.Sprintf("%srx-%d/rps_cpus", q, i), fmt.Sprintf("%srx-%d/rps_flow_cnt", q, i))
		}
		for i := range tx {
			paths = append(paths, fmt.Sprintf("%stx-%d/xps_cpus", q, i))
		}
		if tamper == "" && len(np.RPS) > 0 {
			tamper = q + "rx-0/rps_cpus"
		} else if tamper == "" && len(np.XPS) > 0 {
			tamper = q + "tx-0/xps_cpus"
		}
	}
	if strings.Contains(only, "sysctl") {
		for _, s := range b.Policy.Sysctls {
			paths = append(paths, tune.SysctlPath(s.Key))
		}
	}
	if tamper == "" {
		t.Fatal("the board steers no queue to tamper with")
	}
	makeTree(t, res, map[string]string{"paths": strings.Join(paths, "\n") + "\n"})

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"-n", "-m", "sh", "testdata/netns.sh", res, filepath.Join(out, tune.ScriptFile), only, tamper, "0"}, ifs...)
	if o, err := exec.CommandContext(ctx, unshare, args...).CombinedOutput(); err != nil {
		t.Fatalf("netns.sh: %v\n%s", err, o)
	}
	got := map[string]string{}
	for name := range snapshot(t, res) {
		data, _ := os.ReadFile(filepath.Join(res, name))
		got[name] = string(data)
	}
	got["tamper"] = tamper
	return got
}

// parseSnap parses a snapshot of the driver: path<TAB>value lines.
func parseSnap(s string) map[string]string {
	out := map[string]string{}
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if p, v, ok := strings.Cut(l, "\t"); ok {
			out[p] = v
		}
	}
	return out
}

// normMask strips a kernel hex mask of commas and leading zeros.
func normMask(s string) string {
	s = strings.TrimLeft(strings.ReplaceAll(strings.TrimSpace(s), ",", ""), "0")
	if s == "" {
		return "0"
	}
	return s
}

// checkNetns checks the driver's results against what b asks for.
func checkNetns(t *testing.T, b *ir.Board, got map[string]string, withSysctls bool, absent ...string) {
	t.Helper()
	ok := 0
	if len(absent) > 0 {
		ok = tune.ExitPartial
	}
	wantRC := map[string]int{"guard": tune.ExitRefused, "apply": ok, "reapply": ok, "verify": ok, "tampered": tune.ExitDrift, "revert": 0,
		"iface": 0, "iface-revert": 0}
	for _, l := range strings.Split(strings.TrimSpace(got["rc"]), "\n") {
		step, rc, _ := strings.Cut(l, " ")
		if want, ok := wantRC[step]; !ok || strconv.Itoa(want) != rc {
			t.Errorf("step %s exited %s, want %d:\n%s", step, rc, want, got[step+".out"])
		}
		delete(wantRC, step)
	}
	if len(wantRC) > 0 {
		t.Errorf("steps did not run: %v\n%s", wantRC, got["rc"])
	}
	if !strings.Contains(got["reapply.out"], "0 value(s) set") {
		t.Errorf("re-apply changed values:\n%s", got["reapply.out"])
	}
	if !strings.Contains(got["tampered.out"], "drift: "+got["tamper"]+" is ") {
		t.Errorf("verify after tampering does not name %s:\n%s", got["tamper"], got["tampered.out"])
	}

	for _, name := range absent {
		want := "tune.sh: warning: no interface " + name + " (name) in /sys/class/net, its queues skipped"
		if !strings.Contains(got["apply.out"], want) {
			t.Errorf("apply does not name the missing interface %s:\n%s", name, got["apply.out"])
		}
	}
	applied := parseSnap(got["applied"])
	for _, np := range b.Policy.Net {
		if slices.Contains(absent, np.IfName) {
			continue
		}
		q := "/sys/class/net/" + np.IfName + "/queues/"
		for i, c := range np.RPS {
			p := fmt.Sprintf("%srx-%d/rps_cpus", q, i)
			if normMask(applied[p]) != ir.CPUMask(c) {
				t.Errorf("kernel %s = %q, want mask %s", p, applied[p], ir.CPUMask(c))
			}
		}
		for i, c := range np.XPS {
			p := fmt.Sprintf("%stx-%d/xps_cpus", q, i)
			if normMask(applied[p]) != ir.CPUMask(c) {
				t.Errorf("kernel %s = %q, want mask %s", p, applied[p], ir.CPUMask(c))
			}
		}
		if np.RPSFlowCount >= 0 {
			p := q + "rx-0/rps_flow_cnt"
			if want := fmt.Sprint(ir.FlowTableSize(uint64(np.RPSFlowCount))); applied[p] != want {
				t.Errorf("kernel %s = %q, want %s", p, applied[p], want)
			}
		}
	}
	if withSysctls {
		for _, s := range b.Policy.Sysctls {
			p := tune.SysctlPath(s.Key)
			if strings.Join(strings.Fields(applied[p]), " ") != s.Value {
				t.Errorf("kernel %s = %q, want %q", p, applied[p], s.Value)
			}
		}
	}
	before, after := parseSnap(got["before"]), parseSnap(got["after"])
	if len(before) == 0 {
		t.Fatal("no snapshot taken")
	}
	if d := treeDiff(before, after); len(d) > 0 {
		t.Errorf("revert did not restore the kernel's values:\n%s", strings.Join(d, "\n"))
	}

	// --interface FIRST sets that interface's queues as the full apply
	// did, and nothing else: no other interface, no sysctl.
	first := "/sys/class/net/" + b.Policy.Net[0].IfName + "/"
	iface := parseSnap(got["iface"])
	for p, v := range before {
		want := v
		if strings.HasPrefix(p, first) {
			want = applied[p]
		}
		if iface[p] != want {
			t.Errorf("after --interface %s: %s = %q, want %q", b.Policy.Net[0].IfName, p, iface[p], want)
		}
	}
	if d := treeDiff(before, parseSnap(got["iface-after"])); len(d) > 0 {
		t.Errorf("revert after --interface did not restore the kernel's values:\n%s", strings.Join(d, "\n"))
	}
}

// TestNetnsKernel runs tune.sh against the real kernel in a private
// network namespace, with an empty root: RPS/XPS masks, flow counts and
// per-namespace sysctls of a test board are applied, applied again,
// verified, caught drifting and reverted, and the host's own values stay
// untouched. IRQ pinning and global sysctls cannot be tried in a
// namespace; the synthesized-root tests cover them.
func TestNetnsKernel(t *testing.T) {
	unshare := netnsTools(t)
	online := onlineCPUs(t)
	c0, c1 := online[0], online[len(online)-1]
	b := &ir.Board{
		Name:       "netns-test",
		Compatible: []string{"boardc,netns-test"},
		SoC:        ir.SoC{Name: "host", Clusters: []ir.Cluster{{CPUs: online}}},
		Policy: ir.Policy{
			Net: []ir.NetPolicy{{
				IfName:       "eth0",
				RPS:          [][]int{{c0}, {c1}, {c0, c1}, {}},
				RPSFlowCount: 1000,
				XPS:          [][]int{{c0}, {c1}, {c0, c1}, {c1}},
				Pos:          at(20),
			}},
			Sysctls: []ir.Sysctl{
				{Key: "net.core.somaxconn", Value: "1234", Pos: at(30)},
				{Key: "net.ipv4.ip_local_port_range", Value: "20000 60000", Pos: at(31)},
			},
		},
	}
	host := hostState(t)
	got := netnsRun(t, unshare, b, "net,sysctl")
	checkNetns(t, b, got, true)
	// Per-item tolerance on the real kernel: an interface that is not
	// there is a warning naming it, and the rest is applied (status 4).
	b.Policy.Net = append(b.Policy.Net, ir.NetPolicy{IfName: "eth9", RPS: [][]int{{c0}}, RPSFlowCount: -1, Pos: at(21)})
	checkNetns(t, b, netnsRun(t, unshare, b, "net,sysctl", "eth9"), true, "eth9")
	if d := treeDiff(host, hostState(t)); len(d) > 0 {
		t.Errorf("the host's own values changed:\n%s", strings.Join(d, "\n"))
	}
}

// TestNetnsBoards runs the RPS/XPS part of every in-tree board's tune.sh
// against the real kernel, with veth interfaces of the board's names, when
// the host has the CPUs the board steers to.
func TestNetnsBoards(t *testing.T) {
	unshare := netnsTools(t)
	online := map[int]bool{}
	for _, c := range onlineCPUs(t) {
		online[c] = true
	}
	host := hostState(t)
	for _, b := range intree.Boards(t, "../../boards") {
		t.Run(b.Name, func(t *testing.T) {
			if len(b.Policy.Net) == 0 {
				t.Skip("no network steering")
			}
			for _, np := range b.Policy.Net {
				for _, set := range append(append([][]int{}, np.RPS...), np.XPS...) {
					for _, c := range set {
						if !online[c] {
							t.Skipf("%s steers to CPU %d, which this host does not have online", np.IfName, c)
						}
					}
				}
			}
			// veth interfaces have no device-tree node and no driver that
			// sets XPS: here the boards' interfaces are found by name and
			// their XPS written; the synthesized-root tests find them by
			// of_node and leave a driver's XPS alone.
			for _, np := range b.Policy.Net {
				if np.Dev != nil {
					np.Dev.ByName, np.Dev.DriverXPS = true, nil
				}
			}
			checkNetns(t, b, netnsRun(t, unshare, b, "net"), false)
		})
	}
	if d := treeDiff(host, hostState(t)); len(d) > 0 {
		t.Errorf("the host's own values changed:\n%s", strings.Join(d, "\n"))
	}
}
