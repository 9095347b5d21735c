# shellcheck shell=sh disable=SC2154 # plan, out, ncpu and files are set by checks.sh
# SPDX-License-Identifier: (GPL-2.0-or-later OR MIT)
# Sourced by checks.sh, whose helpers and variables it uses.
# What moves under tune.sh: queue counts, driver hints, IRQs after a
# driver reload, the files a boot loads, and irqbalance.

# queues_of DEV prints how many receive and transmit queues DEV has, as
# the kernel lists them in sysfs ("rx 4 tx 4"): its real queue counts,
# read without ethtool.
queues_of() {
	nrx=0
	ntx=0
	for q in "/sys/class/net/$1/queues"/rx-* "/sys/class/net/$1/queues"/tx-*; do
		case $q in
		*/rx-[0-9]*) nrx=$((nrx + 1)) ;;
		*/tx-[0-9]*) ntx=$((ntx + 1)) ;;
		esac
	done
	echo "rx $nrx tx $ntx"
}

# check_channels: for each interface whose queue counts tune.sh sets (the
# plan's channels), the count is lowered to one queue pair behind its
# back. --verify must report that; an apply must set the count back with
# ethtool -L (virtnet_set_channels() takes a combined count and makes the
# queues, netif_set_real_num_rx_queues()) and tune the queues it made in
# the same run, each IRQ of the master then on the CPU of the hint the
# driver gave it anew (virtnet_set_affinity()); --revert must restore the
# lowered count. The count from before is then put back for the checks
# that follow.
check_channels() {
	# shellcheck disable=SC2013 # interface names, one word each
	for chif in $(awk '$1 == "channels" { print $2 }' "$plan"); do
		rx=$(awk -v i="$chif" '$1 == "channels" && $2 == i { print $3 }' "$plan")
		tx=$(awk -v i="$chif" '$1 == "channels" && $2 == i { print $4 }' "$plan")
		if ! command -v ethtool >/dev/null 2>&1; then
			result "channels $chif" 1 "no ethtool in the guest"
			continue
		fi
		dev=$(realif "$chif")
		want="rx $rx tx $tx"
		[ "$rx" = "$tx" ] && want="combined $rx"
		before=$(queues_of "$dev")
		ethtool -L "$dev" combined 1 </dev/null
		st=$?
		now=$(queues_of "$dev")
		[ "$st" = 0 ] && [ "$now" = "rx 1 tx 1" ]
		result "channels $chif: lowered" $? "ethtool -L $dev combined 1: exit $st, queues $now (were $before)"

		tune chan.verify --verify </dev/null
		st=$?
		[ "$st" = 1 ] && grep -q "^drift: channels of $dev are combined 1, want $want " /tmp/tune.chan.verify
		result "channels $chif: --verify sees them" $? "exit $st: $(grep channels /tmp/tune.chan.verify)"

		tune chan.apply </dev/null
		st=$?
		now=$(queues_of "$dev")
		[ "$st" = 0 ] && [ "$now" = "rx $rx tx $tx" ] && grep -q "^set the channels of $dev to $want, was combined 1 " /tmp/tune.chan.apply
		result "channels $chif: tune.sh sets them" $? "exit $st, queues $now, want rx $rx tx $tx: $(grep -i 'channels\|warning' /tmp/tune.chan.apply | tr '\n' ';')"
		bad=
		while read -r k2 n2 q2 c2; do
			[ "$n2" = "$chif" ] || continue
			case $k2 in
			rps) f=/sys/class/net/$dev/queues/rx-$q2/rps_cpus ;;
			xps) f=/sys/class/net/$dev/queues/tx-$q2/xps_cpus ;;
			*) continue ;;
			esac
			have=$(cat "$f" 2>/dev/null) || have=missing
			[ "$(norm mask "$have")" = "$(norm mask "$c2")" ] || bad="$bad $f is $have, want $c2;"
		done <"$plan"
		[ -z "$bad" ]
		result "channels $chif: the queues made are tuned" $? "${bad:-every rps_cpus and xps_cpus of $chif as planned}"
		hints=
		ifirqs=$(awk -v i="$chif" '$1 == "ifirq" && $2 == i { print $3 }' "$plan")
		while read -r k2 n2 how list; do
			if [ "$k2" != irq ] || [ "$how" != driver ] || ! echo "$ifirqs" | grep -qxF "$n2"; then
				continue
			fi
			k=0
			for n in $(irqs "$n2"); do
				w=$(cpu_at "$list" "$k")
				k=$((k + 1))
				eff=$(cat "/proc/irq/$n/effective_affinity_list")
				[ "$eff" = "$w" ] || hints="$hints $n:$n2 effective ${eff:-empty}, want $w;"
			done
		done <"$plan"
		grep -q "warning: IRQ .*affinity hint" /tmp/tune.chan.apply && hints="$hints a hint read before the driver re-placed the IRQs;"
		[ -z "$hints" ]
		result "channels $chif: IRQs follow the new hints" $? "${hints:-each IRQ of the master on the CPU of its hint, no stale hint read}"

		tune chan.revert --revert </dev/null
		st=$?
		now=$(queues_of "$dev")
		[ "$st" = 0 ] && [ "$now" = "rx 1 tx 1" ]
		result "channels $chif: --revert restores them" $? "exit $st, queues $now, want rx 1 tx 1"

		# shellcheck disable=SC2086 # "rx N tx M", split on purpose
		set -- $before
		if [ "$2" = "$4" ]; then
			ethtool -L "$dev" combined "$2" </dev/null
		else
			ethtool -L "$dev" rx "$2" tx "$4" </dev/null
		fi
		[ "$(queues_of "$dev")" = "$before" ]
		result "channels $chif: put back" $? "queues $(queues_of "$dev"), were $before"
	done
}

# check_hints checks the description's expectation of each driver-placed
# IRQ's affinity hint, then displaces the IRQ, as irqbalance or an earlier
# script would: the kernel must accept the write (the vector is not
# managed) and deliver the IRQ elsewhere, so that tune.sh's apply is seen
# to put it back where the hint says. The snapshot taken after this is
# what --revert must restore.
check_hints() {
	# shellcheck disable=SC2034 # the plan's record fields
	while read -r kind name how list; do
		if [ "$kind" != irq ] || [ "$how" != driver ]; then
			continue
		fi
		k=0
		for n in $(irqs "$name"); do
			want=$(cpu_at "$list" "$k")
			k=$((k + 1))
			hint=$(cat "/proc/irq/$n/affinity_hint")
			[ "$(norm mask "$hint")" = "$(list_mask "$want")" ]
			result "hint $name" $? "IRQ $n affinity_hint $hint, the description expects CPU $want"
			away=$(((want + 1) % ncpu))
			echo "$away" >"/proc/irq/$n/smp_affinity_list"
			eff=$(cat "/proc/irq/$n/effective_affinity_list")
			[ "$eff" = "$away" ]
			result "displace $name" $? "IRQ $n moved off its hint to CPU $away: effective affinity ${eff:-empty}"
		done
	done <"$plan"
}

# off_cpu LIST prints the first CPU that is not in the comma-separated
# LIST, nothing when LIST has every CPU.
off_cpu() {
	c=0
	while [ "$c" -lt "$ncpu" ]; do
		case ,$1, in
		*,"$c",*) ;;
		*)
			echo "$c"
			return 0
			;;
		esac
		c=$((c + 1))
	done
}

# check_iface_irqs is what a driver reload or a late device leaves: the
# interface's IRQs are somewhere else, and only the udev or hotplug run,
# tune.sh --interface, follows. For each interface whose master declares
# pinned IRQs (the plan's ifirq), every pinned IRQ is moved off its
# CPUs; --interface must put back those of the interface's master (read
# back from effective_affinity_list) and leave every other where it was
# moved, and its --revert must restore the moved values exactly.
check_iface_irqs() {
	# shellcheck disable=SC2013 # interface names, one word each
	for ifn in $(awk '$1 == "ifirq" && !seen[$2]++ { print $2 }' "$plan"); do
		ifirqs=$(awk -v i="$ifn" '$1 == "ifirq" && $2 == i { print $3 }' "$plan")
		: >/tmp/moved
		# shellcheck disable=SC2034 # the plan's record fields
		while read -r kind name how list; do
			[ "$kind" = irq ] || continue
			away=$(off_cpu "$list")
			[ -n "$away" ] || continue
			for n in $(irqs "$name"); do
				echo "$away" >"/proc/irq/$n/smp_affinity_list"
				echo "$n $name $how $list $away" >>/tmp/moved
			done
		done <"$plan"
		dev=$(realif "$ifn")
		tune "iface.$ifn" --interface "$dev"
		st=$?
		result "interface $ifn: tune.sh --interface $dev" "$st" "$(tail -n 1 "/tmp/tune.iface.$ifn")"
		placed=''
		left=''
		bad=''
		k=0
		prev=
		while read -r n name how list away; do
			[ "$name" = "$prev" ] || k=0
			prev=$name
			want=$list
			[ "$how" = set ] || want=$(cpu_at "$list" "$k")
			k=$((k + 1))
			if echo "$ifirqs" | grep -qxF "$name"; then
				if eff=$(eff_within "$n" "$want"); then
					placed="$placed $n:$name=$eff"
				else
					bad="$bad $n:$name effective ${eff:-empty}, want $want;"
				fi
			else
				have=$(cat "/proc/irq/$n/smp_affinity_list")
				if [ "$have" = "$away" ]; then
					left="$left $n:$name=$have"
				else
					bad="$bad $n:$name moved to $have, not its master's: want it left at $away;"
				fi
			fi
		done </tmp/moved
		[ -z "$bad" ] && [ -n "$placed" ]
		result "interface $ifn: its master's IRQs placed, no other" $? "placed:${placed:- none}; left:${left:- none}${bad:+; wrong:$bad}"
		tune "iface.$ifn.revert" --revert
		st=$?
		back=
		while read -r n name how list away; do
			have=$(cat "/proc/irq/$n/smp_affinity_list")
			[ "$have" = "$away" ] || back="$back $n:$name=$have, want $away;"
		done </tmp/moved
		[ "$st" = 0 ] && [ -z "$back" ]
		result "interface $ifn: --revert restores the IRQs" $? "exit $st, IRQs not at their value from before --interface:${back:- none}"
	done
}

# check_boot_files loads what a board installs for boot, as the boot
# would. The sysctl.d file goes through sysctl -p (BusyBox's, which reads
# the "key = value" lines systemd-sysctl reads): every key must exist and
# take the planned value. The init script (BusyBox init rcS, sysvinit)
# must start, report no drift on status, and stop with every tuned file
# as before; OpenWrt's hotplug.d script must tune a board interface that
# appears and leave another alone. The sysctls are then put back.
check_boot_files() {
	for conf in "$out"/sysctl.d/*.conf; do
		[ -e "$conf" ] || continue
		sysctl -p "$conf" >/tmp/sysctl.out 2>&1
		result "sysctl.d ${conf##*/}: sysctl -p" $? "$(tr '\n' ';' </tmp/sysctl.out)"
		while read -r kind a b c; do
			[ "$kind" = sysctl ] || continue
			want=$b${c:+ $c}
			sysctl_ok "$a" "$want"
			result "sysctl.d $a" $? "/proc/sys/$a is $have, want $want"
		done <"$plan"
	done
	for f in $files; do
		case $f in
		/proc/sys/*) cat "/tmp/orig/$(echo "$f" | tr / _)" >"$f" ;;
		esac
	done
	for rc in "$out"/init.d/S*; do
		[ -e "$rc" ] || continue
		for action in start status stop; do
			BOARDC_TUNE=$out/tune.sh sh "$rc" "$action" >"/tmp/initd.$action" 2>&1
			result "init.d ${rc##*/} $action" $? "$(tail -n 1 "/tmp/initd.$action")"
		done
		snapshot /tmp/after-initd
		changed=$(same_snapshot /tmp/orig /tmp/after-initd)
		[ -z "$changed" ]
		result "init.d ${rc##*/}: stop restores" $? "files differing from before start:${changed:- none}"
	done
	# OpenWrt's hotplug runs the net scripts with ACTION and INTERFACE set.
	for hp in "$out"/openwrt/hotplug.d/net/*; do
		[ -e "$hp" ] || continue
		dev=$(awk '$1 == "netdev" { print $2; exit }' "$plan")
		dev=$(realif "$dev")
		ACTION=add INTERFACE=$dev BOARDC_TUNE=$out/tune.sh sh "$hp" >/tmp/hotplug.add 2>&1
		st=$?
		[ "$st" = 0 ] && grep -q "^set /sys/class/net/$dev/queues/" /tmp/hotplug.add
		result "hotplug ${hp##*/} add $dev" $? "exit $st: $(tail -n 1 /tmp/hotplug.add)"
		ACTION=add INTERFACE=lo BOARDC_TUNE=$out/tune.sh sh "$hp" >/tmp/hotplug.lo 2>&1
		st=$?
		[ "$st" = 0 ] && grep -q "^lo is not an interface of board" /tmp/hotplug.lo
		result "hotplug ${hp##*/} add lo" $? "exit $st: $(tail -n 1 /tmp/hotplug.lo)"
		tune hotplug.revert --revert
		snapshot /tmp/after-hotplug
		changed=$(same_snapshot /tmp/orig /tmp/after-hotplug)
		[ -z "$changed" ]
		result "hotplug ${hp##*/}: --revert restores" $? "files differing:${changed:- none}"
	done
}

# check_irqbalance runs the policy script as irqbalance does (script,
# sysfs path, IRQ number) for a pinned IRQ and an IRQ the plan leaves alone.
check_irqbalance() {
	name=$(awk '$1 == "irq" { print $2; exit }' "$plan")
	[ -n "$name" ] || return 0
	n=$(irqs "$name" | head -n 1)
	v=$(sh "$out/irqbalance-policy.sh" /sys/devices "$n" 2>&1)
	st=$?
	[ "$v" = ban=true ] && [ "$st" = 0 ]
	result "irqbalance bans $name" $? "IRQ $n: ${v:-nothing printed}, exit $st"
	pinned=$(awk '$1 == "irq" { print $2 }' "$plan")
	free=$(awk '$1 ~ /^[0-9]+:$/ { sub(/:$/, "", $1); print $1 " " $NF }' /proc/interrupts |
		while read -r n a; do
			echo "$pinned" | grep -qxF "$a" || { echo "$n $a"; break; }
		done)
	# shellcheck disable=SC2086 # "IRQ NAME", split on purpose
	set -- $free
	v=$(sh "$out/irqbalance-policy.sh" /sys/devices "$1" 2>&1)
	st=$?
	# Exit 1: not this script's IRQ, irqbalance asks the next script.
	[ -z "$v" ] && [ "$st" = 1 ]
	result "irqbalance leaves $2" $? "IRQ $1: ${v:-nothing printed}, exit $st"
}
