#!/bin/sh
# shellcheck source-path=SCRIPTDIR
# SPDX-License-Identifier: (GPL-2.0-or-later OR MIT)
# The target test's checks, run by /init in the guest (busybox sh). They
# compare what the running kernel shows with the board's description:
#
#   /boardc/plan    what the description says (go run ./internal/targetplan)
#   /boardc/props   every property boardc's fragment sets (PATH NAME HEX,
#                   HEX "-" when empty) or deletes (PATH NAME absent)
#   /boardc/xfail   checks known to fail today, one ID a line
#   /boardc/out/    the board's generated files (tune.sh, irqbalance-policy.sh)
#   /boardc/modules/boardc_target.ko   reports the DMA layer's view
#
# The kernel command line's boardc.mode is "full" (every check but the
# command line's), "control" (the device-tree, DMA and command-line
# checks, for a boot without the fragment or the command-line fragment,
# where they must fail), "cmdline" (the command-line checks only, for
# a boot with the fragment of cmdline.txt, /boardc/cmdline.plan) or "dt"
# (the device-tree, DMA and verifier checks, the verifier's negative
# control and a read of virtio-rng, for the dma-ranges case,
# scripts/target/ranges.sh). Each check prints one line,
#   boardc-target: ok|FAIL|xfail|XPASS ID: detail
# and the last line is "boardc-target: N passed, M failed".
set -u

out=/boardc/out
plan=/boardc/plan
passed=0
failed=0
xfailed=0
mode=full
# shellcheck disable=SC2013 # the command line is one line of words
for a in $(cat /proc/cmdline); do
	case $a in
	boardc.mode=*) mode=${a#boardc.mode=} ;;
	esac
done
ncpu=$(grep -c ^processor /proc/cpuinfo)

say() { echo "boardc-target: $*"; }

# known ID succeeds when ID is listed in /boardc/xfail.
known() { grep -qxF "$1" /boardc/xfail 2>/dev/null; }

# result ID OK DETAIL records a check: OK is 0 when it held. A check known
# to fail counts as passed when it fails (xfail) and as failed when it
# holds (XPASS: the fix landed, take it off the list).
result() {
	if known "$1"; then
		if [ "$2" = 0 ]; then
			failed=$((failed + 1))
			say "XPASS $1: $3 (listed as a known failure: take it off the list)"
		else
			xfailed=$((xfailed + 1))
			say "xfail $1: $3"
		fi
	elif [ "$2" = 0 ]; then
		passed=$((passed + 1))
		say "ok $1: $3"
	else
		failed=$((failed + 1))
		say "FAIL $1: $3"
	fi
}

# hexof FILE prints FILE's bytes as lower-case hex, no separators.
hexof() { od -An -v -tx1 <"$1" | tr -d ' \n'; }

# norm KIND VALUE normalizes a value read from the kernel: masks without
# commas or leading zeros, CPU lists expanded to one CPU a line, text with
# blanks collapsed.
norm() {
	case $1 in
	mask) printf '%s' "$2" | tr -d ',\n' | sed 's/^0*//; s/^$/0/' ;;
	list) printf '%s\n' "$2" | tr ',' '\n' | awk -F- 'NF { e = (NF > 1 ? $2 : $1); for (c = $1; c <= e; c++) print c }' ;;
	*) printf '%s' "$2" | tr -s ' \t\n' ' ' | sed 's/^ //; s/ $//' ;;
	esac
}

# list_mask LIST prints the hex CPU mask of the CPU list LIST.
list_mask() {
	m=0
	for c in $(norm list "$1"); do
		m=$((m | (1 << c)))
	done
	printf '%x\n' "$m"
}

# eff_within N WANT prints the effective affinity list of IRQ N (where
# the interrupt controller really delivers it) and succeeds when it is
# not empty and every CPU in it is in the CPU list WANT.
eff_within() {
	eff=$(cat "/proc/irq/$1/effective_affinity_list")
	printf '%s' "$eff"
	[ -n "$eff" ] && ! norm list "$eff" | grep -qvxF "$(norm list "$2")"
}

# sysctl_ok PATH VALUE succeeds when /proc/sys/PATH reads back VALUE,
# blanks aside; it leaves what it read in have.
sysctl_ok() {
	have=$(cat "/proc/sys/$1")
	[ "$(norm text "$have")" = "$(norm text "$2")" ]
}

# cpu_at LIST K prints the CPU at index K of the comma-separated LIST,
# starting over past its end (the plan's order for IRQs sharing a name).
cpu_at() { printf '%s\n' "$1" | awk -F, -v k="$2" '{ print $(k % NF + 1) }'; }

# irqs NAME prints the number of every IRQ whose action name is NAME.
# It is written apart from the parser the generated tune.sh and irqbalance
# policy script share (outputs/tune/awk/irq-actions.awk), on purpose: the
# checks are an independent oracle of what those outputs did, so they do
# not reuse the code they check.
irqs() {
	awk -v name="$1" '$1 ~ /^[0-9]+:$/ {
		for (i = NF; i > 1; i--) {
			a = $i
			if (i < NF && a !~ /,$/)
				break
			sub(/,$/, "", a)
			if (a == name) {
				sub(/:$/, "", $1)
				print $1
				break
			}
		}
	}' /proc/interrupts
}

# The checks, by part.
here=${0%/*}
# shellcheck source=checks/kernel.sh
. "$here/checks/kernel.sh"
# shellcheck source=checks/runtime.sh
. "$here/checks/runtime.sh"
# shellcheck source=checks/placement.sh
. "$here/checks/placement.sh"
# shellcheck source=checks/cmdline.sh
. "$here/checks/cmdline.sh"

say "mode $mode on $(uname -r), $ncpu CPUs"
if [ "$mode" = cmdline ]; then
	check_cmdline
	say "$passed passed, $failed failed"
	exit 0
fi
check_props
check_clusters
check_dma
check_verifier
# The control boot has no command-line fragment either.
[ "$mode" = control ] && check_cmdline
if [ "$mode" = dt ]; then
	check_verifier_negative
	check_hwrng
fi
if [ "$mode" = full ]; then
	check_verifier_negative
	check_netdevs
	check_channels
	files=$(tuned_files)
	check_hints
	snapshot /tmp/orig
	cycle 1
	cycle 2
	check_boot_files
	check_iface_irqs
	check_irqbalance
fi
[ "$xfailed" = 0 ] || say "$xfailed known failure(s), counted as passed"
passed=$((passed + xfailed))
say "$passed passed, $failed failed"
