package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
)

// DPIOIDs checks that the DPIO ids run from 0 without a gap.
var DPIOIDs = &Check{
	Needs: FactDPAA2,
	Code: diag.Code{ID: "BC0305", Name: "dpio-ids", Severity: diag.Error,
		Doc: "The DPIO ids must be 0..N-1, each once. The table is read by position: the data-path layout " +
			"creates dpio@N for each id, and dpaa2_dpio_probe() " +
			"(drivers/soc/fsl/dpio/dpio-driver.c) gives the k-th DPIO it probes the k-th online CPU. Only " +
			"with ids 0..N-1 are DPIO N, its IRQ dpio.N, channel N and the N-th portal the same object; a " +
			"gap, or a first id above 0, describes portals the container does not have or leaves one " +
			"undescribed. A duplicate id is BC0301's."},
	Run: func(p *Pass) {
		d := p.Board.SoC.DPAA2
		if d == nil {
			return
		}
		next := 0
		for i, io := range d.DPIOs {
			if i > 0 && io.ID == d.DPIOs[i-1].ID {
				continue // BC0301
			}
			if io.ID != next {
				missing := fmt.Sprintf("id %d is", next)
				if io.ID-1 > next {
					missing = fmt.Sprintf("ids %d-%d are", next, io.ID-1)
				}
				p.Report(io.Ref(), io.Pos,
					fmt.Sprintf("DPIO id %d leaves a gap: %s not declared, and DPIO ids must run from 0 without one", io.ID, missing),
					Note(d.Pos, "the DPIO table: %d DPIOs, so ids 0-%d", len(d.DPIOs), len(d.DPIOs)-1))
			}
			next = io.ID + 1
		}
	},
}
