usage() {
	cat <<EOF
Usage: tune.sh [--dry-run | --verify | --revert] [--strict]
               [--interface IFACE | --master KEY | --instance INSTANCE]
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
  --master KEY only the IRQs of the master KEY of the description (for
               udev, when a driver binds to it; no queues, no sysctls)
  --instance INSTANCE
               what the systemd template unit was started for: master:KEY
               is --master KEY, anything else --interface INSTANCE (an
               interface name has no ':')
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
only_master=
master_given=0
instance=
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
	--master)
		[ $# -ge 2 ] || usage_error "--master needs a key"
		only_master=$2
		master_given=1
		shift
		;;
	--master=*)
		only_master=${1#--master=}
		master_given=1
		;;
	--instance)
		[ $# -ge 2 ] || usage_error "--instance needs an instance"
		instance=$2
		shift
		;;
	--instance=*) instance=${1#--instance=} ;;
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
case $instance in
'') ;;
master:*)
	only_master=${instance#master:}
	master_given=1
	;;
*) only_if=$instance ;;
esac
if [ -n "$only_if" ] && [ -n "$only_master" ]; then
	usage_error "--interface and --master exclude each other"
fi
# A master's key as the schema writes it (#Key).
if [ "$master_given" = 1 ]; then
	case $only_master in
	'' | [!a-z]* | *[!a-z0-9_]*) usage_error "--master: not a master's key: $only_master" ;;
	esac
fi
# An interface name as net/core/dev.c dev_valid_name() allows it: not
# empty, "." or "..", no "/", ":" or white space (a name may start with
# "." otherwise).
case $only_if in
. | .. | */* | *:* | *"$nl"* | *" "* | *"$tab"*) usage_error "--interface: not an interface name: $only_if" ;;
esac

rest=$only,
parts=
while [ -n "$rest" ]; do
	part=${rest%%,*}
	rest=${rest#*,}
	case $part in
	irq) parts=$parts${parts:+,}$part ;;
	net) [ -n "$only_master" ] || parts=$parts${parts:+,}$part ;;
	sysctl) [ -n "$only_if$only_master" ] || parts=$parts${parts:+,}$part ;;
	*) usage_error "--only: unknown part '$part' (irq, net, sysctl)" ;;
	esac
done
# --interface tunes the interface's own parts: its master's IRQs and its
# queues, never the sysctls.
if [ -n "$only_if" ]; then
	[ -n "$parts" ] || usage_error "--interface tunes only the parts irq and net"
	only=$parts
fi
# --master places the master's IRQs only.
if [ -n "$only_master" ]; then
	[ -n "$parts" ] || usage_error "--master tunes only the part irq"
	only=$parts
fi

# wants PART succeeds when --only includes PART.
wants() {
	case ,$only, in
	*,"$1",*) return 0 ;;
	esac
	return 1
}
