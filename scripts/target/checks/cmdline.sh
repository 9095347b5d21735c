# shellcheck shell=sh disable=SC2154 # plan, out and files are set by checks.sh
# SPDX-License-Identifier: (GPL-2.0-or-later OR MIT)
# Sourced by checks.sh, whose helpers and variables it uses.
# The kernel command line: CPU isolation from cmdline.txt's fragment.

# --- the kernel command line ------------------------------------------------

# check_cmdline compares the kernel's CPU isolation with the plan of the
# command-line fragment it was booted with (/boardc/cmdline.plan): the
# isolated CPUs (isolcpus=domain: /sys/devices/system/cpu/isolated), the
# tickless ones (nohz_full=: /sys/devices/system/cpu/nohz_full), those
# whose RCU callbacks are offloaded (rcu_nocbs=: rcu_init_nohz()'s boot
# message, kernel/rcu/tree_nocb.h), the default IRQ affinity
# (irqaffinity=: /proc/irq/default_smp_affinity), and an IRQ tune.sh
# would pin, which no one has pinned yet, starting on the housekeeping
# CPUs. In the control boot, without the fragment, these must fail.
check_cmdline() {
	iso=$(awk '$1 == "isolated" { print $2 }' /boardc/cmdline.plan)
	house=$(awk '$1 == "housekeeping" { print $2 }' /boardc/cmdline.plan)
	have=$(cat /sys/devices/system/cpu/isolated)
	[ -n "$have" ] && [ "$(norm list "$have")" = "$(norm list "$iso")" ]
	result "cmdline isolated" $? "/sys/devices/system/cpu/isolated is ${have:-empty}, want $iso"
	have=$(cat /sys/devices/system/cpu/nohz_full 2>/dev/null)
	[ -n "$have" ] && [ "$(norm list "$have")" = "$(norm list "$iso")" ]
	result "cmdline nohz_full" $? "/sys/devices/system/cpu/nohz_full is ${have:-empty}, want $iso"
	have=$(dmesg | sed -n 's/.*Offload RCU callbacks from CPUs: \(.*\)\.$/\1/p' | tail -n 1)
	[ -n "$have" ] && [ "$(norm list "$have")" = "$(norm list "$iso")" ]
	result "cmdline rcu_nocbs" $? "RCU callbacks offloaded from CPUs ${have:-(no boot message)}, want $iso"
	have=$(cat /proc/irq/default_smp_affinity)
	[ "$(norm mask "$have")" = "$(list_mask "$house")" ]
	result "cmdline irqaffinity" $? "/proc/irq/default_smp_affinity is $have, want $(list_mask "$house") (CPUs $house)"
	name=$(awk '$1 == "irq" && $3 == "one" { print $2; exit }' "$plan")
	for n in $(irqs "$name"); do
		have=$(cat "/proc/irq/$n/smp_affinity_list")
		[ "$(norm list "$have")" = "$(norm list "$house")" ]
		result "cmdline irqaffinity $name" $? "IRQ $n, not yet pinned: smp_affinity_list $have, want the housekeeping CPUs $house"
	done
}
