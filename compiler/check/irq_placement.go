package check

import (
	"fmt"
	"slices"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// IRQOneTarget finds a pin that gives an IRQ left to user space more CPUs
// than the IRQs of its name on an interrupt controller that delivers each
// IRQ to one CPU.
var IRQOneTarget = &Check{
	Needs: FactCPUs | FactMasters | FactIRQDelivery | FactPolicy,
	Code: diag.Code{ID: "BC0413", Name: "irq-mask-one-target", Severity: diag.Error,
		Doc: "A pin lists more CPUs than there are IRQs of its name, on an SoC whose interrupt controller " +
			"delivers each IRQ to one CPU of its mask (soc.irqDelivery targets: \"one\": a GICv3 SPI goes " +
			"to the first CPU of the mask, gic_set_affinity() in drivers/irqchip/irq-gic-v3.c; an ITS LPI to " +
			"one CPU, its_set_affinity() in irq-gic-v3-its.c). The mask spreads nothing: the IRQ runs on one " +
			"CPU and the others stay idle. tune.sh gives the IRQs sharing a name one CPU each, in the " +
			"order: " + ir.SpreadOrder + ". Pin the IRQ to one CPU, or declare how many IRQs share the " +
			"name (soc.masters.KEY.irqCount). IRQs their driver places (irqAffinity) are not checked: " +
			"their pin is what the driver's hint is expected to be."},
	Run: func(p *Pass) {
		d := p.Board.SoC.IRQDelivery
		if d == nil || !d.One {
			return
		}
		for pi, pin := range p.Board.Policy.IRQs {
			if pin.Placed() || pin.Count == 0 || len(pin.CPUs) <= pin.Count {
				continue
			}
			used, idle := pin.CPUs[:pin.Count], pin.CPUs[pin.Count:]
			what := fmt.Sprintf("IRQ %s is one IRQ pinned to %s", pin.IRQ, ir.CPUText(pin.CPUs))
			them := "it"
			if pin.Count > 1 {
				what = fmt.Sprintf("the %d IRQs named %s are pinned to %s", pin.Count, pin.IRQ, ir.CPUText(pin.CPUs))
				them = "them"
			}
			p.Report(ir.IRQPinRef(pi), pin.Pos,
				fmt.Sprintf("%s, and the interrupt controller delivers each IRQ to one CPU: tune.sh places %s on %s, and %s never %s %s; pin one CPU per IRQ",
					what, them, ir.CPUText(used), ir.CPUText(idle), takes(len(idle)), them),
				Note(d.Pos, "one target per IRQ: %s", d.Source))
		}
	},
}

// IRQKeys finds irqAffinity.driver and irqCount entries naming no IRQ of
// their master.
var IRQKeys = &Check{
	Needs: FactMasters | FactIRQDelivery | FactPolicy,
	Code: diag.Code{ID: "BC0414", Name: "irq-fact-key", Severity: diag.Error,
		Doc: "soc.masters.KEY.irqAffinity.driver or irqCount names a key that is not one of the master's " +
			"irqs, so the fact applies to nothing: a typo, or an IRQ removed from irqs. Name the IRQ by its " +
			"key in irqs."},
	Run: func(p *Pass) {
		for _, m := range p.Board.SoC.Masters {
			keys := make([]string, len(m.IRQs))
			for i, q := range m.IRQs {
				keys[i] = q.Key
			}
			if aff := m.IRQAffinity; aff != nil {
				for _, k := range aff.Keys {
					if !slices.Contains(keys, k) {
						p.Report(m.Ref().Field("irqAffinity"), aff.Pos,
							fmt.Sprintf("irqAffinity.driver names %q, which is not an IRQ of master %s (irqs: %s)", k, m.Key, listOrNone(keys)))
					}
				}
			}
			for _, k := range m.IRQCountKeys {
				if !slices.Contains(keys, k) {
					p.Report(m.Ref().Field("irqCount"), m.IRQCountPos,
						fmt.Sprintf("irqCount names %q, which is not an IRQ of master %s (irqs: %s)", k, m.Key, listOrNone(keys)))
				}
			}
		}
	},
}

// takes is "takes" or "take" for n CPUs.
func takes(n int) string {
	if n == 1 {
		return "takes"
	}
	return "take"
}

// listOrNone joins keys for a message, or says none.
func listOrNone(keys []string) string {
	if len(keys) == 0 {
		return "none"
	}
	s := ""
	for i, k := range keys {
		if i > 0 {
			s += ", "
		}
		s += k
	}
	return s
}
