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

// PolicyScript returns the irqbalance --policyscript of the board.
// irqbalance runs it once per IRQ with the IRQ's sysfs device path and
// number as arguments and reads key=value lines from its output; it prints
// ban=true for every IRQ whose action name tune.sh pins, so irqbalance
// leaves their affinity alone (it ignores affinity hints).
func PolicyScript(b *ir.Board) string { return string(policyScript(b).Data) }

func policyScript(b *ir.Board) outputs.File {
	p := outputs.NewPrinter(outputs.Shell)
	p.P("#!/bin/sh")
	header(p, b, "irqbalance policy script")
	c := p.Block("")
	c.Line("Bans the IRQs tune.sh pins, found by action name, from irqbalance.")
	c.Line("Install as ", InstallDir, "/", b.Name, "/", PolicyFile, " and start irqbalance with")
	c.Line("  --policyscript=", InstallDir, "/", b.Name, "/", PolicyFile)
	c.Line("(e.g. IRQBALANCE_ARGS in /etc/default/irqbalance). irqbalance calls it")
	c.Line("with the IRQ's sysfs device path and its number.")
	p.P("set -eu")
	p.P()
	p.P("irq=${2-}")
	p.P("case $irq in")
	p.P("'' | *[!0-9]*) exit 0 ;;")
	p.P("esac")
	p.P("names=$(BOARDC_IRQNUM=$irq awk '" + irqNamesAwk + "' \"${BOARDC_ROOT-}/proc/interrupts\") || exit 0")
	p.P("while IFS= read -r name; do")
	p.P("\tcase $name in")
	seen := map[string]bool{}
	for _, pin := range b.Policy.IRQs {
		o := outputs.From(pin.Ref, pin.Pos)
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
	return p.File(PolicyFile)
}
