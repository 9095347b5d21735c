package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// DPCONBudget checks that there are DPCONs for every channel of every DPNI.
var DPCONBudget = &Check{
	Needs: FactCPUs | FactMasters | FactDPAA2 | FactPolicy,
	Code: diag.Code{ID: "BC0306", Name: "dpcon-budget", Severity: diag.Error,
		Doc: "dpaa2-eth takes one DPCON per channel per interface. dpaa2_eth_setup_dpio() " +
			"(drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c) walks the online CPUs and makes a channel " +
			"on each, registered with that CPU's own DPIO (dpaa2_io_service_select(cpu)), until the " +
			"channels reach the DPNI's queue count; each channel's dpaa2_eth_alloc_channel() takes a " +
			"DPCON from the container through dpaa2_eth_setup_dpcon(). So dpcon must be at least the sum, " +
			"over the DPNIs, of min(CPUs with a DPIO, the DPNI's queues): dpni × that with equal queues. " +
			"The queues of a DPNI are the rxQueues of the fsl-mc master's network devices, in name order; " +
			"a DPNI without one is taken to have a queue per CPU. When the pool is empty " +
			"fsl_mc_resource_allocate() (drivers/bus/fsl-mc/fsl-mc-allocator.c) returns -ENXIO, which " +
			"dpaa2_eth_setup_dpcon() turns into -EPROBE_DEFER: the interface that finds no DPCON left " +
			"does not probe."},
	Run: func(p *Pass) {
		d := p.Board.SoC.DPAA2
		if d == nil || d.DPNI == 0 {
			return
		}
		soc := &p.Board.SoC
		cpus := soc.DPIOCPUs()
		if len(cpus) == 0 {
			return // no channel at all; BC0301 reports the missing DPIOs
		}
		devs := soc.DPNIDevs()
		need, uniform := 0, true
		per := -1
		for i := 0; i < d.DPNI; i++ {
			// Bounded by isolated CPUs as the layout bounds num_queues.
			ch := min(len(cpus), p.Board.DPNIQueuesIsolated(i))
			if per >= 0 && ch != per {
				uniform = false
			}
			per = ch
			need += ch
		}
		if d.DPCON >= need {
			return
		}
		how := fmt.Sprintf("%d DPNIs × %d channels", d.DPNI, per)
		if !uniform {
			how = fmt.Sprintf("the channels of %d DPNIs", d.DPNI)
		}
		notes := []diag.Note{
			Note(ir.Pos{}, "a channel per online CPU with its own DPIO (%d here: CPUs %s), up to the DPNI's queue count, each with its own DPCON: "+
				"dpaa2_eth_setup_dpio(), dpaa2_eth_setup_dpcon() (drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c)", len(cpus), ir.CPUList(cpus)),
		}
		if len(devs) > 0 {
			notes = append(notes, Note(devs[0].Pos, "queue counts from the rxQueues of the fsl-mc master's network devices"))
		}
		notes = append(notes, Note(ir.Pos{}, "once the DPCONs run out, dpaa2_eth_setup_dpcon() defers the next interface's probe (-EPROBE_DEFER on the pool's -ENXIO)"))
		p.Report(ir.RefDPAA2, d.DPCONPos.Or(d.Pos),
			fmt.Sprintf("dpcon is %d, but %s need %d DPCONs: one per channel per interface", d.DPCON, how, need),
			notes...)
	},
}
