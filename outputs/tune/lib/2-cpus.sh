# same KIND WANT HAVE succeeds when HAVE, read back from the kernel, is
# WANT. Both are compared normalized by KIND: for list, as CPU lists in
# canonical form ("0,1" and "0-1" are equal); for mask, as hex masks
# without commas or leading zeros; for text, with blanks collapsed;
# within, HAVE is a CPU list every CPU of which WANT's list holds.
#
# tune.sh runs at boot and on every hotplug, often under BusyBox on a
# slow core, where starting a process costs more than the rest of a
# value's work. So same, cpu_at and mask_list work in the shell itself
# on what the kernel prints and boardc writes (decimal CPU numbers,
# lowercase hex), and hand anything else to their awk programs, which
# define them.
same() {
	[ "$2" != "$3" ] || return 0
	case $1 in
	text)
		text_norm "$2"
		cs_want=$cs_out
		text_norm "$3"
		[ "$cs_want" = "$cs_out" ]
		return
		;;
	mask)
		if mask_norm "$2" && cs_want=$cs_out && mask_norm "$3"; then
			[ "$cs_want" = "$cs_out" ]
			return
		fi
		;;
	list)
		if list_norm "$2" && cs_want=$cs_out && list_norm "$3"; then
			[ "$cs_want" = "$cs_out" ]
			return
		fi
		;;
	within)
		if list_within "$2" "$3"; then
			[ "$cs_in" = 1 ]
			return
		fi
		;;
	esac
	BOARDC_WANT=$2 BOARDC_HAVE=$3 awk -v kind="$1" '@same.awk@'
}

# text_norm TEXT sets cs_out to TEXT with every run of blanks (spaces,
# tabs, newlines) made one space and none at either end.
text_norm() {
	set -f
	# shellcheck disable=SC2086 # split on blanks, on purpose
	set -- $1
	set +f
	cs_out="$*"
}

# mask_norm MASK sets cs_out to the hex MASK without commas and leading
# zeros ("0" for none); it fails, leaving MASK to awk, unless MASK is
# lowercase hex digits and commas.
mask_norm() {
	cs_out=$1
	case $cs_out in
	'' | *[!0123456789abcdef,]*) return 1 ;;
	esac
	while :; do
		case $cs_out in
		*,*) cs_out=${cs_out%%,*}${cs_out#*,} ;;
		*) break ;;
		esac
	done
	cs_out=${cs_out#"${cs_out%%[!0]*}"}
	[ -n "$cs_out" ] || cs_out=0
}

# cpu_num N succeeds when N is a CPU number as the kernel prints one:
# decimal, no sign, no leading zero (the shell would read it as octal),
# at most six digits.
cpu_num() {
	case $1 in
	0) return 0 ;;
	'' | 0* | *[!0123456789]* | ???????*) return 1 ;;
	esac
}

# list_ranges LIST sets cs_ranges to the ranges of the CPU list LIST
# ("0-3,5"), blank-separated as FIRST-LAST, in ascending order of their
# first CPU; it fails, leaving LIST to awk, unless each comma-separated
# part is a CPU number or a range of two, the first not above the last.
list_ranges() {
	cs_ranges=
	cs_rest=$1,
	while [ -n "$cs_rest" ]; do
		cs_part=${cs_rest%%,*}
		cs_rest=${cs_rest#*,}
		case $cs_part in
		*-*)
			cs_first=${cs_part%%-*}
			cs_last=${cs_part#*-}
			;;
		*)
			cs_first=$cs_part
			cs_last=$cs_part
			;;
		esac
		cpu_num "$cs_first" && cpu_num "$cs_last" && [ "$cs_first" -le "$cs_last" ] || return 1
		# Insert in order: a list has a few parts.
		cs_sorted=
		cs_put=0
		for cs_r in $cs_ranges; do
			if [ "$cs_put" = 0 ] && [ "$cs_first" -lt "${cs_r%-*}" ]; then
				cs_sorted="$cs_sorted $cs_first-$cs_last"
				cs_put=1
			fi
			cs_sorted="$cs_sorted $cs_r"
		done
		[ "$cs_put" = 1 ] || cs_sorted="$cs_sorted $cs_first-$cs_last"
		cs_ranges=$cs_sorted
	done
}

# list_norm LIST sets cs_out to the CPU list LIST in the kernel's
# canonical form, ascending, overlapping and adjacent ranges joined
# ("3,0-1,2" is "0-3"), and cs_ranges to its ranges as FIRST-LAST; it
# fails where list_ranges does.
list_norm() {
	list_ranges "$1" || return 1
	cs_out=
	cs_merged=
	cs_first=
	for cs_r in $cs_ranges; do
		if [ -n "$cs_first" ] && [ "${cs_r%-*}" -le $((cs_last + 1)) ]; then
			[ "${cs_r#*-}" -le "$cs_last" ] || cs_last=${cs_r#*-}
			continue
		fi
		[ -z "$cs_first" ] || list_add
		cs_first=${cs_r%-*}
		cs_last=${cs_r#*-}
	done
	[ -z "$cs_first" ] || list_add
	cs_ranges=$cs_merged
}

# list_add appends the range cs_first-cs_last to list_norm's results.
list_add() {
	cs_merged="$cs_merged $cs_first-$cs_last"
	if [ "$cs_first" = "$cs_last" ]; then
		cs_out=$cs_out${cs_out:+,}$cs_first
	else
		cs_out=$cs_out${cs_out:+,}$cs_first-$cs_last
	fi
}

# list_within LIST SUB sets cs_in to 1 when the CPU list LIST holds every
# CPU of the CPU list SUB, else 0; it fails where list_ranges does, on
# either.
list_within() {
	list_norm "$1" || return 1
	cs_have=$cs_ranges
	list_ranges "$2" || return 1
	cs_in=1
	for cs_r in $cs_ranges; do
		cs_in=0
		# LIST's ranges are joined: one of them holds all of cs_r or
		# none does.
		for cs_h in $cs_have; do
			if [ "${cs_h%-*}" -le "${cs_r%-*}" ] && [ "${cs_r#*-}" -le "${cs_h#*-}" ]; then
				cs_in=1
				break
			fi
		done
		[ "$cs_in" = 1 ] || return 0
	done
}

# cpu_at LIST K sets cpu to the CPU at index K of the comma-separated
# LIST, starting over at its first CPU past its end.
cpu_at() {
	cs_rest=$1,
	cs_n=0
	while [ -n "$cs_rest" ]; do
		cs_n=$((cs_n + 1))
		cs_rest=${cs_rest#*,}
	done
	cs_k=$(($2 % cs_n))
	cs_rest=$1,
	while [ "$cs_k" -gt 0 ]; do
		cs_rest=${cs_rest#*,}
		cs_k=$((cs_k - 1))
	done
	cpu=${cs_rest%%,*}
}

# mask_list MASK sets cpus to the CPU list of a hex CPU mask as the kernel
# prints one, ranges joined ("00000000,00000008" is "3", "f" is "0-3"),
# empty for an empty or zero mask.
mask_list() {
	cpus=
	[ -n "$1" ] || return 0
	if ! mask_norm "$1"; then
		cpus=$(awk -v m="$1" '@mask-list.awk@')
		return 0
	fi
	cs_bit=0
	cs_first=
	while [ -n "$cs_out" ]; do
		cs_digit=$((0x${cs_out#"${cs_out%?}"}))
		cs_out=${cs_out%?}
		for cs_b in 0 1 2 3; do
			if [ $((cs_digit >> cs_b & 1)) = 1 ]; then
				[ -n "$cs_first" ] || cs_first=$cs_bit
			elif [ -n "$cs_first" ]; then
				mask_run $((cs_bit - 1))
			fi
			cs_bit=$((cs_bit + 1))
		done
	done
	[ -z "$cs_first" ] || mask_run $((cs_bit - 1))
}

# mask_run LAST appends the CPUs cs_first to LAST to mask_list's cpus.
mask_run() {
	if [ "$cs_first" = "$1" ]; then
		cpus=$cpus${cpus:+,}$1
	else
		cpus=$cpus${cpus:+,}$cs_first-$1
	fi
	cs_first=
}
