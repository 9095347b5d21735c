package check

import (
	"slices"
	"testing"

	"boardc.dev/boardc/compiler/ir"
)

// TestPolicyChecks breaks the clean board's runtime policy one way per
// case and expects the named finding at the named line, as TestChecks
// does for the other checks.
func TestPolicyChecks(t *testing.T) {
	sysctl := func(key, value string) func(b *ir.Board) {
		return func(b *ir.Board) { b.Policy.Sysctls = []ir.Sysctl{{Key: key, Value: value, Pos: pos(53)}} }
	}
	for _, tc := range []struct {
		name string
		edit func(b *ir.Board)
		want string // code:severity
		line int
	}{
		{"IRQ pinned twice", func(b *ir.Board) {
			b.Policy.IRQs = append(b.Policy.IRQs, ir.IRQPin{IRQ: "eth0", CPUs: []int{0}, Pos: pos(53)})
		}, "BC0408:error", 53},
		{"RPS on an isolated CPU", func(b *ir.Board) { b.Policy.IsolatedCPUs = []int{0} }, "BC0409:error", 51},
		{"XPS on an isolated CPU", func(b *ir.Board) {
			b.Policy.Net[0].RPS = nil
			b.Policy.Net[0].XPS = [][]int{{0}}
			b.Policy.IsolatedCPUs = []int{0}
		}, "BC0409:error", 51},
		{"pin of a disabled master's IRQ", func(b *ir.Board) { b.SoC.Masters[0].Enabled = false }, "BC0410:error", 50},
		{"steering of a disabled master's interface", func(b *ir.Board) { b.SoC.Masters[0].Enabled = false }, "BC0410:error", 51},
		{"int sysctl above 2^31-1", sysctl("net.core.netdev_budget", "2147483648"), "BC0411:error", 53},
		{"int sysctl below -2^31", sysctl("net.core.netdev_max_backlog", "-2147483649"), "BC0411:error", 53},
		{"hexadecimal above 2^31-1", sysctl("net.core.netdev_max_backlog", "0x80000000"), "BC0411:error", 53},
		{"sock flow entries above 1<<29", sysctl("net.core.rps_sock_flow_entries", "536870913"), "BC0411:error", 53},
		{"negative sock flow entries", sysctl("net.core.rps_sock_flow_entries", "-1"), "BC0411:error", 53},
		{"dev_weight 0", sysctl("net.core.dev_weight", "0"), "BC0411:error", 53},
		{"negative busy_poll", sysctl("net.core.busy_poll", "-1"), "BC0411:error", 53},
		{"negative busy_read", sysctl("net.core.busy_read", "-50"), "BC0411:error", 53},
		{"known sysctl not an integer", sysctl("net.core.netdev_budget", "600 700"), "BC0411:error", 53},
		{"unknown sysctl beyond an unsigned long", sysctl("vm.dirty_bytes", "18446744073709551616"), "BC0411:error", 53},
		{"one of several integers beyond an unsigned long", sysctl("net.ipv4.tcp_rmem", "4096 87380 99999999999999999999"), "BC0411:error", 53},
		{"drop_caches", sysctl("vm.drop_caches", "3"), "BC0412:error", 53},
		{"one IRQ on two CPUs of a one-target controller", func(b *ir.Board) {
			b.SoC.IRQDelivery = &ir.IRQDelivery{One: true, Source: "gic_set_affinity()", Pos: pos(5)}
			b.Policy.IRQs[0].CPUs = []int{0, 1}
		}, "BC0413:error", 50},
		{"irqAffinity naming no IRQ", func(b *ir.Board) {
			b.SoC.Masters[0].IRQAffinity = &ir.IRQAffinity{Keys: []string{"ring"}, Source: "probe()", Pos: pos(15)}
		}, "BC0414:error", 15},
		{"RPS on a one-CPU SoC", func(b *ir.Board) {
			b.SoC.Clusters[0].CPUs = []int{0}
			b.Policy.IRQs[0].CPUs = []int{0}
			b.Policy.Net[0].RPS = [][]int{{0}}
		}, "BC0415:warning", 51},
		{"RFS alone on a one-CPU SoC", func(b *ir.Board) {
			b.SoC.Clusters[0].CPUs = []int{0}
			b.Policy.IRQs[0].CPUs = []int{0}
			b.Policy.Net[0].RPS = nil
			b.Policy.Net[0].RPSFlowCount = 1024
		}, "BC0415:warning", 51},
		{"RPS only to the IRQ's CPU", func(b *ir.Board) { b.Policy.Net[0].RPS = [][]int{{1}} }, "BC0415:warning", 51},
		{"two interfaces of one master, found by its node", func(b *ir.Board) {
			m := b.SoC.Masters[0]
			m.NetDevs = append(m.NetDevs, ir.NetDev{Name: "eth1", RxQueues: 1, TxQueues: 1, Pos: pos(15)})
		}, "BC0416:warning", 14},
		{"two interfaces naming one port node", func(b *ir.Board) {
			m := b.SoC.Masters[0]
			m.NetDevs[0].Port = ir.Node{Path: "/soc/eth@0/port@0", Pos: pos(16)}
			m.NetDevs = append(m.NetDevs, ir.NetDev{Name: "eth1", RxQueues: 1, TxQueues: 1, Pos: pos(15), Port: ir.Node{Path: "/soc/eth@0/port@0", Pos: pos(17)}})
		}, "BC0416:warning", 16},
		{"compact_memory", sysctl("vm.compact_memory", "1"), "BC0412:error", 53},
		{"route flush", sysctl("net.ipv4.route.flush", "1"), "BC0412:error", 53},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := board()
			tc.edit(b)
			finish(b)
			got := Run(b)
			var lines []int
			for _, d := range got {
				if d.Code+":"+d.Severity.String() == tc.want {
					lines = append(lines, d.Pos.Line)
				}
			}
			if !slices.Contains(lines, tc.line) {
				t.Errorf("want %s at line %d; got %v (%s at lines %v)", tc.want, tc.line, codes(got), tc.want, lines)
			}
		})
	}
}

// TestNetdevsDistinct: interfaces of one master that name their port
// nodes, or an alias, or are found by name, are told apart.
func TestNetdevsDistinct(t *testing.T) {
	b := board()
	m := b.SoC.Masters[0]
	m.NetDevs[0].Port = ir.Node{Path: "/soc/eth@0/port@0", Pos: pos(16)}
	m.NetDevs = append(m.NetDevs,
		ir.NetDev{Name: "eth1", RxQueues: 1, TxQueues: 1, Pos: pos(15), Port: ir.Node{Path: "/soc/eth@0/port@1", Pos: pos(17)}},
		ir.NetDev{Name: "eth2", RxQueues: 1, TxQueues: 1, Pos: pos(18), Alias: "ethernet2"},
		ir.NetDev{Name: "eth3", RxQueues: 1, TxQueues: 1, Pos: pos(19), ByName: true})
	for _, n := range []string{"eth1", "eth2", "eth3"} {
		b.Policy.Net = append(b.Policy.Net, ir.NetPolicy{IfName: n, RPSFlowCount: -1, Pos: pos(52)})
	}
	finish(b)
	for _, d := range Run(b) {
		if d.Code == NetdevIndistinct.ID {
			t.Errorf("%s: %s", d.Pos, d.Message)
		}
	}
}

// TestPolicyChecksClean keeps values the kernel takes free of findings:
// each bound itself, vectors and strings of sysctls boardc does not know.
// (A pin repeated with the same CPUs is reported: BC0408.)
func TestPolicyChecksClean(t *testing.T) {
	b := board()
	for i, kv := range [][2]string{
		{"net.core.netdev_budget", "2147483647"},
		{"net.core.netdev_max_backlog", "-2147483648"},
		{"net.core.netdev_budget_usecs", "0"},
		{"net.core.rps_sock_flow_entries", "536870912"},
		{"net.core.dev_weight", "1"},
		{"net.core.busy_poll", "0"},
		{"net.core.busy_read", "050"},
		{"net.core.somaxconn", "0x1000"},
		{"vm.dirty_bytes", "18446744073709551615"},
		{"net.ipv4.tcp_rmem", "4096 87380 6291456"},
		{"net.core.default_qdisc", "fq"},
		{"kernel.sysrq", "176"},
	} {
		b.Policy.Sysctls = append(b.Policy.Sysctls, ir.Sysctl{Key: kv[0], Value: kv[1], Pos: pos(60 + i)})
	}
	finish(b)
	if got := Run(b); len(got) != 0 {
		t.Fatalf("findings on values the kernel takes: %v", got)
	}
}

// TestKernelInt reads integers as proc_get_long() does.
func TestKernelInt(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // "" when not an integer
	}{
		{"0", "0"}, {"600", "600"}, {"-1", "-1"}, {"0x10", "16"}, {"0X1f", "31"}, {"010", "8"},
		{"18446744073709551616", "18446744073709551616"},
		{"", ""}, {"-", ""}, {"+1", ""}, {"09", ""}, {"0x", ""}, {"12a", ""}, {"1_000", ""}, {" 1", ""}, {"--1", ""},
	} {
		v, ok := kernelInt(tc.in)
		got := ""
		if ok {
			got = v.String()
		}
		if got != tc.want {
			t.Errorf("kernelInt(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
