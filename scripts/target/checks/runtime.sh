# shellcheck shell=sh disable=SC2154 # plan, out and files are set by checks.sh
# SPDX-License-Identifier: (GPL-2.0-or-later OR MIT)
# Sourced by checks.sh, whose helpers and variables it uses.
# tune.sh on the running kernel: interfaces found by hardware, then
# apply, verify, read back and revert, twice, with a tampered value.

# --- interfaces: found by hardware, whatever their names --------------------

# of_node_of DIR prints the device-tree path of the of_node of the netdev
# DIR, or of the nearest device above it that has one (readlink -f, not
# tune.sh's own walk).
of_node_of() {
	p=$(readlink -f "$1")
	while [ -n "$p" ] && [ "$p" != /sys/devices ]; do
		if [ -e "$p/of_node" ]; then
			readlink -f "$p/of_node" | sed 's|^/sys/firmware/devicetree/base||; s|^$|/|'
			return 0
		fi
		p=${p%/*}
	done
	return 1
}

# realif IF prints the netdev name of the interface the plan calls IF.
realif() { awk -v i="$1" '$1 == i { print $2; f = 1 } END { if (!f) print i }' /tmp/ifmap 2>/dev/null || echo "$1"; }

# check_netdevs finds each interface the plan ties to a device-tree node,
# then gives the interfaces each other's names (eth0 becomes eth1 and
# eth1 eth0, as udev or systemd's predictable names may): tune.sh must
# find them by hardware, where by name it would tune the wrong ones.
check_netdevs() {
	: >/tmp/ifmap
	# shellcheck disable=SC2034 # the plan's record fields
	while read -r kind name how arg; do
		if [ "$kind" != netdev ] || [ "$how" != node ]; then
			continue
		fi
		found=
		for d in /sys/class/net/*; do
			on=$(of_node_of "$d") || continue
			case $on in
			"$arg" | "$arg"/*) found="$found${found:+ }${d##*/}" ;;
			esac
		done
		case $found in
		'' | *" "*)
			result "netdev $name" 1 "of_node $arg: ${found:-no netdev}"
			;;
		*)
			echo "$name $found" >>/tmp/ifmap
			result "netdev $name" 0 "of_node $arg is $found"
			;;
		esac
	done <"$plan"
	[ "$(wc -l </tmp/ifmap)" -ge 2 ] || return 0
	# Rotate the names: each netdev takes the next one's.
	names=$(awk '{ print $2 }' /tmp/ifmap)
	i=0
	for n in $names; do
		ip link set dev "$n" down
		ip link set dev "$n" name "bcrot$i"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086 # one netdev name a word
	set -- $names
	first=$1
	shift
	i=0
	rot=
	for n in "$@" "$first"; do
		ip link set dev "bcrot$i" name "$n"
		rot="$rot${rot:+ }$n"
		i=$((i + 1))
	done
	awk -v rot="$rot" 'BEGIN { split(rot, r, " ") } { print $1, r[NR] }' /tmp/ifmap >/tmp/ifmap.new
	mv /tmp/ifmap.new /tmp/ifmap
	result "netdev rename" 0 "interfaces renamed: $(tr '\n' ';' </tmp/ifmap)(plan name, netdev)"
}

# tuned_files prints every file tune.sh writes for the plan.
tuned_files() {
	# shellcheck disable=SC2034 # the plan's record fields
	while read -r kind a b c; do
		case $kind in
		irq) for n in $(irqs "$a"); do echo "/proc/irq/$n/smp_affinity_list"; done ;;
		rps) echo "/sys/class/net/$(realif "$a")/queues/rx-$b/rps_cpus" ;;
		rpsflow) echo "/sys/class/net/$(realif "$a")/queues/rx-$b/rps_flow_cnt" ;;
		xps) echo "/sys/class/net/$(realif "$a")/queues/tx-$b/xps_cpus" ;;
		sysctl) echo "/proc/sys/$a" ;;
		esac
	done <"$plan"
}

# snapshot DIR copies every tuned file's bytes into DIR.
snapshot() {
	rm -rf "$1"
	mkdir -p "$1"
	for f in $files; do
		cat "$f" >"$1/$(echo "$f" | tr / _)"
	done
}

# same_snapshot A B names the files whose bytes differ between A and B.
same_snapshot() {
	diff=
	for f in $files; do
		k=$(echo "$f" | tr / _)
		cmp -s "$1/$k" "$2/$k" || diff="$diff $f"
	done
	printf '%s' "$diff"
}

# tune NAME ARGS... runs tune.sh, keeping its output in /tmp/tune.NAME.
tune() {
	name=$1
	shift
	sh "$out/tune.sh" "$@" >"/tmp/tune.$name" 2>&1
}

# check_readback compares every tuned value with the plan, read back from
# the kernel: an IRQ's effective affinity (where the interrupt controller
# really delivers it) must lie in its pinned CPUs.
check_readback() {
	while read -r kind a b c; do
		case $kind in
		irq)
			ns=$(irqs "$a")
			if [ -z "$ns" ]; then
				result "irq $a" 1 "no IRQ named $a in /proc/interrupts"
				continue
			fi
			k=0
			for n in $ns; do
				want=$c
				[ "$b" = set ] || want=$(cpu_at "$c" "$k")
				k=$((k + 1))
				if eff=$(eff_within "$n" "$want"); then
					result "irq $a" 0 "IRQ $n effective affinity $eff, want $want ($b)"
				else
					result "irq $a" 1 "IRQ $n effective affinity ${eff:-empty}, want $want ($b)"
				fi
			done
			;;
		rps | xps)
			q=rx
			[ "$kind" = xps ] && q=tx
			f=/sys/class/net/$(realif "$a")/queues/$q-$b/${kind}_cpus
			have=$(cat "$f")
			[ "$(norm mask "$have")" = "$(norm mask "$c")" ]
			result "$kind $a $q-$b" $? "$f is $have, want $c"
			;;
		rpsflow)
			f=/sys/class/net/$(realif "$a")/queues/rx-$b/rps_flow_cnt
			have=$(cat "$f")
			[ "$have" = "$c" ]
			result "rpsflow $a rx-$b" $? "$f is $have, want $c"
			;;
		sysctl)
			want=$b${c:+ $c}
			sysctl_ok "$a" "$want"
			result "sysctl $a" $? "/proc/sys/$a is $have, want $want"
			;;
		esac
	done <"$plan"
}

# check_tamper is the negative control of --verify: a value changed
# behind tune.sh's back must be reported as drift.
check_tamper() {
	f=$(awk '$1 == "rps" { print $2, $3; exit }' "$plan")
	[ -z "$f" ] || f=/sys/class/net/$(realif "${f% *}")/queues/rx-${f#* }/rps_cpus
	if [ -z "$f" ]; then
		f=/proc/sys/$(awk '$1 == "sysctl" { print $2; exit }' "$plan")
	fi
	old=$(cat "$f")
	case $f in
	*/rps_cpus) [ "$(norm mask "$old")" = 1 ] && new=2 || new=1 ;;
	*) new=$((old + 1)) ;;
	esac
	echo "$new" >"$f"
	tune tamper --verify
	st=$?
	if [ "$st" = 1 ] && grep -q "^drift: $f " /tmp/tune.tamper; then
		result "verify catches drift" 0 "$f set to $new behind tune.sh: --verify exits 1 and names it (negative control)"
	else
		result "verify catches drift" 1 "$f set to $new behind tune.sh: --verify exited $st: $(cat /tmp/tune.tamper)"
	fi
}

# cycle N applies, verifies, reads back and reverts, and checks that the
# revert restores every original byte for byte.
cycle() {
	tune dry "--dry-run"
	st=$?
	snapshot /tmp/after-dry
	changed=$(same_snapshot /tmp/orig /tmp/after-dry)
	[ "$st" = 0 ] && [ -z "$changed" ] && grep -q '^would write ' /tmp/tune.dry
	result "cycle $1: tune.sh --dry-run" $? "exit $st, $(grep -c '^would write ' /tmp/tune.dry) write(s) announced, changed:${changed:- nothing}"

	tune apply
	st=$?
	result "cycle $1: tune.sh" "$st" "$(tail -n 1 /tmp/tune.apply)"

	tune verify --verify
	st=$?
	result "cycle $1: tune.sh --verify" "$st" "$(tail -n 1 /tmp/tune.verify)"

	check_readback
	if [ "$1" = 1 ]; then
		check_tamper
		tune reapply
	fi

	tune revert --revert
	st=$?
	snapshot /tmp/after-revert
	changed=$(same_snapshot /tmp/orig /tmp/after-revert)
	[ "$st" = 0 ] && [ -z "$changed" ]
	result "cycle $1: tune.sh --revert" $? "exit $st, files differing from before the first apply:${changed:- none}"
}
