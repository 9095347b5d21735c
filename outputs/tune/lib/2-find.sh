# value FILE sets got to the contents of FILE without its final
# newlines, as $(cat FILE) would; it fails when FILE cannot be read. A
# one-line file, as a value in /sys or /proc/irq is, is read by the
# shell's read, without starting a process. The shell's read takes a
# byte at a time, which a seq_file serves (sysfs attributes, /proc/irq);
# /proc/sys is read with cat, since a numeric sysctl answers a read past
# its first byte with end of file (kernel/sysctl.c
# __do_proc_dointvec(): "*ppos && !write").
value() {
	got=
	got_more=
	case $1 in
	"$ROOT"/proc/sys/*)
		got=$(cat -- "$1") || return 1
		return 0
		;;
	esac
	[ -r "$1" ] || return 1
	{ IFS= read -r got && IFS= read -r got_more; } 2>/dev/null <"$1" && got_more=1
	if [ -n "$got_more" ]; then
		got=$(cat -- "$1") || return 1
	fi
	return 0
}

# irqs_read reads the IRQs of /proc/interrupts below the root into shell
# variables, one for each action name, holding the numbers of the IRQs
# that have it in the file's order (ascending): the variable named
# irqG_KEY, G counting the reads, KEY the name as irq_key gives it. It
# sets irq_phase to the phase, or fails. Action names end a line; a
# shared IRQ lists several, separated by ", ". The policy script reads
# the file with the same program, to find the names of an IRQ. find_irqs
# reads the file once a phase, and again after a channel change, which
# gives a driver new IRQs; a lookup is then one variable, whatever the
# number of IRQs.
irqs_read() {
	[ -r "$ROOT/proc/interrupts" ] || return 1
	irq_gen=$((irq_gen + 1))
	irq_vars=$(awk -v find=vars -v prefix="irq${irq_gen}_" '@irq-actions.awk@' "$ROOT/proc/interrupts") || return 1
	eval "$irq_vars"
	irq_phase=$phase
}

# irqs_current reads /proc/interrupts (irqs_read) unless this phase has,
# since the last channel change; it fails when the file cannot be read.
irqs_current() {
	[ "$irq_phase" = "$phase" ] || irqs_read
}

# irq_key NAME sets irq_k to NAME as irq-actions.awk writes it in a
# variable's name: letters and digits kept, "_", ".", ":", "@" and "-"
# as "_" and their hex code, any other character "__".
irq_key() {
	irq_k=
	irq_rest=$1
	while [ -n "$irq_rest" ]; do
		irq_c=${irq_rest%"${irq_rest#?}"}
		irq_rest=${irq_rest#?}
		case $irq_c in
		[ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789]) irq_k=$irq_k$irq_c ;;
		_) irq_k=${irq_k}_5f ;;
		.) irq_k=${irq_k}_2e ;;
		:) irq_k=${irq_k}_3a ;;
		@) irq_k=${irq_k}_40 ;;
		-) irq_k=${irq_k}_2d ;;
		*) irq_k=${irq_k}__ ;;
		esac
	done
}

# irq_numbers NAME sets irqs to the numbers of the IRQs one of whose
# action names is NAME, blank-separated, in ascending order, as the last
# irqs_read found them.
irq_numbers() {
	irq_key "$1"
	eval "irqs=\${irq${irq_gen}_$irq_k-}"
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

# irqbalance_asks_policy CMDLINE succeeds when the irqbalance whose
# /proc/PID/cmdline is CMDLINE runs this board's policy script, which
# bans the IRQs pinned here: its --policyscript (-l) names the directory
# holding it, or the script itself, and the script is there.
irqbalance_asks_policy() {
	prev=
	set -f # the arguments are words, not patterns
	# shellcheck disable=SC2046 # split on purpose: one argument a word
	set -- $(tr '\0' ' ' <"$1" 2>/dev/null)
	set +f
	for a; do
		case $prev,$a in
		*,--policyscript=*) p=${a#--policyscript=} ;;
		--policyscript,* | -l,*) p=$a ;;
		*) p= ;;
		esac
		prev=$a
		case $p in
		"") ;;
		"$policy_script") [ -x "$ROOT$p" ] && return 0 ;;
		*) [ "${p%/}/${policy_script##*/}" = "$policy_script" ] && [ -x "$ROOT$policy_script" ] && return 0 ;;
		esac
	done
	return 1
}

# check_daemons warns about running daemons that would undo the tuning.
check_daemons() {
	seen_irqbalance=0
	seen_tuned=0
	for f in "$ROOT"/proc/[0-9]*/comm; do
		{ read -r comm <"$f"; } 2>/dev/null || continue
		case $comm in
		irqbalance)
			if [ "$seen_irqbalance" = 0 ] && [ "$pins_irqs" = 1 ] && wants irq &&
				! irqbalance_asks_policy "${f%/comm}/cmdline"; then
				warn "irqbalance is running and will move the IRQs pinned here; give it the directory holding irqbalance-policy.sh as --policyscript (the irqbalance.service.d drop-in does) or stop it"
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
	irqs_current || die 5 "cannot read $ROOT/proc/interrupts"
	irq_numbers "$1"
	if [ -z "$irqs" ]; then
		missing_item "no IRQ named '$1' in $ROOT/proc/interrupts, skipped ($2)"
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

# irq_selected MASTERS succeeds when the IRQ action of the masters
# MASTERS (blank-separated keys, those that declare the IRQ's name) runs:
# always without --interface or --master; with --interface, when one of
# them owns the interface; with --master, when one of them is that
# master. IRQs sharing a name cannot be told apart, so a name two
# masters declare is placed whole for either.
irq_selected() {
	[ "$phase" != resolve ] || return 1
	wants irq || return 1
	[ -n "$only_if$only_master" ] || return 0
	for m in $1; do
		case " $if_masters " in
		*" $m "*) return 0 ;;
		esac
	done
	return 1
}
