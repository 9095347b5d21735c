#!/usr/bin/env bash
# bench/bsp.sh: a BSP, many boards on one SoC: every freescale/imx8mp-*
# board of the upstream arm64 corpus (../shared/corpus, or
# $BOARDC_SHARED/corpus) imported onto one SoC package, then built with
# boardc in one call, against one board (imx8mp-evk) alone.
#
#   bench/bsp.sh                  # RUNS=5 rounds, medians of CPU time
#   FAMILY=imx8mm RUNS=9 bench/bsp.sh
#   FILL=board bench/bsp.sh       # DMA widths filled in every board
#   BOARDC=/path/to/boardc bench/bsp.sh
#
# The first board (FAMILY-evk) is imported with its SoC; every other
# board with --soc, as a vendor adds boards to an SoC package. Drafts are
# filled with what internal/conform fills them with: the 32-bit DMA widths
# once, in the SoC package, where a vendor states a master's width (and
# where import writes the widths it knows); 1 GiB of RAM in each board
# whose tree has none. FILL=board fills the widths in every board instead,
# as internal/conform does with a module per board: a board that sets a
# pattern over its SoC's masters is evaluated whole, SoC included
# (boardc.Compiler.Prepare). Boards that do not compile (8 imx8mp-skov
# need a dtc newer than 1.6.1) are left out. Timed with bench/proc, CPU = user
# + system, medians over the rounds; the load average is printed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
shared=${BOARDC_SHARED:-$root/../shared}
tarball=$shared/corpus/linux-v7.1-dts-arm64.tar.gz
family=${FAMILY:-imx8mp}
runs=${RUNS:-5}
[ -f "$tarball" ] || { echo "bench/bsp.sh: no $tarball (set BOARDC_SHARED)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
boardc=${BOARDC:-}
if [ -z "$boardc" ]; then
	boardc=$work/boardc
	(cd "$root" && go build -o "$boardc" ./cmd/boardc)
fi

mkdir -p "$work/src" "$work/dtb" "$work/mod"
tar -xzf "$tarball" -C "$work/src"
cd "$work/src"
# shellcheck source=bench/corpus-lib.sh
. "$root/bench/corpus-lib.sh"
for dts in src/arm64/freescale/"$family"-*.dts; do
	b=$(basename "$dts" .dts)
	compile_dts "$dts" "$work/dtb/$b.dtb" || true
done
first=$work/dtb/$family-evk.dtb
[ -f "$first" ] || { echo "bench/bsp.sh: no $family-evk board to import the SoC from" >&2; exit 2; }
"$boardc" import -o "$work/mod" "$first" >/dev/null 2>&1
soc=$(ls "$work/mod/soc")
for d in "$work"/dtb/*.dtb; do
	[ "$d" = "$first" ] || "$boardc" import -o "$work/mod" --soc "$soc" "$d" >/dev/null 2>&1 || true
done
if [ "${FILL:-soc}" = soc ]; then
	pkg=$(sed -n 's/^package //p' "$work/mod/soc/$soc"/*.cue | head -n 1)
	printf 'package %s\n\nsoc: masters: [_]: M={if M.bridge == _|_ {dma: streaming: *32 | int}}\n' "$pkg" >"$work/mod/soc/$soc/fill.cue"
fi
boards=()
for dir in "$work"/mod/"$family"-*/; do
	fill_board "$dir"
	if [ "${FILL:-soc}" = soc ]; then
		sed -i '/^soc: masters: \[_\]/d' "$dir/fill.cue"
	fi
	"$boardc" vet "$dir" >/dev/null 2>&1 && boards+=("${dir%/}")
done
one=$work/mod/$family-evk
echo "bsp: ${#boards[@]} $family boards that vet on SoC $soc; load average $(cut -d' ' -f1-3 /proc/loadavg)"
# bench/proc alternates the two commands and reads each process's CPU time
# from getrusage in microseconds (GNU time's 10 ms would round one board
# away).
(cd "$root" && go build -o "$work/proc" ./bench/proc)
"$work/proc" -runs "$runs" -name bsp -o "$work/res" \
	one="$boardc build -q -o $work/out1 $one" \
	all="$boardc build -q -o $work/outN ${boards[*]}" >/dev/null 2>&1
# A line of bench/proc: BenchmarkProc/NAME 1 WALL ns/op CPU cpu-ns/op RSS peak-RSS-B.
median() { awk '{ print $5 / 1e9 }' "$1" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
o=$(median "$work/res/one.txt") a=$(median "$work/res/all.txt")
awk -v o="$o" -v a="$a" -v n="${#boards[@]}" 'BEGIN {
	printf "one board: %.4f s CPU\nall %d in one call: %.3f s CPU, %.1f times one board, %.1f ms per added board\n", o, n, a, a / o, (a - o) * 1000 / (n - 1) }'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
