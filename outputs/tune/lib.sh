usage() {
	cat <<EOF
Usage: tune.sh [--dry-run | --verify | --revert] [--strict] [--interface IFACE]
               [--force] [--only LIST] [--root DIR]

Applies the runtime tuning of board $board: IRQ affinity by action name,
RPS/XPS masks and sysctls. The first apply saves the values it replaces in
ROOT/run/boardc/$board.state; --revert restores them. Applying again
changes only what drifted and keeps the values first saved. An IRQ,
interface or queue that is not there is a warning naming it, and the rest
is applied; --strict changes nothing unless everything is there.

  --dry-run    print every action, change nothing
  --verify     read every value back; list each drift and exit 1
  --revert     restore the values saved by the first apply
  --strict     all or nothing: refuse (status 3) when an item is missing
  --interface IFACE
               only this interface, by its name here (or the description's,
               where no interface here has the name): its queues and the
               IRQs of the master that owns it, which a driver reload
               renumbers (for udev and hotplug; the sysctls and the other
               IRQs are the boot run's). --revert restores every saved
               value, whatever --interface says
  --force      run even where /proc/device-tree/compatible names another board
  --only LIST  only these parts, comma-separated: irq, net, sysctl (default all)
  --root DIR   prefix every /proc, /sys and /run path with DIR
               (default: the BOARDC_ROOT environment variable, else none)
  --help       print this help

Exit status: 0 everything applied (--verify: no drift), 1 drift
(--verify), 2 usage, 3 refused, nothing changed (not this board, or
--strict and an item missing), 4 applied with items missing (each named
in a warning; --revert: values whose IRQ or file is gone or now another
device's), 5 failed (a read or write failed; what came before it is
applied).
EOF
}

prog=tune.sh
die() {
	status=$1
	shift
	printf '%s: %s\n' "$prog" "$*" >&2
	exit "$status"
}
warn() { printf '%s: warning: %s\n' "$prog" "$*" >&2; }
say() { printf '%s\n' "$*"; }
usage_error() {
	printf '%s: %s\nTry %s --help.\n' "$prog" "$*" "$prog" >&2
	exit 2
}

tab=$(printf '\t')
nl='
'

ROOT=${BOARDC_ROOT-}
mode=apply
force=0
strict=0
only_if=
found_if=0
only=irq,net,sysctl

set_mode() {
	if [ "$mode" != apply ] && [ "$mode" != "$1" ]; then
		usage_error "--$mode and --$1 exclude each other"
	fi
	mode=$1
}

while [ $# -gt 0 ]; do
	case $1 in
	--dry-run) set_mode dry-run ;;
	--verify) set_mode verify ;;
	--revert) set_mode revert ;;
	--force) force=1 ;;
	--strict) strict=1 ;;
	--interface)
		[ $# -ge 2 ] || usage_error "--interface needs a name"
		only_if=$2
		shift
		;;
	--interface=*) only_if=${1#--interface=} ;;
	--only)
		[ $# -ge 2 ] || usage_error "--only needs a list"
		only=$2
		shift
		;;
	--only=*) only=${1#--only=} ;;
	--root)
		[ $# -ge 2 ] || usage_error "--root needs a directory"
		ROOT=$2
		shift
		;;
	--root=*) ROOT=${1#--root=} ;;
	-h | --help)
		usage
		exit 0
		;;
	*) usage_error "unknown argument: $1" ;;
	esac
	shift
done
ROOT=${ROOT%/}
case $only_if in
*/* | .* | *"$nl"* | *" "* | *"$tab"*) usage_error "--interface: not an interface name: $only_if" ;;
esac

rest=$only,
parts=
while [ -n "$rest" ]; do
	part=${rest%%,*}
	rest=${rest#*,}
	case $part in
	irq | net) parts=$parts${parts:+,}$part ;;
	sysctl) [ -n "$only_if" ] || parts=$parts${parts:+,}$part ;;
	*) usage_error "--only: unknown part '$part' (irq, net, sysctl)" ;;
	esac
done
# --interface tunes the interface's own parts: its master's IRQs and its
# queues, never the sysctls.
if [ -n "$only_if" ]; then
	[ -n "$parts" ] || usage_error "--interface tunes only the parts irq and net"
	only=$parts
fi

# wants PART succeeds when --only includes PART.
wants() {
	case ,$only, in
	*,"$1",*) return 0 ;;
	esac
	return 1
}

# same KIND WANT HAVE succeeds when HAVE, read back from the kernel, is
# WANT. Both are compared normalized by KIND: for list, as CPU lists in
# canonical form ("0,1" and "0-1" are equal); for mask, as hex masks
# without commas or leading zeros; for text, with blanks collapsed.
same() {
	BOARDC_WANT=$2 BOARDC_HAVE=$3 awk -v kind="$1" 'function cpulist(s,    n, i, p, r, c, max, set, out, first) {
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
function expand(s, set,    n, i, p, r, c) {
	gsub(/[ \t\n]/, "", s)
	n = split(s, p, ",")
	for (i = 1; i <= n; i++) {
		if (p[i] ~ /^[0-9]+$/)
			set[p[i] + 0] = 1
		else if (p[i] ~ /^[0-9]+-[0-9]+$/) {
			split(p[i], r, "-")
			for (c = r[1] + 0; c <= r[2] + 0; c++)
				set[c] = 1
		}
	}
}
BEGIN {
	if (kind == "within") {
		expand(ENVIRON["BOARDC_WANT"], want)
		expand(ENVIRON["BOARDC_HAVE"], have)
		for (c in have)
			if (!(c in want))
				exit 1
		exit 0
	}
	exit norm(ENVIRON["BOARDC_WANT"]) != norm(ENVIRON["BOARDC_HAVE"])
}'
}

# irq_numbers NAME FILE prints the number of every IRQ in FILE (the root's
# /proc/interrupts) one of whose action names is NAME. Action names end a
# line; a shared IRQ lists several, separated by ", ".
irq_numbers() {
	BOARDC_IRQ=$1 awk '$1 ~ /^[0-9]+:$/ {
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
}' "$2"
}

# check_board refuses, with status 3, to tune a system whose root
# compatible strings name no compatible of this board, unless --force.
check_board() {
	if [ "$force" = 1 ]; then
		return 0
	fi
	f=$ROOT/proc/device-tree/compatible
	[ -r "$f" ] || die 3 "cannot read $f, so this cannot be board $board (--force overrides)"
	compat=$(tr '\0' '\n' <"$f")
	while IFS= read -r c; do
		if board_matches "$c"; then
			return 0
		fi
	done <<EOF
$compat
EOF
	die 3 "this is not board $board: $f says $(printf '%s' "$compat" | tr '\n' ' ')(--force overrides)"
}

# check_daemons warns about running daemons that would undo the tuning.
check_daemons() {
	seen_irqbalance=0
	seen_tuned=0
	for f in "$ROOT"/proc/[0-9]*/comm; do
		{ read -r comm <"$f"; } 2>/dev/null || continue
		case $comm in
		irqbalance)
			if [ "$seen_irqbalance" = 0 ] && [ "$pins_irqs" = 1 ] && wants irq; then
				warn "irqbalance is running and will move the IRQs pinned here; give it irqbalance-policy.sh as --policyscript or stop it"
			fi
			seen_irqbalance=1
			;;
		tuned)
			if [ "$seen_tuned" = 0 ]; then
				warn "TuneD is running; its profiles may rewrite the IRQ affinities, RPS/XPS masks and sysctls set here"
			fi
			seen_tuned=1
			;;
		esac
	done
}

# save PATH VALUE records VALUE as the original of PATH unless an earlier
# apply did: revert restores the values from before the first apply.
save() {
	case $nl$saved in
	*"$nl$1$tab"*) return 0 ;;
	esac
	case $2 in
	*"$nl"*) die 5 "cannot save the multi-line value of $1" ;;
	esac
	printf '%s\t%s\n' "$1" "$2" >>"$state" || die 5 "cannot write $state"
	saved=$saved$nl$1$tab$2
}

# find_irqs NAME WHERE sets irqs to the number of every IRQ whose action
# name in /proc/interrupts is NAME, in ascending order: several IRQs may
# share a name, and IRQ numbers are not stable across boots or driver
# loads.
find_irqs() {
	f=$ROOT/proc/interrupts
	[ -r "$f" ] || die 5 "cannot read $f"
	irqs=$(irq_numbers "$1" "$f") || die 5 "cannot read $f"
	if [ -z "$irqs" ]; then
		missing_item "no IRQ named '$1' in $f, skipped ($2)"
		return 1
	fi
}

# missing_item MESSAGE: an IRQ, interface or queue is not there. The check
# phase warns and counts it; the run phase skips it quietly.
missing_item() {
	[ "$phase" = check ] || return 0
	warn "$1"
	missing=$((missing + 1))
}

# cpu_at LIST K prints the CPU at index K of the comma-separated LIST,
# starting over at its first CPU past its end.
cpu_at() {
	printf '%s\n' "$1" | awk -F, -v k="$2" '{ print $(k % NF + 1) }'
}

# irq_selected MASTERS succeeds when the IRQ action of the masters
# MASTERS (blank-separated keys, those that declare the IRQ's name) runs:
# always without --interface; with it, when one of them owns the
# interface. IRQs sharing a name cannot be told apart, so a name two
# masters declare is placed whole for either.
irq_selected() {
	[ "$phase" != resolve ] || return 1
	wants irq || return 1
	[ -n "$only_if" ] || return 0
	for m in $1; do
		case " $if_masters " in
		*" $m "*) return 0 ;;
		esac
	done
	return 1
}

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
		[ "$3" = one ] && want=$(cpu_at "$2" "$k")
		statekey="irq $n $1"
		act irq list "/proc/irq/$n/smp_affinity_list" "$want" "IRQ $n $1, $5"
		effective "$n" "$want" "IRQ $n $1, $5"
		k=$((k + 1))
	done
}

# follow_irq NAME CPUS HOW MASTERS WHERE keeps the IRQs named NAME, which
# the masters MASTERS declare and their driver places with an affinity
# hint, where the hint says: a user-space write (irqbalance, an earlier
# script) is undone. CPUS is what the description expects the hints to
# be, taken as pin_irq's MODE one does; a hint that differs is reported,
# naming both CPUs, and followed. HOW managed: the kernel manages the
# vectors (a write answers EIO), so their affinity is only checked.
follow_irq() {
	irq_selected "$4" || return 0
	find_irqs "$1" "$5" || return 0
	k=0
	for n in $irqs; do
		expect=$(cpu_at "$2" "$k")
		k=$((k + 1))
		if [ "$phase" = check ]; then
			act irq list "/proc/irq/$n/smp_affinity_list" "$expect" "IRQ $n $1, $5"
			continue
		fi
		hint=$(cat -- "$ROOT/proc/irq/$n/affinity_hint" 2>/dev/null) || hint=
		hint=$(mask_list "$hint")
		if [ -z "$hint" ]; then
			warn "IRQ $n $1 has no affinity hint from its driver, left where it is ($5)"
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

# mask_list MASK prints the CPU list of a hex CPU mask as the kernel prints
# one, ranges joined ("00000000,00000008" is "3", "f" is "0-3"), nothing
# for an empty or zero mask.
mask_list() {
	awk -v m="$1" 'BEGIN {
	m = tolower(m)
	gsub(/[, \t\n]/, "", m)
	if (m !~ /^[0-9a-f]+$/)
		exit 0
	n = length(m)
	for (i = n; i >= 1; i--) {
		d = index("0123456789abcdef", substr(m, i, 1)) - 1
		for (b = 0; b < 4; b++) {
			if (d % 2)
				set[(n - i) * 4 + b] = 1
			d = int(d / 2)
		}
	}
	out = ""
	for (c = 0; c < n * 4; c++) {
		if (!(c in set))
			continue
		first = c
		while ((c + 1) in set)
			c++
		out = out (out == "" ? "" : ",") (first == c ? c : first "-" c)
	}
	if (out != "")
		print out
}'
}

# effective N CPULIST: on --verify, an IRQ whose effective affinity (where
# the interrupt controller really delivers it, where the kernel has
# /proc/irq/N/effective_affinity_list) is not within CPULIST drifted.
effective() {
	[ "$phase" = run ] && [ "$mode" = verify ] || return 0
	f=$ROOT/proc/irq/$1/effective_affinity_list
	[ -r "$f" ] || return 0
	eff=$(cat -- "$f") || return 0
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
	have=$(cat -- "$f") || die 5 "cannot read $f ($5)"
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
		now=$(cat -- "$f") || die 5 "cannot read $f ($5)"
		same "$2" "$4" "$now" || die 5 "$f reads back $now after writing $4 ($5)"
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
	if ! now=$(ethtool -l "$net_dev" 2>/dev/null | awk '/^Current hardware settings:/ {
	cur = 1
	next
}
cur && ($1 == "RX:" || $1 == "TX:" || $1 == "Combined:") && $2 ~ /^[0-9]+$/ && $2 > 0 {
	k = tolower($1)
	sub(/:$/, "", k)
	out = out (out == "" ? "" : " ") k " " $2
}
END {
	if (!cur)
		exit 1
	print out
}'); then
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
	if [ "$phase" = check ]; then
		chan_pending=$net_desc
		return 0
	fi
	chan_pending=$net_desc
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
		say "set the channels of $net_dev to $want, was ${now:-none} ($3)"
		changed=$((changed + 1))
		;;
	esac
}

# chan_same WANT NOW succeeds when every "key count" pair of WANT is in
# NOW (as channelsAwk prints the counts).
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

# iface NAME HOW ARG ALIAS MASTER WHERE starts the values of the
# interface the description calls NAME, which the master MASTER owns (''
# for none), found on the target by HOW: node, the netdev
# whose own device, or nearest parent device, has the device-tree node ARG
# as its of_node (the node of the DT alias ALIAS, where the running tree
# has that alias); dpni, the netdev of the DPAA2 object dpni.ARG; name,
# the netdev called NAME. Names change (systemd's predictable names,
# udev rules), the hardware does not. When none is found, or several,
# that is one missing item and the interface's queues are skipped.
# --interface selects one interface and skips the rest: the resolve
# phase, before the others, notes each interface that is the netdev named
# so, or that the description names so (see select_interface).
iface() {
	net_desc=$1
	net_dev=
	net_skip=$1
	chan_pending=
	[ "$phase" = resolve ] || wants net || return 0
	case $2 in
	node) net_dev=$(netdev_by_node "$3" "$4") ;;
	dpni) net_dev=$(netdev_by_dpni "$3") ;;
	*) [ -e "$ROOT/sys/class/net/$1" ] && net_dev=$1 ;;
	esac
	if [ "$phase" = resolve ]; then
		if [ "$only_if" = "$net_dev" ]; then
			dev_descs="$dev_descs $1"
			dev_masters="$dev_masters $5"
		elif [ "$only_if" = "$1" ]; then
			name_descs="$name_descs $1"
			name_masters="$name_masters $5"
		fi
		return 0
	fi
	if [ -n "$only_if" ]; then
		case "$if_descs " in
		*" $1 "*) ;;
		*) return 0 ;;
		esac
	fi
	how=$2
	[ "$2" = name ] || how="$2 $3"
	case $net_dev in
	'')
		missing_item "no interface $1 ($how) in $ROOT/sys/class/net, its queues skipped ($6)"
		return 0
		;;
	*" "*)
		missing_item "interface $1 ($how) is each of $net_dev: none tuned ($6)"
		return 0
		;;
	esac
	if [ "$phase" = run ] && [ "$mode" != verify ] && [ "$net_dev" != "$1" ]; then
		say "interface $1 is $net_dev ($how)"
	fi
	net_skip=
}

# select_interface, after the resolve phase, sets if_descs and if_masters
# to the description's names and the masters of the interfaces --interface
# selects: the interface whose netdev has that name (udev and hotplug
# pass the kernel's name, and names can be swapped: the netdev eth1 may
# be the description's eth0); else, when no netdev has that name, the
# interface the description names so; else none, the netdev not being
# one of the board's.
select_interface() {
	if_descs=
	if_masters=
	if [ -n "$dev_descs" ]; then
		if_descs=$dev_descs
		if_masters=$dev_masters
	elif [ ! -e "$ROOT/sys/class/net/$only_if" ]; then
		if_descs=$name_descs
		if_masters=$name_masters
	fi
	[ -z "$if_descs" ] || found_if=1
}

# netdev_by_node NODE ALIAS prints the netdevs whose nearest of_node is
# NODE or below it (or the node ALIAS names in the running tree),
# blank-separated.
netdev_by_node() {
	want=$1
	if [ -n "$2" ] && [ -r "$ROOT/proc/device-tree/aliases/$2" ]; then
		a=$(tr -d '\000' <"$ROOT/proc/device-tree/aliases/$2")
		[ -n "$a" ] && want=$a
	fi
	found=
	for d in "$ROOT"/sys/class/net/*; do
		on=$(nearest_of_node "$d") || continue
		case $on in
		"$want" | "$want"/*) found="$found${found:+ }${d##*/}" ;;
		esac
	done
	printf '%s' "$found"
}

# nearest_of_node DIR prints the device-tree path of the of_node of the
# netdev DIR, or else of the nearest device above it that has one.
nearest_of_node() {
	p=$(cd -P -- "$1" 2>/dev/null && pwd -P) || return 1
	while :; do
		if [ -e "$p/of_node" ]; then
			on=$(cd -P -- "$p/of_node" 2>/dev/null && pwd -P) || return 1
			on=${on#*/devicetree/base}
			printf '%s\n' "${on:-/}"
			return 0
		fi
		p=${p%/*}
		case $p in
		*/sys/devices/*) ;;
		*) return 1 ;;
		esac
	done
}

# netdev_by_dpni N prints the netdevs whose device is the DPAA2 object
# dpni.N.
netdev_by_dpni() {
	found=
	for d in "$ROOT"/sys/class/net/*; do
		p=$(cd -P -- "$d/device" 2>/dev/null && pwd -P) || continue
		[ "${p##*/}" = "dpni.$1" ] && found="$found${found:+ }${d##*/}"
	done
	printf '%s' "$found"
}

# irq_owned N NAME succeeds when IRQ N still has the action name NAME.
irq_owned() {
	for m in $(irq_numbers "$2" "$ROOT/proc/interrupts" 2>/dev/null); do
		[ "$m" = "$1" ] && return 0
	done
	return 1
}

# revert restores the values saved by the first apply. An IRQ's value is
# saved under its number and action name, and restored only while that
# number still has that name: a driver reload can give the number to
# another device, whose affinity is not ours to change. Where a key is
# saved twice, the first line wins: runs that overlap (the boot run and
# an --interface run, both placing an IRQ) each append what they read,
# and a run appends a key before it writes its value, so a later line
# can only hold a value another run had already set.
revert() {
	if [ ! -e "$state" ]; then
		say "nothing to revert: no $state"
		return 0
	fi
	failed=0
	chans=
	seen=
	while IFS= read -r line; do
		p=${line%%"$tab"*}
		v=${line#*"$tab"}
		case $nl$seen$nl in
		*"$nl$p$nl"*) continue ;;
		esac
		seen=$seen$nl$p
		case $p in
		"channels "*)
			# Restored last: they decide which queue files exist.
			chans=$chans$line$nl
			continue
			;;
		"irq "*)
			rest=${p#irq }
			n=${rest%% *}
			name=${rest#* }
			case $n in
			'' | *[!0-9]*)
				warn "ignoring a malformed line of $state"
				failed=1
				continue
				;;
			esac
			if ! irq_owned "$n" "$name"; then
				warn "not restoring IRQ $n to $v: it is no longer named $name (a driver reload may have given its number to another device)"
				missing=$((missing + 1))
				continue
			fi
			p=/proc/irq/$n/smp_affinity_list
			;;
		*/../* | */.. | [!/]*)
			warn "ignoring a malformed line of $state"
			failed=1
			continue
			;;
		esac
		if [ ! -e "$ROOT$p" ]; then
			warn "cannot restore $p to $v: it is gone"
			missing=$((missing + 1))
		elif { printf '%s\n' "$v" >"$ROOT$p"; } 2>/dev/null; then
			say "restored $p = $v"
		else
			warn "cannot restore $p to $v"
			failed=1
		fi
	done <"$state"
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		dev=${line%%"$tab"*}
		dev=${dev#channels }
		v=${line#*"$tab"}
		# shellcheck disable=SC2086 # key count pairs, split on purpose
		if [ -n "$v" ] && ethtool -L "$dev" $v; then
			say "restored the channels of $dev: $v"
		else
			warn "cannot restore the channels of $dev to $v"
			failed=1
		fi
	done <<EOF
$chans
EOF
	[ "$failed" = 0 ] || die 5 "some values were not restored; $state is kept"
	rm -f -- "$state"
	rmdir -- "$statedir" 2>/dev/null || true
	if [ "$missing" != 0 ]; then
		warn "$missing saved value(s) not restored: their IRQ or file is gone"
		exit 4
	fi
}

statedir=$ROOT/run/boardc
state=$statedir/$board.state
drift=0
changed=0
kept=0
missing=0
net_skip=
net_desc=
net_dev=
statekey=
readonly_act=0
chan_pending=
if_descs=
if_masters=
dev_descs=
dev_masters=
name_descs=
name_masters=
phase=check

if [ "$mode" = revert ]; then
	revert
	exit 0
fi
check_board
check_daemons
if [ -n "$only_if" ]; then
	phase=resolve
	actions
	select_interface
	phase=check
fi
actions
if [ "$missing" != 0 ] && [ "$strict" = 1 ]; then
	die 3 "$missing item(s) missing: nothing changed (--strict)"
fi
saved=
if [ "$mode" = apply ]; then
	mkdir -p -- "$statedir" || die 5 "cannot create $statedir"
	if [ -f "$state" ]; then
		saved=$(cat -- "$state") || die 5 "cannot read $state"
	fi
fi
if [ -n "$only_if" ] && [ "$found_if" = 0 ]; then
	say "$only_if is not an interface of board $board: nothing to do"
	exit 0
fi
phase=run
actions
case $mode in
apply) say "board $board: $changed value(s) set, $kept already in place" ;;
verify)
	[ "$drift" = 0 ] || die 1 "$drift value(s) of board $board drifted"
	say "board $board: no drift"
	;;
esac
if [ "$missing" != 0 ]; then
	warn "$missing item(s) missing or refused, named above; the rest is done"
	exit 4
fi
