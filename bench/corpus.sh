#!/usr/bin/env bash
# bench/corpus.sh: build every board of the upstream arm64 corpus
# (../shared/corpus, or $BOARDC_SHARED/corpus) with boardc, in one call
# and in one process per board, and print the CPU time of each.
#
#   bench/corpus.sh                # every board the corpus compiles
#   LIMIT=200 bench/corpus.sh      # the first 200 boards, in path order
#   BOARDC=/path/to/boardc bench/corpus.sh
#   KERNEL_DIR=$TMPDIR/boardc-corpus/linux-source-6.12-... bench/corpus.sh
#                                  # with arch/arm, arch/riscv and dtc from
#                                  # the kernel sources (bench/corpus-lib.sh)
#
# Each board is compiled as kbuild does (cpp, then dtc -@), imported into
# a CUE module of its own (boardc import), and filled as internal/conform
# fills a draft (32-bit DMA widths where import left a TODO, 1 GiB of RAM
# where the tree has none), untimed. Then, timed with GNU time (CPU =
# user + system; the load average is printed before and after):
#   one call      boardc build -o OUT BOARD... with every board
#   per board     one boardc build process per board, one after another
# Boards that do not compile (without KERNEL_DIR, those that include
# src/arm, which the corpus does not hold) or do not import are counted and
# left out of both.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
shared=${BOARDC_SHARED:-$root/../shared}
tarball=$shared/corpus/linux-v7.1-dts-arm64.tar.gz
[ -f "$tarball" ] || { echo "bench/corpus.sh: no $tarball (set BOARDC_SHARED)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/corpus.sh: needs GNU time (apt-get install time)" >&2; exit 2; }
work=${BENCH_WORK:-$(mktemp -d)}
[ -n "${BENCH_WORK:-}" ] || trap 'rm -rf "$work"' EXIT

boardc=${BOARDC:-}
if [ -z "$boardc" ]; then
	boardc=$work/boardc
	(cd "$root" && go build -o "$boardc" ./cmd/boardc)
fi

rm -rf "$work/src" "$work/dtb" "$work/mods" "$work/out-one" "$work/out-per"
mkdir -p "$work/src" "$work/dtb" "$work/mods"
tar -xzf "$tarball" -C "$work/src"
cd "$work/src"
# shellcheck source=bench/corpus-lib.sh
. "$root/bench/corpus-lib.sh"
mapfile -t all < <(find src/arm64 -name '*.dts' | sort)
[ -z "${LIMIT:-}" ] || all=("${all[@]:0:$LIMIT}")

nocompile=0 noimport=0
boards=()
for dts in "${all[@]}"; do
	b=$(basename "$dts" .dts) v=$(basename "$(dirname "$dts")")
	id=$v-$b
	if ! compile_dts "$dts" "$work/dtb/$id.dtb"; then
		nocompile=$((nocompile + 1))
		continue
	fi
	if ! "$boardc" import -o "$work/mods/$id" "$work/dtb/$id.dtb" >/dev/null 2>&1; then
		noimport=$((noimport + 1))
		continue
	fi
	dir=$(dirname "$(find "$work/mods/$id" -name board.cue -not -path '*/soc/*' | head -n 1)")
	fill_board "$dir"
	boards+=("$dir")
done
echo "corpus: ${#all[@]} boards, $nocompile do not compile, $noimport do not import, ${#boards[@]} built"

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f '%e %U %S %M' -o "$work/one.time" "$boardc" build -o "$work/out-one" "${boards[@]}" >/dev/null 2>&1 || true
# cpu FILE NAME prints the GNU time record FILE as NAME's line.
cpu() {
	awk -v name="$2" -v n="${#boards[@]}" '{ c = $2 + $3
		printf "%s wall %.2f s, CPU %.2f s (%.1f ms per board), peak RSS %d MB\n", name, $1, c, c * 1000 / n, $4 / 1024 }' "$1"
}
cpu "$work/one.time" "one call: "
echo "  built: $(find "$work/out-one" -name manifest.json | wc -l) of ${#boards[@]} (the others have errors)"
printf '%s\n' "${boards[@]}" >"$work/boards.txt"
/usr/bin/time -f '%e %U %S %M' -o "$work/per.time" \
	xargs -n 1 "$boardc" build -o "$work/out-per" <"$work/boards.txt" >/dev/null 2>&1 || true
cpu "$work/per.time" "per board:"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
