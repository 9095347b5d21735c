package check

import (
	"fmt"
	"strconv"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// QueueRange finds RPS or XPS settings for queues the interface does not
// have.
var QueueRange = &Check{
	Needs: FactCPUs | FactMasters | FactPolicy,
	Code: diag.Code{ID: "BC0406", Name: "queue-out-of-range", Severity: diag.Error,
		Doc: "The policy sets rx-N/rps_cpus or tx-N/xps_cpus for a queue index at or above the number of " +
			"hardware queues the interface declares. The kernel creates queues/rx-0..rx-(n-1) and " +
			"tx-0..tx-(n-1) only (net/core/net-sysfs.c), so the tuning would fail on the target."},
	Run: func(p *Pass) {
		for _, np := range p.Board.Policy.Net {
			nd := np.Dev
			if nd == nil {
				continue // BC0502 reports it
			}
			if len(np.RPS) > nd.RxQueues {
				p.Report(np.Ref(), np.Pos,
					fmt.Sprintf("rps of %s names %d receive queues, but it has %d", np.IfName, len(np.RPS), nd.RxQueues),
					Note(nd.Pos, "interface %s", np.IfName))
			}
			if len(np.XPS) > nd.TxQueues {
				p.Report(np.Ref(), np.Pos,
					fmt.Sprintf("xps of %s names %d transmit queues, but it has %d", np.IfName, len(np.XPS), nd.TxQueues),
					Note(nd.Pos, "interface %s", np.IfName))
			}
		}
	},
}

// FlowTableRounding notes RPS flow table sizes the kernel rounds up.
var FlowTableRounding = &Check{
	Needs: FactCPUs | FactMasters | FactPolicy,
	Code: diag.Code{ID: "BC0407", Name: "rps-flow-table-rounding", Severity: diag.Info,
		Doc: "The kernel rounds rx-N/rps_flow_cnt up to a power of two " +
			"(store_rps_dev_flow_table_cnt(), net/core/net-sysfs.c), and net.core.rps_sock_flow_entries " +
			"as well (rps_sock_flow_sysctl(), net/core/sysctl_net_core.c). A size that is not a power of " +
			"two reads back larger than declared; declare the size the kernel will use."},
	Run: func(p *Pass) {
		for _, np := range p.Board.Policy.Net {
			if c := np.RPSFlowCount; c > 0 && !pow2(uint64(c)) {
				p.Report(np.Ref(), np.Pos,
					fmt.Sprintf("rpsFlowCount %d of %s is not a power of two; the kernel uses %d", c, np.IfName, ir.FlowTableSize(uint64(c))))
			}
		}
		for _, s := range p.Board.Policy.Sysctls {
			if s.Key != "net.core.rps_sock_flow_entries" {
				continue
			}
			// Above the bound (1<<29) the kernel rejects the size
			// (BC0411), it rounds nothing.
			if v, err := strconv.ParseUint(s.Value, 10, 64); err == nil && v > 0 && v <= uint64(sysctlBounds[s.Key].Max) && !pow2(v) {
				p.Report(s.Ref(), s.Pos,
					fmt.Sprintf("%s = %d is not a power of two; the kernel uses %d", s.Key, v, ir.FlowTableSize(v)),
					Note(ir.Pos{}, "net/core/sysctl_net_core.c: rps_sock_flow_sysctl() rounds up"))
			}
		}
	},
}

func pow2(v uint64) bool { return v&(v-1) == 0 }
