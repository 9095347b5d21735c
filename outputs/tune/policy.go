package tune

import (
	"fmt"
	"strings"

	"boardc.dev/boardc/compiler/ir"
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
func PolicyScript(b *ir.Board) string {
	var w strings.Builder
	w.WriteString("#!/bin/sh\n")
	header(&w, b, "irqbalance policy script")
	w.WriteString("# Bans the IRQs tune.sh pins, found by action name, from irqbalance.\n")
	fmt.Fprintf(&w, "# Install as %s/%s/%s and start irqbalance with\n", InstallDir, Comment(b.Name), PolicyFile)
	fmt.Fprintf(&w, "#   --policyscript=%s/%s/%s\n", InstallDir, Comment(b.Name), PolicyFile)
	w.WriteString("# (e.g. IRQBALANCE_ARGS in /etc/default/irqbalance). irqbalance calls it\n")
	w.WriteString("# with the IRQ's sysfs device path and its number.\n")
	w.WriteString("set -eu\n\n")
	w.WriteString("irq=${2-}\n")
	w.WriteString("case $irq in\n'' | *[!0-9]*) exit 0 ;;\nesac\n")
	w.WriteString("names=$(BOARDC_IRQNUM=$irq awk '" + irqNamesAwk + "' \"${BOARDC_ROOT-}/proc/interrupts\") || exit 0\n")
	w.WriteString("while IFS= read -r name; do\n\tcase $name in\n")
	seen := map[string]bool{}
	for _, p := range b.Policy.IRQs {
		if seen[p.IRQ] {
			fmt.Fprintf(&w, "\t# %s: IRQs named %s, banned above\n", where(p.Pos), Comment(p.IRQ))
			continue
		}
		seen[p.IRQ] = true
		fmt.Fprintf(&w, "\t# %s: IRQs named %s are pinned by tune.sh\n", where(p.Pos), Comment(p.IRQ))
		fmt.Fprintf(&w, "\t%s)\n\t\techo ban=true\n\t\texit 0\n\t\t;;\n", Quote(p.IRQ))
	}
	w.WriteString("\tesac\ndone <<EOF\n$names\nEOF\n")
	return w.String()
}
