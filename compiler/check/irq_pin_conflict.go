package check

import (
	"fmt"
	"slices"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// IRQPinConflict finds an IRQ pinned twice.
var IRQPinConflict = &Check{
	Needs: FactCPUs | FactMasters | FactPolicy,
	Code: diag.Code{ID: "BC0408", Name: "irq-pin-conflict", Severity: diag.Error,
		Doc: "Two policy.irqs entries pin the same IRQ. To different CPU sets: tune.sh applies the pins in " +
			"order, so the last one wins: every apply moves the IRQ to each set in turn, and tune.sh " +
			"--verify reports the earlier pins drifted after every apply. To the same set: the second " +
			"pin says nothing, and a later edit of one of them starts the conflict. Each pin after the " +
			"first of an IRQ is reported, with a note at the pin before it. Pin each IRQ once, to the " +
			"union of the CPUs if that is what is meant."},
	Run: func(p *Pass) {
		last := map[string]int{}
		pins := p.Board.Policy.IRQs
		for i := range pins {
			pin := &pins[i]
			j, ok := last[pin.IRQ]
			last[pin.IRQ] = i
			if !ok {
				continue
			}
			prev, prevRef := &pins[j], ir.IRQPinRef(j)
			if slices.Equal(ir.SortedCPUs(prev.CPUs), ir.SortedCPUs(pin.CPUs)) {
				p.Report(ir.IRQPinRef(i), pin.Pos,
					fmt.Sprintf("IRQ %s is pinned to %s here and again by %s: pin each IRQ once", pin.IRQ, ir.CPUText(pin.CPUs), prevRef),
					Note(prev.Pos, "%s pins IRQ %s to %s", prevRef, prev.IRQ, ir.CPUText(prev.CPUs)))
				continue
			}
			p.Report(ir.IRQPinRef(i), pin.Pos,
				fmt.Sprintf("IRQ %s is pinned to %s here and to %s by %s: only the last pin of an IRQ holds once tune.sh has applied them, and tune.sh --verify reports the others drifted after every apply",
					pin.IRQ, ir.CPUText(pin.CPUs), ir.CPUText(prev.CPUs), prevRef),
				Note(prev.Pos, "%s pins IRQ %s to %s", prevRef, prev.IRQ, ir.CPUText(prev.CPUs)))
		}
	},
}
