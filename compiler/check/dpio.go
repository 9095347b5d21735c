package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// DPIOCount compares the number of DPAA2 I/O portals with the CPUs.
var DPIOCount = &Check{
	Needs: FactCPUs | FactDPAA2,
	Code: diag.Code{ID: "BC0301", Name: "dpio-count", Severity: diag.Error,
		Doc: "DPAA2 needs one DPIO portal per CPU. dpaa2_dpio_probe() gives each DPIO the next unused " +
			"online CPU and fails with -ERANGE (\"Number of DPIOs exceeds NR_CPUS\") when there is none " +
			"(drivers/soc/fsl/dpio/dpio-driver.c): more DPIOs than CPUs is an error. Fewer is a warning: " +
			"dpaa2-eth registers each channel with its CPU's own portal (dpaa2_io_service_select(cpu) in " +
			"dpaa2_eth_setup_dpio(), drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c), and on a CPU " +
			"without one the registration fails and the interface's probe is deferred, unless the DPNI " +
			"has no more queues than the CPUs before it; none where the CPUs without one are the isolated CPUs above " +
			"the last one DPAA2 may take (BC0417). What was measured is the driver not using the " +
			"CPU's affine portal (LS2088A, 8 cores, 2018): 1.33 Mpps and out of memory after minutes, " +
			"against 3.72 Mpps with it; no figure was measured for fewer DPIOs than CPUs. Two DPIOs on " +
			"one CPU, one DPIO id twice, or a stash destination (clusterBase + cpu / clusterSize) above " +
			"the u8 of dpio_set_stashing_destination(), is an error."},
	Run: func(p *Pass) {
		d := p.Board.SoC.DPAA2
		if d == nil {
			return
		}
		n := p.Board.SoC.NumCPUs()
		switch {
		case len(d.DPIOs) > n:
			p.Report(ir.RefDPAA2, d.Pos, fmt.Sprintf("%d DPIOs for %d CPUs: the DPIOs past the last CPU fail to probe with -ERANGE", len(d.DPIOs), n),
				Note(ir.Pos{}, "drivers/soc/fsl/dpio/dpio-driver.c: \"probe failed. Number of DPIOs exceeds NR_CPUS.\""))
		case len(d.DPIOs) < n && len(p.Board.Policy.IsolatedCPUs) > 0 && len(d.DPIOs) == p.Board.DPAA2EthReach():
			// The CPUs without a portal are the isolated ones above the
			// last a DPNI reaches (BC0417): as meant.
		case len(d.DPIOs) < n:
			p.ReportSeverity(diag.Warning, ir.RefDPAA2, d.Pos, fmt.Sprintf("%d DPIOs for %d CPUs: some CPUs have no portal of their own", len(d.DPIOs), n),
				Note(ir.Pos{}, "dpaa2_eth_setup_dpio() (drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c) registers a channel with each online CPU's own DPIO until the DPNI's queues are served; reaching a CPU without one defers the interface's probe"),
				Note(ir.Pos{}, "measured on LS2088A, 8 cores, when dpaa2-eth did not use the CPU's affine portal: 1.33 Mpps and out of memory, against 3.72 Mpps with it; fewer DPIOs than CPUs was not measured"))
		}
		cpus, ids := map[int]ir.Pos{}, map[int]ir.Pos{}
		for _, io := range d.DPIOs {
			if prev, ok := cpus[io.CPU]; ok {
				p.Report(io.Ref(), io.Pos, fmt.Sprintf("CPU %d has two DPIOs", io.CPU), Note(prev, "the other DPIO"))
			}
			if prev, ok := ids[io.ID]; ok {
				p.Report(io.Ref(), io.Pos, fmt.Sprintf("DPIO %d is declared twice", io.ID), Note(prev, "the other declaration"))
			}
			cpus[io.CPU], ids[io.ID] = io.Pos, io.Pos
			if dest := d.StashDest(io.CPU); dest > 255 {
				p.Report(io.Ref(), io.Pos, fmt.Sprintf("DPIO %d stashes to destination %d, which does not fit dpio_set_stashing_destination()'s u8", io.ID, dest),
					Note(d.StashPos, "stash destination: clusterBase + cpu / clusterSize"))
			}
		}
	},
}

// RXStashing refuses RX-queue FLC stashing.
var RXStashing = &Check{
	Needs: FactDPAA2,
	Code: diag.Code{ID: "BC0302", Name: "rx-queue-stashing", Severity: diag.Error,
		Doc: "Stashing on DPAA2 RX queues through the flow context (DPNI_QUEUE_OPT_FLC) was added to " +
			"dpaa2-eth in 2019 and reverted upstream the same year: a stash that arrives late can touch a " +
			"buffer that has already been unmapped, which raises an SMMU exception. Frame-data stashing " +
			"to the DPIO's cluster (the stash destination) is the supported way."},
	Run: func(p *Pass) {
		if d := p.Board.SoC.DPAA2; d != nil && d.RXStashing {
			p.Report(ir.RefDPAA2, d.RXStashingPos, "RX-queue FLC stashing (DPNI_QUEUE_OPT_FLC) was reverted upstream in 2019",
				Note(ir.Pos{}, "a late stash can hit an unmapped buffer and raise an SMMU exception"),
				Note(ir.Pos{}, "use the DPIO stash destination (cluster stashing) instead"))
		}
	},
}
