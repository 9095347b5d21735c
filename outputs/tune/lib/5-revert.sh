# irq_owned N NAME succeeds when IRQ N still has the action name NAME.
irq_owned() {
	irqs_current 2>/dev/null || return 1
	irq_numbers "$2"
	for m in $irqs; do
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
online=
net_skip=
net_desc=
net_dev=
statekey=
readonly_act=0
chan_pending=
irq_phase=
irq_gen=0
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
if [ -n "$only_master" ]; then
	if_masters=$only_master
fi
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
if [ -n "$only_if" ] && [ -z "$if_descs" ]; then
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
