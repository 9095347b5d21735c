package tune

import (
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// PolicyScript returns the irqbalance policy script of the board.
// irqbalance runs it once per IRQ with the IRQ's sysfs device path and
// number as arguments and reads key=value lines from its output; it prints
// ban=true for every IRQ whose action name tune.sh places, so irqbalance
// leaves their affinity alone (it ignores affinity hints), and exits 0;
// for any other IRQ it prints nothing and exits 1. That is irqbalance's
// convention for a directory of policy scripts (classify.c
// get_irq_user_policy(): 1 means "not for this IRQ", ask the next
// script; 0 ends the search), so the board's script never shadows
// another's verdict. Given alone as --policyscript=FILE, irqbalance logs
// each exit 1 as an error: install it in the directory (PolicyDir).
func PolicyScript(b *ir.Board) string { return string(policyScript(b).Data) }

func policyScript(b *ir.Board) outputs.File {
	p := outputs.NewPrinter(outputs.Shell)
	p.P("#!/bin/sh")
	header(p, b, "irqbalance policy script")
	c := p.Block("")
	c.Line("Bans the IRQs tune.sh places, found by action name, from irqbalance:")
	c.Line("prints ban=true and exits 0 for them, exits 1 (not this script's IRQ)")
	c.Line("for the others. Install as ", PolicyDir, "/boardc-", b.Name, " (mode 0755):")
	c.Line("irqbalance.service.d/90-boardc-", b.Name, ".conf passes irqbalance")
	c.Line("--policyscript=", PolicyDir, ", and irqbalance asks each script there")
	c.Line("in turn, with the IRQ's sysfs device path and its number.")
	// body/policy.sh reads the IRQ's action names with
	// awk/irq-actions.awk (find=names): tune.sh finds the IRQs it places
	// with the same program (find=vars), so the script bans what
	// tune.sh places, as tune.sh reads /proc/interrupts.
	writeBody(p, "policy.sh", map[string]func(){"\t@pins@": func() { policyArms(p, b) }})
	return p.File(PolicyFile)
}

// policyArms writes the arms of the policy script's case on the action
// name: one per name an IRQ pin places, printing ban=true.
func policyArms(p *outputs.Printer, b *ir.Board) {
	seen := map[string]bool{}
	for pi, pin := range b.Policy.IRQs {
		o := outputs.From(ir.IRQPinRef(pi), pin.Pos)
		if seen[pin.IRQ] {
			p.Comment("\t", o, outputs.T(pin.Pos, ": IRQs named ", pin.IRQ, ", banned above"))
			continue
		}
		seen[pin.IRQ] = true
		p.Comment("\t", o, outputs.T(pin.Pos, ": IRQs named ", pin.IRQ, " are pinned by tune.sh"))
		p.P(o.Named(pin.IRQ), "\t", outputs.Str(pin.IRQ), ")")
		p.P(o, "\t\techo ban=true")
		p.P("\t\texit 0")
		p.P("\t\t;;")
	}
}
