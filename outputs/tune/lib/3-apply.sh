# pin_irq NAME CPUS MODE MASTERS WHERE places the IRQs named NAME, which
# the masters MASTERS declare. MODE one: the interrupt controller delivers
# each IRQ to one CPU, so the IRQs of the name, in ascending IRQ number,
# take the CPUs of the comma-separated CPUS in their order, one each,
# starting over when there are more IRQs than CPUs. MODE set: every IRQ of
# the name gets the CPU list CPUS.
pin_irq() {
	irq_selected "$4" || return 0
	find_irqs "$1" "$5" || return 0
	k=0
	for n in $irqs; do
		want=$2
		if [ "$3" = one ]; then
			cpu_at "$2" "$k"
			want=$cpu
		fi
		k=$((k + 1))
		if ! cpus_online "$want"; then
			missing_item "IRQ $n $1: CPU $want is not online ($online), left where it is ($5)"
			continue
		fi
		statekey="irq $n $1"
		act irq list "/proc/irq/$n/smp_affinity_list" "$want" "IRQ $n $1, $5"
		effective "$n" "$want" "IRQ $n $1, $5"
	done
}

# cpus_online LIST succeeds when every CPU of LIST is online, as the
# root's /sys/devices/system/cpu/online says (not readable: taken as
# online). The kernel takes an affinity with no online CPU as a request
# for its default one (kernel/irq/proc.c write_irq_affinity():
# irq_select_affinity_usr()), so such a pin is not written. Sets online.
cpus_online() {
	value "$ROOT/sys/devices/system/cpu/online" || return 0
	online=$got
	[ -n "$online" ] || return 0
	same within "$online" "$1"
}

# follow_irq NAME CPUS HOW MASTERS WHERE keeps the IRQs named NAME, which
# the masters MASTERS declare and their driver places with an affinity
# hint, where the hint says: a user-space write (irqbalance, an earlier
# script) is undone. CPUS is what the description expects the hints to
# be, taken as pin_irq's MODE one does; a hint that differs is reported,
# naming both CPUs, and followed, unless it names only isolated CPUs
# (isolated_cpus): that is a missing item. HOW managed: the kernel manages the
# vectors (a write answers EIO), so their affinity is only checked.
follow_irq() {
	irq_selected "$4" || return 0
	find_irqs "$1" "$5" || return 0
	k=0
	for n in $irqs; do
		cpu_at "$2" "$k"
		expect=$cpu
		k=$((k + 1))
		if [ "$phase" = check ]; then
			act irq list "/proc/irq/$n/smp_affinity_list" "$expect" "IRQ $n $1, $5"
			continue
		fi
		value "$ROOT/proc/irq/$n/affinity_hint" || got=
		mask_list "$got"
		hint=$cpus
		if [ -z "$hint" ]; then
			warn "IRQ $n $1 has no affinity hint from its driver, left where it is ($5)"
			continue
		fi
		# A hint on the isolated CPUs is not followed: the description
		# keeps them free (BC0403, BC0417), so the driver placed the IRQ
		# where the description did not expect it (a DPIO the layout has
		# beyond the described ones, probe order).
		if [ -n "$isolated_cpus" ] && same within "$isolated_cpus" "$hint"; then
			if [ "$phase" = run ]; then
				warn "IRQ $n $1: its driver's affinity hint is isolated CPU $hint, not followed ($5)"
				missing=$((missing + 1))
			fi
			continue
		fi
		if ! same list "$expect" "$hint"; then
			warn "IRQ $n $1: its driver's affinity hint is CPU $hint, the description expects CPU $expect: the driver placed it in another order ($5)"
		fi
		statekey="irq $n $1"
		[ "$3" = managed ] && readonly_act=1
		act irq list "/proc/irq/$n/smp_affinity_list" "$hint" "IRQ $n $1, affinity hint, $5"
		readonly_act=0
		effective "$n" "$hint" "IRQ $n $1, $5"
	done
}

# effective N CPULIST: on --verify, an IRQ whose effective affinity (where
# the interrupt controller really delivers it, where the kernel has
# /proc/irq/N/effective_affinity_list) is not within CPULIST drifted.
effective() {
	[ "$phase" = run ] && [ "$mode" = verify ] || return 0
	f=$ROOT/proc/irq/$1/effective_affinity_list
	[ -r "$f" ] || return 0
	value "$f" || return 0
	eff=$got
	[ -n "$eff" ] || return 0
	if ! same within "$2" "$eff"; then
		say "drift: /proc/irq/$1/effective_affinity_list is $eff, want within $2 ($3)"
		drift=$((drift + 1))
	fi
}

# act PART KIND PATH VALUE WHERE: PATH, below the root, should hold VALUE.
# PART (irq, net, sysctl) is what --only selects; KIND says how to compare
# what the kernel reads back (see same); WHERE names the description.
act() {
	key=${statekey:-$3}
	statekey=
	[ "$phase" != resolve ] || return 0
	wants "$1" || return 0
	case $3 in
	/*"$nl"* | /*"$tab"* | */../* | */.. | [!/]*) die 2 "refusing path $3 ($5)" ;;
	esac
	path=$3
	case $3 in
	/sys/class/net/"$net_desc"/*)
		[ -z "$net_skip" ] || return 0
		path=/sys/class/net/$net_dev/${3#/sys/class/net/"$net_desc"/}
		key=$path
		;;
	esac
	f=$ROOT$path
	if [ ! -e "$f" ]; then
		# A queue the channel change has yet to create.
		if [ -n "$chan_pending" ] && [ "$chan_pending" = "$net_desc" ]; then
			case $path in
			/sys/class/net/"$net_dev"/*) return 0 ;;
			esac
		fi
		missing_item "missing $f, skipped ($5)"
		return 0
	fi
	[ "$phase" = check ] && return 0
	value "$f" || die 5 "cannot read $f ($5)"
	have=$got
	case $mode in
	dry-run)
		if same "$2" "$4" "$have"; then
			say "keep $path = $have ($5)"
		elif [ "$readonly_act" = 1 ]; then
			say "differs: $path is $have, set by the driver; the description expects $4 ($5)"
		else
			say "would write $4 to $path, now $have ($5)"
		fi
		;;
	verify)
		if ! same "$2" "$4" "$have"; then
			say "drift: $path is $have, want $4 ($5)"
			drift=$((drift + 1))
		fi
		;;
	apply)
		if [ "$readonly_act" = 1 ]; then
			same "$2" "$4" "$have" || warn "$path is $have, set by the driver; the description expects $4 ($5)"
			return 0
		fi
		save "$key" "$have"
		if same "$2" "$4" "$have"; then
			kept=$((kept + 1))
			return 0
		fi
		if ! { printf '%s\n' "$4" >"$f"; } 2>/dev/null; then
			# The kernel refuses user-space affinity for a managed IRQ
			# (EIO): reported, and the rest goes on.
			[ "$1" = irq ] || die 5 "cannot write $4 to $f ($5)"
			warn "cannot write $4 to $f: the kernel refuses it (a managed IRQ answers EIO), left at $have ($5)"
			missing=$((missing + 1))
			return 0
		fi
		value "$f" || die 5 "cannot read $f ($5)"
		now=$got
		if ! same "$2" "$4" "$now"; then
			[ "$1" = irq ] || die 5 "$f reads back $now after writing $4 ($5)"
			# The kernel took the write but placed the IRQ elsewhere:
			# a CPU that went offline, or one the IRQ cannot target.
			warn "$f reads back ${now:-nothing} after writing $4: the kernel placed the IRQ elsewhere ($5)"
			missing=$((missing + 1))
			return 0
		fi
		say "set $path = $4, was $have ($5)"
		changed=$((changed + 1))
		;;
	esac
}

# channels RX TX WHERE sets the queue counts of the current interface
# with ethtool -L (combined when RX and TX are equal, else rx and tx)
# before its queues are tuned: the counts decide which rx-N and tx-N
# exist, so the check phase does not count a queue the change creates as
# missing. ethtool talks to the running kernel, whatever --root says.
channels() {
	chan_pending=
	[ "$phase" != resolve ] || return 0
	wants net || return 0
	[ -z "$net_skip" ] || return 0
	if ! command -v ethtool >/dev/null 2>&1; then
		missing_item "no ethtool to set the channels of $net_desc to $1 receive, $2 transmit ($3)"
		return 0
	fi
	if ! chan_out=$(ethtool -l "$net_dev" 2>/dev/null) || ! chan_counts "$chan_out"; then
		missing_item "ethtool -l $net_dev failed: its channels are not set ($3)"
		return 0
	fi
	if [ "$1" = "$2" ]; then
		want="combined $1"
	else
		want="rx $1 tx $2"
	fi
	if chan_same "$want" "$now"; then
		return 0
	fi
	chan_pending=$net_desc
	if [ "$phase" = check ]; then
		return 0
	fi
	case $mode in
	dry-run) say "would set the channels of $net_dev to $want, now ${now:-none} ($3)" ;;
	verify)
		say "drift: channels of $net_dev are ${now:-none}, want $want ($3)"
		drift=$((drift + 1))
		;;
	apply)
		save "channels $net_dev" "$now"
		# shellcheck disable=SC2086 # "combined N" or "rx N tx M", split on purpose
		ethtool -L "$net_dev" $want || die 5 "ethtool -L $net_dev $want failed ($3)"
		# The driver has new IRQs for the new queues: find_irqs reads
		# /proc/interrupts again.
		irq_phase=
		say "set the channels of $net_dev to $want, was ${now:-none} ($3)"
		changed=$((changed + 1))
		;;
	esac
}

# chan_counts OUTPUT sets now to the current channel counts in OUTPUT,
# what ethtool -l prints, as "KEY COUNT" pairs (rx, tx, combined) of
# those above zero, in its order; it fails when OUTPUT has no current
# settings.
chan_counts() {
	now=
	chan_text=$1
	chan_cur=0
	while IFS= read -r chan_line; do
		case $chan_line in
		'Current hardware settings:'*)
			chan_cur=1
			continue
			;;
		esac
		[ "$chan_cur" = 1 ] || continue
		set -f
		# shellcheck disable=SC2086 # split on blanks, on purpose
		set -- $chan_line
		set +f
		case ${1-} in
		RX:) chan_key=rx ;;
		TX:) chan_key=tx ;;
		Combined:) chan_key=combined ;;
		*) continue ;;
		esac
		case ${2-} in
		'' | *[!0123456789]*) continue ;;
		*[123456789]*) ;;
		*) continue ;; # zero
		esac
		now="$now${now:+ }$chan_key $2"
	done <<EOF
$chan_text
EOF
	[ "$chan_cur" = 1 ]
}

# chan_same WANT NOW succeeds when every "key count" pair of WANT is in
# NOW (as chan_counts sets the counts of ethtool -l).
chan_same() {
	have=" $2 "
	# shellcheck disable=SC2086 # key count pairs, split on purpose
	set -- $1
	while [ $# -ge 2 ]; do
		case $have in
		*" $1 $2 "*) ;;
		*) return 1 ;;
		esac
		shift 2
	done
}

# expect PART KIND PATH VALUE WHERE is act for a value the driver sets
# itself: checked by --verify and reported by an apply where it differs,
# never written.
expect() {
	readonly_act=1
	act "$@"
	readonly_act=0
}
