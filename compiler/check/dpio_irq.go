package check

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// dpioIRQ matches the name dpaa2_dpio_probe() gives a portal's IRQ: the
// DPIO's device name, dpio.<id>.
var dpioIRQ = regexp.MustCompile(`^dpio\.([0-9]+)$`)

// DPIOPin compares the pins of dpio.N IRQs with the DPIO table.
var DPIOPin = &Check{
	Needs: FactCPUs | FactMasters | FactDPAA2 | FactPolicy,
	Code: diag.Code{ID: "BC0304", Name: "dpio-irq-pin", Severity: diag.Warning,
		Doc: "A policy.irqs pin of the IRQ dpio.N, N a DPIO id, names CPUs other than the one the DPIO " +
			"table gives DPIO N, or N is no DPIO of the table. The portal's CPU is where its IRQ must " +
			"fire: dpaa2-eth polls a channel on the CPU whose DPIO serves it. The table is an expectation, " +
			"not what the kernel reads: dpaa2_dpio_probe() (drivers/soc/fsl/dpio/dpio-driver.c) gives " +
			"each DPIO the first online CPU no DPIO has yet, in probe order, and " +
			"register_dpio_irq_handlers() sets dpio.N's affinity hint to that CPU itself. The target " +
			"must verify that /proc/irq/N/affinity_hint matches the table before a pin is trusted."},
	Run: func(p *Pass) {
		d := p.Board.SoC.DPAA2
		if d == nil {
			return
		}
		byID := map[int]ir.DPIO{}
		for _, io := range d.DPIOs {
			if _, ok := byID[io.ID]; !ok {
				byID[io.ID] = io
			}
		}
		probe := Note(ir.Pos{}, "dpaa2_dpio_probe() (drivers/soc/fsl/dpio/dpio-driver.c) assigns CPUs in probe order "+
			"and sets the affinity hint itself: verify /proc/irq/N/affinity_hint on the target")
		for pi, pin := range p.Board.Policy.IRQs {
			m := dpioIRQ.FindStringSubmatch(pin.IRQ)
			if m == nil {
				continue
			}
			id, err := strconv.Atoi(m[1])
			if err != nil {
				continue
			}
			io, ok := byID[id]
			if !ok {
				p.Report(ir.IRQPinRef(pi), pin.Pos, fmt.Sprintf("IRQ %s is pinned, but the DPIO table has no DPIO %d", pin.IRQ, id),
					Note(d.Pos, "the DPIO table"), probe)
				continue
			}
			if slices.Equal(ir.SortedCPUs(pin.CPUs), []int{io.CPU}) {
				continue
			}
			p.Report(ir.IRQPinRef(pi), pin.Pos,
				fmt.Sprintf("IRQ %s is pinned to %s, but the DPIO table gives DPIO %d to CPU %d", pin.IRQ, ir.CPUText(pin.CPUs), id, io.CPU),
				Note(io.Pos, "DPIO %d serves CPU %d", id, io.CPU), probe)
		}
	},
}
