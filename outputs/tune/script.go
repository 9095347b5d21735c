package tune

import (
	"fmt"
	"strings"

	"boardc.dev/boardc/compiler/ir"
)

// Script returns tune.sh: a POSIX shell script that applies, shows
// (--dry-run), checks (--verify) and reverts (--revert) the board's runtime
// tuning. Every value from the description is a single-quoted word, so no
// name can inject a command; every action is preceded by a comment naming
// the description line it comes from.
func Script(b *ir.Board) string {
	var w strings.Builder
	w.WriteString("#!/bin/sh\n")
	header(&w, b, "Runtime tuning")
	w.WriteString("# Pins IRQs by their action name in /proc/interrupts, sets RPS/XPS masks\n")
	w.WriteString("# and sysctls. Each action names the description line it comes from.\n")
	w.WriteString("# Run with --help for the options and exit statuses.\n")
	w.WriteString("set -eu\n\n")
	fmt.Fprintf(&w, "board=%s\n", Quote(b.Name))
	pins := 0
	if len(b.Policy.IRQs) > 0 {
		pins = 1
	}
	fmt.Fprintf(&w, "pins_irqs=%d\n\n", pins)

	fmt.Fprintf(&w, "# board_matches COMPATIBLE succeeds when a root compatible string names\n")
	fmt.Fprintf(&w, "# this board (%s).\n", where(b.CompatiblePos))
	w.WriteString("board_matches() {\n\tcase $1 in\n")
	for _, c := range guardCompatibles(b) {
		fmt.Fprintf(&w, "\t%s) return 0 ;;\n", Quote(c))
	}
	w.WriteString("\tesac\n\treturn 1\n}\n\n")

	w.WriteString("# actions lists every value the board tunes; see pin_irq and act.\n")
	w.WriteString("actions() {\n")
	writeActions(&w, b)
	w.WriteString("\t:\n}\n")
	w.WriteString(library)
	return w.String()
}

// writeActions writes the body of the script's actions function.
func writeActions(w *strings.Builder, b *ir.Board) {
	for _, p := range b.Policy.IRQs {
		pos := where(p.Pos)
		list := ir.CPUList(p.CPUs)
		fmt.Fprintf(w, "\t# %s: IRQs named %s on %s\n", pos, Comment(p.IRQ), cpuText(p.CPUs))
		fmt.Fprintf(w, "\tpin_irq %s %s %s\n", Quote(p.IRQ), Quote(list), Quote(pos))
	}
	for _, n := range b.Policy.Net {
		pos := where(n.Pos)
		dir := "/sys/class/net/" + n.IfName + "/queues/"
		for i, cpus := range n.RPS {
			fmt.Fprintf(w, "\t# %s: %s rx-%d RPS on %s\n", pos, Comment(n.IfName), i, cpuText(cpus))
			act(w, "net", "mask", fmt.Sprintf("%srx-%d/rps_cpus", dir, i), ir.CPUMask(cpus), pos)
		}
		if n.RPSFlowCount >= 0 {
			v := roundPow2(int64(n.RPSFlowCount))
			// Every receive queue gets the flow count: RFS needs it on
			// each queue that receives.
			queues := rxQueues(b, n)
			for i := 0; i < queues; i++ {
				fmt.Fprintf(w, "\t# %s: %s rx-%d rps_flow_cnt %d", pos, Comment(n.IfName), i, n.RPSFlowCount)
				if v != int64(n.RPSFlowCount) {
					w.WriteString(", rounded up to a power of two as the kernel stores it")
				}
				w.WriteString("\n")
				act(w, "net", "text", fmt.Sprintf("%srx-%d/rps_flow_cnt", dir, i), fmt.Sprint(v), pos)
			}
		}
		for i, cpus := range n.XPS {
			fmt.Fprintf(w, "\t# %s: %s tx-%d XPS on %s\n", pos, Comment(n.IfName), i, cpuText(cpus))
			act(w, "net", "mask", fmt.Sprintf("%stx-%d/xps_cpus", dir, i), ir.CPUMask(cpus), pos)
		}
	}
	for _, s := range b.Policy.Sysctls {
		pos := where(s.Pos)
		v := SysctlValue(s)
		fmt.Fprintf(w, "\t# %s: sysctl %s = %s", pos, Comment(s.Key), Comment(s.Value))
		if v != s.Value {
			w.WriteString(", rounded up to a power of two as the kernel stores it")
		}
		w.WriteString("\n")
		act(w, "sysctl", "text", SysctlPath(s.Key), v, pos)
	}
}

// rxQueues returns how many receive queues of n's interface take its
// rps_flow_cnt: those RPS steers, else all the interface's hardware queues
// where a master declares it, else one.
func rxQueues(b *ir.Board, n ir.NetPolicy) int {
	if len(n.RPS) > 0 {
		return len(n.RPS)
	}
	for _, m := range b.SoC.Masters {
		for _, d := range m.NetDevs {
			if d.Name == n.IfName && d.RxQueues > 0 {
				return d.RxQueues
			}
		}
	}
	return 1
}

func act(w *strings.Builder, part, kind, path, value, pos string) {
	fmt.Fprintf(w, "\tact %s %s %s %s %s\n", part, kind, Quote(path), Quote(value), Quote(pos))
}

// cpuText names a CPU set in a comment: "CPU 3", "CPUs 0-1", "no CPU".
func cpuText(cpus []int) string {
	switch s := ir.SortedCPUs(cpus); len(s) {
	case 0:
		return "no CPU"
	case 1:
		return "CPU " + ir.CPUList(s)
	default:
		return "CPUs " + ir.CPUList(s)
	}
}

// irqAwk prints the number of every IRQ in /proc/interrupts one of whose
// action names is ENVIRON["BOARDC_IRQ"].
const irqAwk = `$1 ~ /^[0-9]+:$/ {
	for (i = NF; i > 1; i--) {
		a = $i
		if (i < NF && a !~ /,$/)
			break
		sub(/,$/, "", a)
		if (a == ENVIRON["BOARDC_IRQ"]) {
			n = $1
			sub(/:$/, "", n)
			print n
			break
		}
	}
}`

// normAwk exits 0 when ENVIRON["BOARDC_WANT"] and ENVIRON["BOARDC_HAVE"]
// are equal once normalized by kind: "list" CPU lists in canonical form
// ("0,1" and "0-1" are equal), "mask" hex masks without commas or leading
// zeros, "text" with blanks collapsed.
const normAwk = `function cpulist(s,    n, i, p, r, c, max, set, out, first) {
	gsub(/[ \t\n]/, "", s)
	n = split(s, p, ",")
	max = -1
	for (i = 1; i <= n; i++) {
		if (p[i] == "")
			continue
		if (p[i] ~ /^[0-9]+$/) {
			r[1] = p[i]
			r[2] = p[i]
		} else if (p[i] ~ /^[0-9]+-[0-9]+$/) {
			split(p[i], r, "-")
		} else {
			return s
		}
		for (c = r[1] + 0; c <= r[2] + 0; c++)
			set[c] = 1
		if (r[2] + 0 > max)
			max = r[2] + 0
	}
	out = ""
	for (c = 0; c <= max; c++) {
		if (!(c in set))
			continue
		first = c
		while ((c + 1) in set)
			c++
		out = out (out == "" ? "" : ",") (first == c ? c : first "-" c)
	}
	return out
}
function norm(v) {
	if (kind == "mask") {
		gsub(/[, \t\n]/, "", v)
		v = tolower(v)
		sub(/^0+/, "", v)
		if (v == "")
			v = "0"
	} else if (kind == "list") {
		v = cpulist(v)
	} else {
		gsub(/[ \t\n]+/, " ", v)
		sub(/^ /, "", v)
		sub(/ $/, "", v)
	}
	return v
}
BEGIN {
	exit norm(ENVIRON["BOARDC_WANT"]) != norm(ENVIRON["BOARDC_HAVE"])
}`
