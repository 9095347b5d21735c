#!/usr/bin/env bash
# bench/run.sh: time `boardc build` of synthetic boards against `cue` on the
# same files, as whole processes, and print medians, ratios and peak RSS.
#
#   bench/run.sh                 # N = 100 1000 1250 5000, 5 rounds
#   RUNS=9 SIZES="100 5000" bench/run.sh
#   BOARDC=/path/to/boardc bench/run.sh   # time another boardc binary
#   BASE=/path/to/old/boardc bench/run.sh  # and an older one in the same rounds
#
# For each N, bench/gen writes a CUE module (soc package + board package).
# Timed, one process at a time (runs are sequential, never in parallel):
#   boardc    boardc build -o OUT board            (load, unify with the
#             schema, validate, lower, check, emit, write)
#   export    cue export ./board --out json        (evaluation alone, no schema)
#   cue       export, then cue vet -c -d '#Board' schema.cue board.json, the
#             schema printed by `boardc schema`: the check that README gives
#             for cue alone; its time is the sum of both processes and its
#             RSS the larger one. boardc/cue compares against this pair.
#   vet1      cue vet -c ./board in a copy of the module whose board package
#             holds `boardc schema --package board`: the schema evaluated
#             in the package, once, in one process (boardc evaluates the
#             description, then unifies it with #Board). boardc/vet1 is
#             what boardc adds to that (the second evaluation, lowering,
#             checks, emitting, writing; its own top-level field check).
#   base      BASE build -o OUT board, when BASE names another boardc
#             binary: timed in the same rounds, and compared with boardc
#             in a second table (CPU, peak RSS).
# Each command runs once untimed first (page cache, cue's module cache).
# The timed runs go in rounds: each round runs every command on every size
# once, so that the machine's drift during the run is shared by all columns
# and the ratios compare runs made close together.
# bench/proc -once runs each command and reports its wall time, its peak
# RSS and its CPU time, user + system, to the microsecond (getrusage),
# which a busy machine disturbs less than the wall time. The scaling ratio
# is t(5000)/t(1250) when both sizes run.
set -euo pipefail

RUNS=${RUNS:-5}
SIZES=${SIZES:-"100 1000 1250 5000"}

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=bench/cue-lib.sh
. "$root/bench/cue-lib.sh"
cue=$(find_cue)
export CUE_REGISTRY=none

(cd "$root" && go build -o "$work/gen" ./bench/gen && go build -o "$work/proc" ./bench/proc)
if [ -n "${BOARDC:-}" ]; then
	cp "$BOARDC" "$work/boardc"
else
	(cd "$root" && go build -o "$work/boardc" ./cmd/boardc)
fi
"$work/boardc" schema >"$work/schema.cue"
if [ -n "${BASE:-}" ]; then
	cp "$BASE" "$work/base"
fi

# timed FILE CMD...: one timed run of CMD; appends "wall_us rss_kb cpu_s"
# to FILE, cpu_s the process's user + system time.
timed() {
	local file=$1
	shift
	"$work/proc" -once "$@" >>"$file"
}

# median FILE COLUMN
median() {
	sort -n -k "$2" "$1" | awk -v c="$2" '{v[NR] = $c} END {
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The pair: export, then vet of its output, timed as one run: the sum of
# the times, the larger RSS.
cue_pair() {
	local file=$1
	{
		"$work/proc" -once -stdout "$work/board.json" "$cue" export ./board --out json
		"$work/proc" -once "$cue" vet -c -d '#Board' "$work/schema.cue" "$work/board.json"
	} | awk '{ w += $1; if ($2 > r) r = $2; c += $3 } END { print w, r, c }' >>"$file"
}

# round N FILE-SUFFIX: each command once on the module of size N.
round() {
	local n=$1 sfx=$2 mod="$work/n$1"
	(cd "$mod" && timed "$work/t.boardc.$n$sfx" "$work/boardc" build -q -o "$work/out" board)
	if [ -n "${BASE:-}" ]; then
		(cd "$mod" && timed "$work/t.base.$n$sfx" "$work/base" build -q -o "$work/out.base" board)
	fi
	(cd "$mod" && timed "$work/t.export.$n$sfx" "$cue" export ./board --out json)
	(cd "$mod.vet1" && timed "$work/t.vet1.$n$sfx" "$cue" vet -c ./board)
	(cd "$mod" && cue_pair "$work/t.cue.$n$sfx")
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
echo "boardc $(cd "$root" && git describe --always --dirty 2>/dev/null || echo '?'), $("$cue" version | head -n 1), $(go version | cut -d' ' -f3), GOMAXPROCS default, runs sequential, $RUNS rounds, medians"
echo
printf '%6s  %10s %8s  %10s %8s  %10s %8s  %10s %8s  %10s %13s %11s  %10s %10s %17s\n' N boardc_s rss_MB cue_s rss_MB export_s rss_MB vet1_s rss_MB boardc/cue boardc/export boardc/vet1 boardc_cpu export_cpu boardc/export_cpu
declare -A tb tc te
for n in $SIZES; do
	mod="$work/n$n"
	"$work/gen" -n "$n" -o "$mod" >/dev/null
	rm -rf "$mod.vet1" && cp -r "$mod" "$mod.vet1"
	"$work/boardc" schema --package board >"$mod.vet1/board/zz_boardc.cue"
	round "$n" .warm # untimed: page cache, cue's module cache
done
# Rounds: every size and command once per round, so that a change in the
# machine's speed during the run falls on all of them alike.
for ((i = 0; i < RUNS; i++)); do
	for n in $SIZES; do
		round "$n" ""
	done
done
for n in $SIZES; do
	t=$work/t
	b=$(median "$t.boardc.$n" 1) c=$(median "$t.cue.$n" 1) e=$(median "$t.export.$n" 1) v=$(median "$t.vet1.$n" 1)
	tb[$n]=$b tc[$n]=$c te[$n]=$e
	awk -v n="$n" -v b="$b" -v c="$c" -v e="$e" -v v="$v" \
		-v br="$(median "$t.boardc.$n" 2)" -v cr="$(median "$t.cue.$n" 2)" -v er="$(median "$t.export.$n" 2)" \
		-v vr="$(median "$t.vet1.$n" 2)" -v bc="$(median "$t.boardc.$n" 3)" -v ec="$(median "$t.export.$n" 3)" 'BEGIN {
		printf "%6d  %10.3f %8.1f  %10.3f %8.1f  %10.3f %8.1f  %10.3f %8.1f  %10.2f %13.2f %11.2f  %10.4f %10.4f %17.2f\n",
			n, b / 1e6, br / 1024, c / 1e6, cr / 1024, e / 1e6, er / 1024, v / 1e6, vr / 1024, b / c, b / e, b / v, bc, ec, bc / ec }'
done
if [ -n "${BASE:-}" ]; then
	echo
	echo "base: $BASE, in the same rounds"
	printf '%6s  %10s %10s %12s  %10s %10s %10s\n' N base_cpu boardc_cpu boardc/base base_MB boardc_MB export_cpu
	for n in $SIZES; do
		t=$work/t
		awk -v n="$n" -v bc="$(median "$t.base.$n" 3)" -v nc="$(median "$t.boardc.$n" 3)" \
			-v br="$(median "$t.base.$n" 2)" -v nr="$(median "$t.boardc.$n" 2)" -v ec="$(median "$t.export.$n" 3)" 'BEGIN {
			printf "%6d  %10.4f %10.4f %12.2f  %10.1f %10.1f %10.4f\n", n, bc, nc, nc / bc, br / 1024, nr / 1024, ec }'
	done
fi
echo
for pair in "5000 1250" "4000 1000"; do
	read -r hi lo <<<"$pair"
	if [ -n "${tb[$hi]:-}" ] && [ -n "${tb[$lo]:-}" ]; then
		awk -v a="$hi" -v b="$lo" -v tb1="${tb[$hi]}" -v tb2="${tb[$lo]}" -v tc1="${tc[$hi]}" -v tc2="${tc[$lo]}" \
			-v te1="${te[$hi]}" -v te2="${te[$lo]}" 'BEGIN {
			printf "scaling t(%d)/t(%d): boardc %.2f, cue %.2f, export %.2f\n", a, b, tb1 / tb2, tc1 / tc2, te1 / te2 }'
	fi
done
