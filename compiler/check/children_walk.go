package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
)

// ChildrenNoRanges finds a coherent master whose masks are set on the
// devices below it (driverSets children, the fsl-mc bus) when the
// dma-ranges walk from its node reaches none: the kernel then leaves
// those devices non-coherent.
var ChildrenNoRanges = &Check{
	Needs: FactBuses | FactMasters,
	Code: diag.Code{ID: "BC0212", Name: "children-no-dma-ranges", Severity: diag.Warning,
		Doc: "A master whose masks are set on the devices its bus driver creates below it (driverSets " +
			"children: the DPAA2 objects of the fsl-mc bus) is coherent, but the dma-ranges walk from its " +
			"node reaches no dma-ranges. fsl_mc_dma_configure() (drivers/bus/fsl-mc/fsl-mc-bus.c, Linux " +
			"6.12) configures each object from the master's node with force_dma false, and " +
			"of_dma_configure_id() (drivers/of/device.c) then returns as soon as of_dma_get_range() finds " +
			"no dma-ranges (-ENODEV), before of_dma_is_coherent() and arch_setup_dma_ops(): the objects " +
			"keep the non-coherent default of arm64 (dma_default_coherent, kernel/dma/mapping.c) whatever " +
			"dma-coherent says, and the verifier, which expects them coherent, reports a mismatch. State " +
			"the dma-ranges on the master's bus (an empty one, the identity, is enough where the bus " +
			"above it has some)."},
	Run: func(p *Pass) {
		for _, m := range p.Board.SoC.Masters {
			d := m.DriverSets
			if d == nil || !d.Children || !m.Enabled || !m.Coherent() {
				continue
			}
			if _, from := m.EndpointDMALimit(); from != nil {
				continue
			}
			p.Report(m.Ref(), d.ChildrenPos,
				fmt.Sprintf("master %s is coherent, but the dma-ranges walk from its node reaches none: the devices below it are configured with force_dma false (fsl_mc_dma_configure()), so of_dma_configure_id() returns before it sets their coherency, and they are non-coherent", m.Key),
				Note(m.BusPos, "the walk goes from its node up through bus %s and the buses above it and ends without a dma-ranges (-ENODEV)", m.Bus.Key))
		}
	},
}
