#!/bin/sh
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
# where they must fail) or "cmdline" (the command-line checks only, for
# a boot with the fragment of cmdline.txt, /boardc/cmdline.plan). Each check prints one line,
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

# cpu_at LIST K prints the CPU at index K of the comma-separated LIST,
# starting over past its end (the plan's order for IRQs sharing a name).
cpu_at() { printf '%s\n' "$1" | awk -F, -v k="$2" '{ print $(k % NF + 1) }'; }

# irqs NAME prints the number of every IRQ whose action name is NAME.
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

# --- device tree: every property the fragment sets or deletes --------------
check_props() {
	while read -r path name hex; do
		f=/proc/device-tree$path/$name
		if [ "$hex" = absent ]; then
			[ ! -e "$f" ]
			result "dt $path/$name" $? "deleted: $([ -e "$f" ] && echo "still present" || echo absent)"
			continue
		fi
		if [ ! -e "$f" ]; then
			result "dt $path/$name" 1 "absent from /proc/device-tree"
			continue
		fi
		[ "$hex" = - ] && hex=
		have=$(hexof "$f")
		if [ "$have" = "$hex" ]; then
			result "dt $path/$name" 0 "present, ${hex:-empty}"
		else
			result "dt $path/$name" 1 "is ${have:-empty}, want ${hex:-empty}"
		fi
	done </boardc/props
}

# --- CPU topology: the description's clusters are the kernel's --------------
check_clusters() {
	# shellcheck disable=SC2034 # the plan's record fields
	while read -r kind list rest; do
		[ "$kind" = cluster ] || continue
		for c in $(norm list "$list"); do
			f=/sys/devices/system/cpu/cpu$c/topology/cluster_cpus_list
			have=$(cat "$f" 2>/dev/null)
			[ "$(norm list "$have")" = "$(norm list "$list")" ]
			result "cluster cpu$c" $? "$f is ${have:-unreadable}, want $list"
		done
	done <"$plan"
}

# --- DMA layer: coherency and masks as the kernel sees them -----------------
check_dma() {
	paths=$(awk '$1 == "master" { printf "%s%s", sep, $3; sep = "," }' "$plan")
	if ! insmod /boardc/modules/boardc_target.ko "paths=$paths"; then
		result "dma module" 1 "boardc_target.ko did not load"
		return
	fi
	dmesg | sed -n 's/.*boardc-target: //p' >/tmp/dma
	while read -r kind key path state bits cbits setter; do
		[ "$kind" = master ] || continue
		want=0
		[ "$state" = coherent ] && want=1
		awk -v p="$path" '$1 == "dev" && $2 == p && $4 != "driver=-"' /tmp/dma >/tmp/bound
		if [ ! -s /tmp/bound ]; then
			result "coherent $key" 1 "no device bound to a driver at $path"
			continue
		fi
		bad=$(awk -v w="coherent=$want" '$5 != w { print $3 " " $5 }' /tmp/bound | tr '\n' ' ')
		if [ -z "$bad" ]; then
			result "coherent $key" 0 "$state: $(awk '{ printf "%s%s %s", s, $3, $5; s = ", " }' /tmp/bound)"
		else
			result "coherent $key" 1 "$state, but $bad"
		fi
		# The devices that do the DMA: the PCI devices behind a host
		# bridge, else the node's own device. A master whose bus driver
		# sets the masks on the devices it creates below the node's
		# (setter children: fsl-mc objects) keeps the OF default on the
		# node's device: the board's verifier checks the devices below.
		if [ "$setter" = children ]; then
			described=$(awk 'NR == 1 { sub(/^described=/, "", $8); print $8 }' /tmp/bound)
			[ "$described" = 0 ]
			result "c-table $key" $? "the bus driver sets the masks on the devices below; the generated C declares ${described} bits (0: none)"
			continue
		fi
		awk -v p="$path" 'NR > 1' /tmp/bound >/tmp/dmadevs
		[ -s /tmp/dmadevs ] || head -n 1 /tmp/bound >/tmp/dmadevs
		bad=$(awk -v w="dma_mask=$bits" -v c="coherent_mask=$cbits" '$6 != w || $7 != c { print $3 " " $6 " " $7 }' /tmp/dmadevs | tr '\n' ' ')
		if [ -z "$bad" ]; then
			result "dma-mask $key" 0 "$bits-bit streaming, $cbits-bit coherent: $(awk '{ printf "%s%s", s, $3; s = ", " }' /tmp/dmadevs)"
		else
			result "dma-mask $key" 1 "want $bits-bit streaming and $cbits-bit coherent masks, but $bad"
		fi
		# The generated C covers the masters whose driver does not set
		# its own masks, and no other.
		described=$(awk 'NR == 1 { sub(/^described=/, "", $8); print $8 }' /tmp/bound)
		if [ "$setter" = driver ]; then
			[ "$described" = 0 ]
			result "c-table $key" $? "the driver sets the masks; the generated C declares ${described} bits (0: none)"
		else
			[ "$described" = "$bits" ]
			result "c-table $key" $? "the generated C declares $described bits, the description $bits"
		fi
	done <"$plan"
}

# --- the board's generated verifier module ------------------------------------
# Loaded with strict=1, it must load (no mismatch, every master bound) and
# report each master ok; each of its lines is also checked per master: what
# the verifier expects (right of each "/") must be what the plan derives
# from the description (coherency, both mask widths, the bus DMA limit of
# the device, or of the PCI devices behind a host bridge), so that an
# emitter writing a wrong table cannot pass by agreeing with itself.
# A refused load prints each line twice: BusyBox's insmod, when
# finit_module() fails for any reason, tries again with init_module()
# (modutils/modutils.c, bb_init_module()), so the module's init runs twice.
check_verifier() {
	if insmod /boardc/modules/boardc_verify.ko strict=1 2>/tmp/verify.err; then
		result "verifier strict" 0 "boardc_verify.ko strict=1 loaded: $(dmesg | sed -n 's/.*boardc-verify: board //p' | tail -n 1)"
	else
		result "verifier strict" 1 "boardc_verify.ko strict=1 refused to load: $(dmesg | sed -n 's/.*boardc-verify: board //p' | tail -n 1)"
	fi
	dmesg | sed -n 's/.*boardc-verify: //p' >/tmp/verify
	awk '$1 == "limit"' "$plan" >/tmp/verify.limits
	# shellcheck disable=SC2034 # the plan's record fields
	while read -r kind key path state bits cbits setter rest; do
		[ "$kind" = master ] || continue
		lines=$(awk -v k="$key" '($1 == "ok" || $1 == "MISMATCH") && $2 == k' /tmp/verify)
		if [ -z "$lines" ]; then
			result "verifier $key" 1 "no line: $(awk -v k="$key" '$2 == k' /tmp/verify)"
			continue
		elif echo "$lines" | grep -q '^MISMATCH'; then
			result "verifier $key" 1 "$(echo "$lines" | tr '\n' ';')"
			continue
		fi
		coh=0
		[ "$state" = coherent ] && coh=1
		own=$(awk -v k="$key" '$2 == k { print $3 }' /tmp/verify.limits)
		pci=$(awk -v k="$key" '$2 == k { print $4 }' /tmp/verify.limits)
		# A children master's own line has no masks (coherent= then
		# bus_dma_limit=); the devices below it take the PCI column's
		# limit, the walk from the master's node.
		wrong=$(echo "$lines" | awk -v c="$coh" -v b="$bits" -v cb="$cbits" -v own="$own" -v pci="$pci" -v s="$setter" '
			function want(f) { sub(/.*\//, "", f); return f }
			$6 ~ /^bus_dma_limit=/ {
				if (s != "children" || want($5) != c || want($6) != own)
					printf "%s expects %s %s, the description coherent=%s bus_dma_limit=%s (masks on the devices below: %s); ", $4, $5, $6, c, own, s
				next
			}
			{
				lim = ($4 ~ /^[0-9a-f]+:[0-9a-f]+:[0-9a-f]+\.[0-9a-f]+$/ || s == "children") ? pci : own
				if (want($5) != c || want($6) != b || want($7) != cb || want($8) != lim)
					printf "%s expects %s %s %s %s, the description coherent=%s dma_mask=%s coherent_mask=%s bus_dma_limit=%s; ", $4, $5, $6, $7, $8, c, b, cb, lim
			}')
		if [ -n "$wrong" ]; then
			result "verifier $key" 1 "$wrong"
		else
			result "verifier $key" 0 "$(echo "$lines" | awk '{ printf "%s%s %s %s %s %s", s, $4, $5, $6, $7, $8; s = "; " }')"
		fi
	done <"$plan"
	# On a DPAA2 SoC: every online CPU with a DPIO of its own, and the
	# verifier's described count the plan's.
	dpios=$(awk '$1 == "dpio" { print $2 }' "$plan")
	if [ -n "$dpios" ]; then
		line=$(awk '$2 == "dpio" || $2 == "dpio:"' /tmp/verify)
		case $line in
		"ok dpio "*"described=$dpios") result "verifier dpio" 0 "$line" ;;
		*) result "verifier dpio" 1 "${line:-no line}, want ok and described=$dpios" ;;
		esac
	fi
}

# --- runtime: tune.sh and the irqbalance policy ------------------------------

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
				eff=$(cat "/proc/irq/$n/effective_affinity_list")
				extra=$(norm list "$eff" | grep -vxF "$(norm list "$want")")
				if [ -n "$eff" ] && [ -z "$extra" ]; then
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
			have=$(cat "/proc/sys/$a")
			want=$b${c:+ $c}
			[ "$(norm text "$have")" = "$(norm text "$want")" ]
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
	ncpu=$(grep -c ^processor /proc/cpuinfo)
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
			[ "$(norm mask "$hint")" = "$(norm mask "$(printf '%x' $((1 << want)))")" ]
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
	ncpu=$(grep -c ^processor /proc/cpuinfo)
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
				eff=$(cat "/proc/irq/$n/effective_affinity_list")
				extra=$(norm list "$eff" | grep -vxF "$(norm list "$want")")
				if [ -n "$eff" ] && [ -z "$extra" ]; then
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
			have=$(cat "/proc/sys/$a")
			want=$b${c:+ $c}
			[ "$(norm text "$have")" = "$(norm text "$want")" ]
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

# --- the kernel command line ------------------------------------------------

# list_mask LIST prints the hex CPU mask of the CPU list LIST.
list_mask() {
	m=0
	for c in $(norm list "$1"); do
		m=$((m | (1 << c)))
	done
	printf '%x\n' "$m"
}

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

say "mode $mode on $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs"
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
if [ "$mode" = full ]; then
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
