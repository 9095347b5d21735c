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

// TestPolicyChecksClean keeps values the kernel takes free of findings:
// each bound itself, a pin repeated with the same CPUs, vectors and
// strings of sysctls boardc does not know.
func TestPolicyChecksClean(t *testing.T) {
	b := board()
	b.Policy.IRQs = append(b.Policy.IRQs, ir.IRQPin{IRQ: "eth0", CPUs: []int{1, 1}, Pos: pos(53)})
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
