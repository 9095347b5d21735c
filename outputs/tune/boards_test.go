package tune_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/outputs/tune"
)

// boardRoot synthesizes a root for board b from its own IR: its
// compatible, two IRQ lines for each pinned name (so shared names are
// exercised), every queue file its net policy touches and every sysctl,
// all with kernel-style values, and for an interface whose channels are
// set, the count fakeEthtool reports: the described one.
func boardRoot(b *ir.Board) map[string]string {
	n := b.SoC.NumCPUs()
	all := "0-" + fmt.Sprint(n-1) + "\n"
	if n == 1 {
		all = "0\n"
	}
	zero := strings.Repeat("0", (n+3)/4) + "\n"
	f := map[string]string{
		"proc/device-tree/compatible": strings.Join(b.Compatible, "\x00") + "\x00",
		"run/.keep":                   "",
	}
	interrupts := "           CPU0       CPU1\n  3:   100   200   GICv3  30 Level   arch_timer\n"
	irq := 100
	seen := map[string]bool{}
	for _, p := range b.Policy.IRQs {
		if seen[p.IRQ] {
			continue
		}
		seen[p.IRQ] = true
		for k := range 2 {
			interrupts += fmt.Sprintf("%4d:   0   0   GICv3  %d Level   %s\n", irq, irq, p.IRQ)
			f[fmt.Sprintf("proc/irq/%d/smp_affinity_list", irq)] = all
			if p.Placed() {
				// The driver's hint, where the description expects it.
				f[fmt.Sprintf("proc/irq/%d/affinity_hint", irq)] = ir.CPUMask([]int{p.SpreadCPU(k)}) + "\n"
			}
			irq++
		}
	}
	f["proc/interrupts"] = interrupts
	f["proc/irq/3/smp_affinity_list"] = all
	for i, np := range b.Policy.Net {
		name := np.IfName
		q := "sys/class/net/" + name + "/queues/"
		switch {
		case np.Dev != nil && np.Master != nil && np.Dev.HasDPNI && !np.Dev.ByName:
			// The netdev of an fsl-mc object: dpaa2_eth_probe()
			// registers it with SET_NETDEV_DEV() on the dpni.N device,
			// which fsl_mc_device_add() puts below the container's
			// (dprc.1), below the fsl-mc platform device. It carries
			// another interface's name.
			dev := fmt.Sprintf("sys/devices/platform/80c000000.fsl-mc/dprc.1/dpni.%d", np.Dev.DPNI)
			name = dpniNetdev(b, i)
			f["sys/class/net/"+name] = symlink + "../../" + strings.TrimPrefix(dev, "sys/") + "/net/" + name
			f[dev+"/net/"+name+"/device"] = symlink + "../../../dpni." + fmt.Sprint(np.Dev.DPNI)
			q = dev + "/net/" + name + "/queues/"
		case np.Dev != nil && np.Master != nil && !np.Dev.ByName:
			// A netdev of a platform device whose of_node is the
			// master's node, under a name the description does not use.
			dev := fmt.Sprintf("sys/devices/platform/dev%d", i)
			name = fmt.Sprintf("end%d", i)
			f[dev+"/of_node"] = symlink + "../../../firmware/devicetree/base" + np.Master.Node.Path
			f["sys/firmware/devicetree/base"+np.Master.Node.Path+"/"] = ""
			f["sys/class/net/"+name] = symlink + "../../devices/platform/" + fmt.Sprintf("dev%d", i) + "/net/" + name
			f[dev+"/net/"+name+"/device"] = symlink + "../../../dev" + fmt.Sprint(i)
			q = dev + "/net/" + name + "/queues/"
		}
		if np.Dev != nil && np.Dev.Channels {
			f["ethtool/"+name] = fmt.Sprint(np.Dev.RxQueues) + "\n"
		}
		for i := range max(len(np.RPS), np.FlowQueues()) {
			f[fmt.Sprintf("%srx-%d/rps_cpus", q, i)] = zero
			f[fmt.Sprintf("%srx-%d/rps_flow_cnt", q, i)] = "0\n"
		}
		for i := range max(len(np.XPS), 1) {
			f[fmt.Sprintf("%stx-%d/xps_cpus", q, i)] = zero
			if np.Dev != nil && np.Dev.DriverXPS != nil && i < len(np.XPS) {
				// What the driver sets, as the description states it.
				f[fmt.Sprintf("%stx-%d/xps_cpus", q, i)] = ir.CPUMask(np.XPS[i]) + "\n"
			}
		}
	}
	for _, s := range b.Policy.Sysctls {
		f[strings.TrimPrefix(tune.SysctlPath(s.Key), "/")] = "0\n"
	}
	return f
}

// dpniNetdev is the name boardRoot gives the netdev of the i-th
// interface of b's net policy when it is found by DPNI object: the name
// the description gives the interface at the other end of the list, so
// that finding it by name would tune another DPNI's netdev.
func dpniNetdev(b *ir.Board, i int) string {
	return b.Policy.Net[len(b.Policy.Net)-1-i].IfName
}

// TestBoards checks the outputs of every in-tree board: shellcheck finds
// nothing in its scripts, and tune.sh applies, verifies and reverts
// cleanly against a root synthesized from the board's own IR.
func TestBoards(t *testing.T) {
	for _, b := range intree.Boards(t, "../../boards") {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			files := tune.Emit(b)
			if len(b.Policy.IRQs)+len(b.Policy.Net)+len(b.Policy.Sysctls) == 0 {
				if len(files) != 0 {
					t.Errorf("a board without policy got %d files", len(files))
				}
				return
			}
			shellcheck(t, files)
			out := writeOutputs(t, files)
			root := t.TempDir()
			makeTree(t, root, boardRoot(b))
			orig := snapshot(t, root)
			script := filepath.Join(out, tune.ScriptFile)
			bin := t.TempDir()
			if err := os.WriteFile(filepath.Join(bin, "ethtool"), []byte(fakeEthtool), 0o755); err != nil {
				t.Fatal(err)
			}
			env := []string{"BOARDC_ROOT=" + root, "PATH=" + bin + ":" + os.Getenv("PATH")}
			for _, step := range [][]string{{}, {}, {"--verify"}, {"--revert"}} {
				r := runSh(t, root, env, script, append([]string{"--root", root}, step...)...)
				if r.code != 0 {
					t.Fatalf("%q: %v", step, r)
				}
				for i, np := range b.Policy.Net {
					if d := np.Dev; len(step) == 0 && d != nil && d.HasDPNI && !d.ByName {
						want := fmt.Sprintf("interface %s is %s (dpni %d)\n", np.IfName, dpniNetdev(b, i), d.DPNI)
						if np.IfName != dpniNetdev(b, i) && !strings.Contains(r.stdout, want) {
							t.Errorf("%q: stdout lacks %q: %v", step, want, r)
						}
					}
				}
				// The hints are where the description expects them.
				if strings.Contains(r.stderr, "warning: IRQ") {
					t.Errorf("%q warned about an IRQ: %v", step, r)
				}
			}
			if d := treeDiff(orig, snapshot(t, root)); len(d) > 0 {
				t.Errorf("revert did not restore the root:\n%s", strings.Join(d, "\n"))
			}
		})
	}
}

// TestBoardFacts checks what the in-tree boards are known to need.
func TestBoardFacts(t *testing.T) {
	want := map[string][]string{
		"espressobin": {
			"follow_irq 'd0090000.crypto' '0,1' hint ",
			"act net mask '/sys/class/net/eth0/queues/rx-0/rps_cpus' '3' ",
		},
		// One CPU: no RPS, no RFS, so nothing to tune (BC0415).
		"mirabox": nil,
		"ls2088a-rdb": {
			"follow_irq 'dpio.0' '0' hint ", "follow_irq 'dpio.3' '3' hint ", "follow_irq 'dpio.7' '7' hint ",
			"expect net mask '/sys/class/net/eth7/queues/tx-7/xps_cpus' '80' ",
			// Found by the DPNI the data-path layout gives them.
			"iface 'eth0' dpni '0' ", "iface 'eth7' dpni '7' ",
		},
	}
	for _, b := range intree.Boards(t, "../../boards") {
		lines, ok := want[b.Name]
		if !ok {
			continue
		}
		delete(want, b.Name)
		if lines == nil {
			if fs := tune.Emit(b); len(fs) != 0 {
				t.Errorf("%s: %d tuning files, want none", b.Name, len(fs))
			}
			continue
		}
		s := tune.Script(b)
		for _, l := range lines {
			if !strings.Contains(s, l) {
				t.Errorf("%s: tune.sh lacks %q", b.Name, l)
			}
		}
		if b.Name == "ls2088a-rdb" {
			p := tune.PolicyScript(b)
			for i := range 8 {
				if !strings.Contains(p, fmt.Sprintf("\t'dpio.%d')\n\t\techo ban=true\n", i)) {
					t.Errorf("irqbalance-policy.sh does not ban dpio.%d", i)
				}
			}
		}
	}
	for name := range want {
		if _, err := os.Stat("../../boards/" + name + "/board.cue"); err == nil {
			t.Errorf("board %s not compiled", name)
		}
	}
}
