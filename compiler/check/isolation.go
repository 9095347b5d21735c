package check

import (
	"fmt"
	"slices"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// DPAA2Isolated finds what of DPAA2 the kernel would put on isolated
// CPUs: portals it gives them, interfaces whose queues reach them.
var DPAA2Isolated = &Check{
	Needs: FactCPUs | FactMasters | FactDPAA2 | FactPolicy,
	Code: diag.Code{ID: "BC0417", Name: "dpaa2-isolated-cpu", Severity: diag.Error,
		Doc: "The DPAA2 description puts work on a CPU the policy isolates. The kernel places DPAA2 by CPU " +
			"number, not by isolation: dpaa2_dpio_probe() (drivers/soc/fsl/dpio/dpio-driver.c, Linux 6.12:179) " +
			"gives each DPIO of the container the lowest online CPU no DPIO has yet, in probe order, and " +
			"register_dpio_irq_handlers() (:114) hints its IRQ dpio.N to that CPU; dpaa2_eth_setup_dpio() " +
			"(drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c:3175-3232) makes a channel on each online CPU " +
			"in ascending order, registered with that CPU's DPIO, until it has the DPNI's num_queues, and " +
			"spreads the frame queues, RSS and XPS over them. Neither skips an isolated CPU, and a CPU without " +
			"a DPIO defers the interface's probe. So only the CPUs below the lowest isolated CPU can serve " +
			"DPAA2: describe at most that many DPIOs and interface queues (the data-path layout bounds the " +
			"queues of a DPNI without an interface itself). Isolated CPUs " +
			"that are not the highest-numbered leave the housekeeping CPUs above them without a channel: a " +
			"warning. CPU 0 isolated leaves dpaa2-eth no CPU at all: an error."},
	Run: func(p *Pass) {
		b := p.Board
		d := b.SoC.DPAA2
		pol := &b.Policy
		if d == nil || len(pol.IsolatedCPUs) == 0 {
			return
		}
		iso := ir.SortedCPUs(pol.IsolatedCPUs)
		reach := b.DPAA2EthReach()
		if reach == 0 {
			p.Report(ir.RefIsolatedCPUs, pol.IsolatedPos,
				"CPU 0 is isolated, and dpaa2-eth makes its first channel on the lowest online CPU: it cannot keep off the isolated CPUs",
				Note(ir.Pos{}, "dpaa2_eth_setup_dpio() (drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c:3175): for_each_online_cpu(), a channel on each CPU until num_queues"))
			return
		}
		below := seqCPUs(reach)
		var isoTaken []int
		for _, c := range iso {
			if c < len(d.DPIOs) {
				isoTaken = append(isoTaken, c)
			}
		}
		if len(d.DPIOs) > reach {
			io := d.DPIOs[reach]
			p.Report(io.Ref(), io.Pos,
				fmt.Sprintf("%d DPIOs take the %d lowest online CPUs, isolated %s among them: describe at most %d, for %s",
					len(d.DPIOs), len(d.DPIOs), ir.CPUText(isoTaken), reach, ir.CPUText(below)),
				Note(ir.Pos{}, "dpaa2_dpio_probe() (drivers/soc/fsl/dpio/dpio-driver.c:179) gives each DPIO the lowest online CPU no DPIO has yet, and register_dpio_irq_handlers() (:114) hints its IRQ dpio.N there"),
				Note(pol.IsolatedPos, "isolated CPUs"))
		}
		for _, m := range b.SoC.Masters {
			if !m.IsMC() {
				continue
			}
			for _, nd := range m.NetDevs {
				q := max(nd.RxQueues, nd.TxQueues)
				if q <= reach {
					continue
				}
				p.Report(m.Ref(), nd.Pos,
					fmt.Sprintf("interface %s has %d queues, and dpaa2-eth serves queue i on the i-th online CPU: queues %d-%d would reach isolated %s; set rxQueues and txQueues to at most %d",
						nd.Name, q, reach, q-1, ir.CPUText(overlap(iso, reach, q)), reach),
					Note(ir.Pos{}, "dpaa2_eth_setup_dpio() (drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c:3175-3232): a channel per online CPU in ascending order, until the DPNI's num_queues; dpaa2_eth_set_fq_affinity() spreads the frame queues over them"),
					Note(pol.IsolatedPos, "isolated CPUs"))
			}
		}
		if house := b.HousekeepingCPUs(); len(house) > reach {
			p.ReportSeverity(diag.Warning, ir.RefIsolatedCPUs, pol.IsolatedPos,
				fmt.Sprintf("dpaa2-eth takes CPUs in ascending order and must stop below isolated CPU %d, so housekeeping %s serve no channel; isolate the highest-numbered CPUs",
					iso[0], ir.CPUText(house[reach:])),
				Note(ir.Pos{}, "dpaa2_eth_setup_dpio() (drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c:3175-3232) skips no online CPU"))
		}
	},
}

// seqCPUs returns CPUs 0..n-1.
func seqCPUs(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// overlap returns the CPUs of iso in [lo, hi).
func overlap(iso []int, lo, hi int) []int {
	var out []int
	for _, c := range iso {
		if c >= lo && c < hi {
			out = append(out, c)
		}
	}
	return out
}

// BootCPUIsolated refuses isolating CPU 0, the boot CPU.
var BootCPUIsolated = &Check{
	Needs: FactCPUs | FactPolicy,
	Code: diag.Code{ID: "BC0418", Name: "isolated-boot-cpu", Severity: diag.Error,
		Doc: "isolatedCPUs includes CPU 0. On arm64 logical CPU 0 is the boot CPU " +
			"(arch/arm64/kernel/setup.c smp_setup_processor_id(): set_cpu_logical_map(0, mpidr)), and " +
			"tick_nohz_init() (kernel/time/tick-sched.c, Linux 6.12:651-659) clears the boot CPU from the " +
			"nohz_full mask for timekeeping when CONFIG_PM_SLEEP_SMP is set without " +
			"CONFIG_PM_SLEEP_SMP_NONZERO_CPU (kernel/power/Kconfig: it needs ARCH_SUSPEND_NONZERO_CPU, " +
			"which arm64 does not select): the nohz_full= that cmdline.txt writes would not hold for it. " +
			"Keep CPU 0 for housekeeping and isolate the highest-numbered CPUs."},
	Run: func(p *Pass) {
		pol := &p.Board.Policy
		if !slices.Contains(pol.IsolatedCPUs, 0) || p.Board.SoC.NumCPUs() == 0 {
			return // with no CPU, BC0402 reports CPU 0
		}
		p.Report(ir.RefIsolatedCPUs, pol.IsolatedPos,
			"isolatedCPUs includes CPU 0, the boot CPU, which tick_nohz_init() keeps out of nohz_full for timekeeping: keep it for housekeeping",
			Note(ir.Pos{}, "kernel/time/tick-sched.c tick_nohz_init(): \"NO_HZ: Clearing %%d from nohz_full range for timekeeping\" (CONFIG_PM_SLEEP_SMP without CONFIG_PM_SLEEP_SMP_NONZERO_CPU, as on arm64)"))
	},
}
