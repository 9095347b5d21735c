#!/bin/sh
# SPDX-License-Identifier: (GPL-2.0-or-later OR MIT)
# The systemd guest's checks, run by boardc-systemd-checks.service once
# multi-user.target is reached (systemd is PID 1, udev and irqbalance are
# Debian's). They check that the board's generated systemd units, udev
# rule and irqbalance drop-in do what their headers say:
#
#   /boardc/board   the board's name
#   /boardc/mode    "full" (the outputs are installed) or "control" (none
#                   of them is: every check must then fail)
#   /boardc/xfail   checks known to fail today, one ID a line
#
# A .link file names the virt machine's 4-queue PCI NIC br-lan (a dashed
# name, given as udev adds it); the virtio-mmio NIC keeps its kernel
# name. Each check prints
#   boardc-systemd: ok|FAIL|xfail|XPASS ID: detail
# and the last line is "boardc-systemd: N passed, M failed".
set -u
board=$(cat /boardc/board)
mode=$(cat /boardc/mode)
tune=/usr/libexec/boardc/$board/tune.sh
unit=boardc-tune-$board
passed=0
failed=0

say() { echo "boardc-systemd: $*"; }
known() { grep -qxF "$1" /boardc/xfail 2>/dev/null; }

# result ID OK DETAIL records a check (OK 0 when it held); a known
# failure counts as passed when it fails and as failed when it holds.
result() {
	if known "$1"; then
		if [ "$2" = 0 ]; then
			failed=$((failed + 1))
			say "XPASS $1: $3 (listed as a known failure: take it off the list)"
		else
			passed=$((passed + 1))
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

# prop UNIT NAME prints one property of UNIT as systemd shows it.
prop() { systemctl show -P "$2" "$1" 2>/dev/null; }

# states PATTERN lists the units matching PATTERN with their state.
states() {
	systemctl list-units --all --no-legend --plain "$1" 2>/dev/null |
		awk '{ printf "%s%s %s/%s", sep, $1, $3, $4; sep = ", " }'
}

# uptime_s prints the seconds since boot, whole.
uptime_s() {
	read -r up _ </proc/uptime
	echo "${up%.*}"
}

# wait_for SECONDS COMMAND... retries COMMAND once a second until
# SECONDS have passed since the first try. A deadline, not a count of
# tries: a check's own commands (systemctl show under TCG) take a second
# or more, and the control, whose checks fail, would wait twice as long.
wait_for() {
	end=$(($(uptime_s) + $1))
	shift
	while ! "$@"; do
		[ "$(uptime_s)" -lt "$end" ] || return 1
		sleep 1
	done
}

mask_is() { [ "$(tr -d ',\n' <"$1" 2>/dev/null | sed 's/^0*//; s/^$/0/')" = "$2" ]; }

say "mode $mode, board $board, $(uname -r), systemd $(systemctl --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p'), $(nproc) CPUs"

# --- the boot unit: ran, succeeded, never waited on a device -----------------
# With DefaultDependencies=no, multi-user.target is not ordered after it
# (systemd.target(5)): wait for it to leave "activating".
settled() { [ "$(prop "$unit.service" ActiveState)" != activating ]; }
wait_for 300 settled
r=$(prop "$unit.service" Result)
st=$(prop "$unit.service" ExecMainStatus)
ae=$(prop "$unit.service" ActiveEnterTimestampMonotonic)
ie=$(prop "$unit.service" InactiveExitTimestampMonotonic)
took=$(((${ae:-0} - ${ie:-0}) / 1000))
# Status 4 (applied, items missing) is a success (SuccessExitStatus=4):
# the unit runs before udev has probed the NICs, whose IRQs and queues
# the template unit tunes when each appears.
ok=1
if [ "$(prop "$unit.service" ActiveState)" = active ] && [ "$r" = success ] &&
	[ "${ae:-0}" -gt 0 ]; then
	ok=0
fi
result boot-unit "$ok" "$unit.service $(prop "$unit.service" ActiveState), result ${r:-none}, status ${st:-none}, ran ${took} ms"
timeouts=$(journalctl -b --no-pager -o cat 2>/dev/null | grep -ci 'timed out')
ok=1
if [ "$(prop "$unit.service" LoadState)" = loaded ] && [ "$timeouts" = 0 ] &&
	! prop "$unit.service" After | tr ' ' '\n' | grep -q '\.device$'; then
	ok=0
fi
result boot-unit-no-device "$ok" "$(prop "$unit.service" LoadState), $timeouts job(s) timed out, devices it orders after: $(prop "$unit.service" After | tr ' ' '\n' | grep -c '\.device$')"

# --- the template unit, started by the udev rule, per interface --------------
# The virtio-mmio NIC keeps its kernel name; tune.sh sets its rx-0 RPS
# mask to CPUs 2-3 (c).
plain=
for f in /sys/class/net/*/address; do
	[ "$(cat "$f")" = 52:54:00:12:34:57 ] && plain=$(basename "${f%/address}")
done
say "interfaces: $(echo /sys/class/net/* | sed 's|/sys/class/net/||g') (the virtio-mmio NIC: ${plain:-none})"
# instances prints the template unit's instances and their states.
instances() { states "$unit@*"; }
plain_tuned() { [ "$(prop "$unit@$plain.service" Result)" = success ] && mask_is "/sys/class/net/$plain/queues/rx-0/rps_cpus" c; }
ok=1
wait_for 20 plain_tuned && ok=0
result template-plain "$ok" "$unit@$plain.service: $(prop "$unit@$plain.service" ActiveState)/$(prop "$unit@$plain.service" Result); $plain rx-0 rps_cpus $(cat "/sys/class/net/$plain/queues/rx-0/rps_cpus" 2>/dev/null)"
# br-lan, the PCI NIC, is renamed by a .link file as udev adds it, to a
# dashed name. tune.sh sets its rx-0 RPS mask to CPUs 0-1 (3), rx-2's to
# CPUs 2-3 (c).
lan_tuned() { mask_is /sys/class/net/br-lan/queues/rx-0/rps_cpus 3 && mask_is /sys/class/net/br-lan/queues/rx-2/rps_cpus c; }
ok=1
wait_for 20 lan_tuned && ok=0
result template-renamed "$ok" "br-lan rx-0 rps_cpus $(cat /sys/class/net/br-lan/queues/rx-0/rps_cpus 2>/dev/null), rx-2 $(cat /sys/class/net/br-lan/queues/rx-2/rps_cpus 2>/dev/null); udev's database: $(udevadm info -q property /sys/class/net/br-lan 2>/dev/null | grep -E '^SYSTEMD_WANTS=' || echo no SYSTEMD_WANTS); instances: $(instances)"
# The instance udev's rules name for br-lan (udevadm test runs them
# without acting): a dashed name must reach the unit escaped (br\x2dlan),
# so that %I gives back br-lan; the unit binds to no device unit, which a
# name could fail to reach.
inst=$(udevadm test --action=add /sys/class/net/br-lan 2>/dev/null | sed -n 's/^SYSTEMD_WANTS=//p' | tr ' ' '\n' | grep "^$unit@" | head -n 1)
ok=1
argv=
binds=
if [ -n "$inst" ]; then
	argv=$(prop "$inst" ExecStart | sed -n 's/.*argv\[\]=\([^;]*\);.*/\1/p' | sed 's/ *$//')
	binds=$(prop "$inst" BindsTo)
	# %I must give back br-lan: tune.sh is told the interface (or the
	# instance naming it), and no BindsTo= names a device unit.
	case $inst in
	*'@br\x2dlan.service')
		case $argv in
		*" --instance br-lan" | *" --interface br-lan") [ -z "$binds" ] && ok=0 ;;
		esac
		;;
	esac
fi
result template-escape "$ok" "the rule names ${inst:-no instance} for br-lan: ExecStart ${argv:-none}; BindsTo ${binds:-none} ($(prop "$binds" ActiveState))"
for i in $plain br-lan; do
	say "  $i: udev $(udevadm info -q property "/sys/class/net/$i" 2>/dev/null | grep -E '^(SYSTEMD_WANTS|ID_NET_NAME)=' | tr '\n' ' ')"
done
journalctl -b --no-pager -o short-monotonic 2>/dev/null | grep -i "boardc-tune-$board@" | tail -n 6 | sed 's/^/boardc-systemd:   journal: /'

# --- a later rename re-tunes the interface (a move uevent) -------------------
# Its RPS mask is cleared behind tune.sh's back, then the plain NIC is
# renamed uplink0: the udev rule must start the template unit for the
# new name, which tunes it again.
if [ -n "$plain" ]; then
	echo 0 >"/sys/class/net/$plain/queues/rx-0/rps_cpus" 2>/dev/null
	ip link set dev "$plain" down 2>/dev/null
	ip link set dev "$plain" name uplink0 2>/dev/null
fi
up_tuned() { mask_is /sys/class/net/uplink0/queues/rx-0/rps_cpus c; }
ok=1
wait_for 20 up_tuned && ok=0
result rename "$ok" "$plain renamed $(test -e /sys/class/net/uplink0 && echo uplink0 || echo 'NOT renamed'); rx-0 rps_cpus $(cat /sys/class/net/uplink0/queues/rx-0/rps_cpus 2>/dev/null); instances: $(instances)"

# --- irqbalance leaves the banned IRQs where tune.sh put them ----------------
# irqbalance rebalances every 10 s (irqbalance.c, sleep_interval): after
# it has run 25 s, tune.sh --verify --only irq must find no drift.
irqb_ran() {
	ae=$(prop irqbalance.service ActiveEnterTimestampMonotonic)
	now=$(awk '{ printf "%d", $1 * 1000000 }' /proc/uptime)
	[ "$(prop irqbalance.service ActiveState)" = active ] && [ "${ae:-0}" -gt 0 ] && [ $((now - ae)) -gt 25000000 ]
}
# In the control no boot unit pins the IRQs: stop irqbalance, pin them
# as the unit would, and start irqbalance after it (as the drop-in orders
# it), so that only the drop-in's policy script is missing.
# The control's baseline line shows the IRQs were where tune.sh puts
# them before irqbalance ran.
if [ "$mode" = control ] && [ -f "$tune" ]; then
	systemctl stop irqbalance.service
	sh "$tune" --only irq,sysctl >/dev/null 2>&1
	st=$?
	v=$(sh "$tune" --verify --only irq 2>&1 | grep -v 'warning: irqbalance is running')
	say "irqbalance-baseline: tune.sh applied (status $st), then --verify --only irq: $(printf '%s' "$v" | tail -n 3 | tr '\n' ';')"
	systemctl start irqbalance.service
fi
wait_for 60 irqb_ran
irqb="irqbalance $(prop irqbalance.service ActiveState) (pid $(prop irqbalance.service MainPID), $(tr '\0' ' ' </proc/"$(prop irqbalance.service MainPID)"/cmdline 2>/dev/null))"
ok=1
if [ -f "$tune" ]; then
	v=$(sh "$tune" --verify --only irq 2>&1) && ok=0
else
	v="no $tune"
fi
result irqbalance "$ok" "$irqb; tune.sh --verify --only irq: $(printf '%s' "$v" | tail -n 5 | tr '\n' ';')"

say "$passed passed, $failed failed"
