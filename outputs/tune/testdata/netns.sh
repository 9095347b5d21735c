#!/bin/sh
# Runs a generated tune.sh against the real kernel inside a private network
# and mount namespace: start it as root under "unshare -n -m". It mounts a
# fresh sysfs (showing only this namespace's interfaces) and a tmpfs on
# /run (for tune.sh's state), creates veth interfaces with the board's
# names, and runs tune.sh step by step with an empty root.
#
# Arguments: OUT TUNE ONLY TAMPER VALUE NAME:RXQ:TXQ...
#   OUT     directory for the results; OUT/paths lists the files to snapshot
#   TUNE    the generated tune.sh
#   ONLY    its --only list
#   TAMPER  a file to change after applying, VALUE its new value
#   NAME:RXQ:TXQ  an interface to create and its queue counts
# Writes OUT/rc ("step status" lines), OUT/<step>.out, and snapshots of
# the listed files ("path<TAB>value" lines) in OUT/before, OUT/applied,
# OUT/after, OUT/iface (after --interface with the first interface) and
# OUT/iface-after.
set -eu
out=$1
tune=$2
only=$3
tamper=$4
value=$5
shift 5

mount --make-rprivate /
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /run

i=0
for spec in "$@"; do
	name=${spec%%:*}
	rest=${spec#*:}
	ip link add "$name" numrxqueues "${rest%%:*}" numtxqueues "${rest#*:}" type veth peer name "bcpeer$i"
	i=$((i + 1))
done

snap() {
	while IFS= read -r p; do
		printf '%s\t%s\n' "$p" "$(cat -- "$p")"
	done <"$out/paths" >"$out/$1"
}

step() {
	name=$1
	shift
	rc=0
	"$@" >"$out/$name.out" 2>&1 || rc=$?
	echo "$name $rc" >>"$out/rc"
}

snap before
step guard sh "$tune" --only "$only"
step apply sh "$tune" --force --only "$only"
snap applied
step reapply sh "$tune" --force --only "$only"
step verify sh "$tune" --force --only "$only" --verify
printf '%s\n' "$value" >"$tamper"
step tampered sh "$tune" --force --only "$only" --verify
step revert sh "$tune" --revert
snap after
# --interface, as the udev rule runs it, with the first interface's name:
# that interface's queues only, then reverted.
first=${1%%:*}
step iface sh "$tune" --force --interface "$first"
snap iface
step iface-revert sh "$tune" --revert
snap iface-after
