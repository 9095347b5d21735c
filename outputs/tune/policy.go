package tune

import (
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// irqNamesAwk prints every action name of the IRQ numbered
// ENVIRON["BOARDC_IRQNUM"] in /proc/interrupts.
const irqNamesAwk = `$1 == ENVIRON["BOARDC_IRQNUM"] ":" {
	for (i = NF; i > 1; i--) {
		a = $i
		if (i < NF && a !~ /,$/)
			break
		sub(/,$/, "", a)
		print a
	}
}`

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
	p.P("set -eu")
	p.P()
	p.P("irq=${2-}")
	p.P("case $irq in")
	p.P("'' | *[!0-9]*) exit 1 ;;")
	p.P("esac")
	p.P("names=$(BOARDC_IRQNUM=$irq awk '" + irqNamesAwk + "' \"${BOARDC_ROOT-}/proc/interrupts\") || exit 1")
	p.P("while IFS= read -r name; do")
	p.P("\tcase $name in")
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
	p.P("\tesac")
	p.P("done <<EOF")
	p.P("$names")
	p.P("EOF")
	p.P("exit 1")
	return p.File(PolicyFile)
}
