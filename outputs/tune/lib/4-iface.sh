# iface NAME HOW ARG ALIAS MASTER WHERE starts the values of the
# interface the description calls NAME, which the master MASTER owns (''
# for none), found on the target by HOW: node, the netdev
# whose own device, or nearest parent device, has the device-tree node ARG
# or a node below it as its of_node (the node of the DT alias ALIAS, where
# the running tree has that alias): ARG is the interface's own port node
# where the description names one (mvpp2's ethernet-port@N, whose netdev
# has it as its own of_node), else its master's node, which every port of
# the master shares; dpni, the netdev of the DPAA2 object dpni.ARG; name,
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
}

# netdev_by_node NODE ALIAS prints the netdevs whose nearest of_node is
# NODE or below it (or the node ALIAS names in the running tree),
# blank-separated. It runs in a command substitution's subshell, so it
# follows each link with cd -P there, without a subshell of its own.
netdev_by_node() {
	want=$1
	if [ -n "$2" ] && [ -r "$ROOT/proc/device-tree/aliases/$2" ]; then
		a=$(tr -d '\000' <"$ROOT/proc/device-tree/aliases/$2")
		[ -n "$a" ] && want=$a
	fi
	net=$ROOT/sys/class/net
	case $net in
	/*) ;;
	*) net=$PWD/$net ;;
	esac
	found=
	for d in "$net"/* "$net"/.[!.]* "$net"/..?*; do
		nearest_of_node "$d" || continue
		case $on in
		"$want" | "$want"/*) found="$found${found:+ }${d##*/}" ;;
		esac
	done
	printf '%s' "$found"
}

# nearest_of_node DIR sets on to the device-tree path of the of_node of the
# netdev DIR (an absolute path), or else of the nearest device above it
# that has one. It changes the working directory.
nearest_of_node() {
	cd -P -- "$1" 2>/dev/null || return 1
	p=$PWD
	while :; do
		if [ -e "$p/of_node" ]; then
			cd -P -- "$p/of_node" 2>/dev/null || return 1
			on=${PWD#*/devicetree/base}
			: "${on:=/}"
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
# dpni.N. It runs in a command substitution's subshell, as netdev_by_node
# does.
netdev_by_dpni() {
	net=$ROOT/sys/class/net
	case $net in
	/*) ;;
	*) net=$PWD/$net ;;
	esac
	found=
	for d in "$net"/* "$net"/.[!.]* "$net"/..?*; do
		cd -P -- "$d/device" 2>/dev/null || continue
		[ "${PWD##*/}" = "dpni.$1" ] && found="$found${found:+ }${d##*/}"
	done
	printf '%s' "$found"
}
