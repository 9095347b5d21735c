#!/usr/bin/env bash
# bench/edtlib.sh: boardc build against Zephyr's edtlib and cue export on
# equivalent synthetic boards, as whole processes, CPU beside wall.
#
#   bench/edtlib.sh                      # N = 100 1000 5000, 5 rounds
#   RUNS=9 SIZES="100 1000" bench/edtlib.sh
#   EDTLIB_SRC=~/python-devicetree bench/edtlib.sh
#   BOARDC=/path/to/boardc bench/edtlib.sh
#
# Needs: python3 (or $PYTHON) with PyYAML (Debian: python3-yaml), and
# edtlib's source, a checkout of github.com/zephyrproject-rtos/python-devicetree
# (pure Python: src/devicetree/{dtlib,edtlib,grutils}.py). EDTLIB_SRC names the
# checkout; without it the script extracts HEAD of the git directory
# EDTLIB_GIT (default /work/.mirror/zephyrproject-rtos+python-devicetree/repo)
# into a temporary directory. It exits 2 when neither is there or PyYAML is
# missing. cue is optional: found or installed as bench/run.sh does
# (bench/cue-lib.sh); without it the export column is left out.
#
# For each N, bench/gen writes the CUE module (internal/synth) and, from the
# same parameters, the equivalent devicetree and YAML bindings (synth.DTS):
# the same buses, masters, IRQs, CPUs, dma-ranges and dma-coherent. Timed
# with bench/proc (each command once untimed, then RUNS rounds, the order
# rotating; CPU = user + system from getrusage; peak RSS):
#   boardc   boardc build -q -o OUT board   (evaluate with the schema,
#            validate, lower, check, emit every output, write)
#   export   cue export ./board --out json   (CUE's evaluation alone)
#   edtlib   python3 bench/edtlib_driver.py synth.dts bindings, its modules
#            compiled (.pyc) by the untimed run: edtlib.EDT
#            (parse the tree, match bindings, type the properties, regs,
#            interrupts, dependency order) and a read of every node's
#            values as Zephyr's gen_defines.py reads them; nothing written.
# Before timing, the driver checks that edtlib matched every master to its
# binding. Prints medians, ratios and the load average before and after,
# then, from one more run per size, how edtlib's CPU time splits between
# importing it, EDT() and the reads (edtlib_driver.py --phases).
set -euo pipefail

RUNS=${RUNS:-5}
SIZES=${SIZES:-"100 1000 5000"}

root=$(cd "$(dirname "$0")/.." && pwd)

# The interpreter itself, not a wrapper (a pyenv shim is a shell script
# that would be timed with it).
python=$(${PYTHON:-python3} -c 'import yaml, sys; print(sys.executable)' 2>/dev/null || true)
if [ -z "$python" ]; then
	echo "bench/edtlib.sh: needs ${PYTHON:-python3} with PyYAML (Debian: apt-get install python3-yaml)" >&2
	exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
edtgit=${EDTLIB_GIT:-/work/.mirror/zephyrproject-rtos+python-devicetree/repo}
src=${EDTLIB_SRC:-}
if [ -z "$src" ]; then
	if ! git -C "$edtgit" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		echo "bench/edtlib.sh: no edtlib source: set EDTLIB_SRC to a checkout of" \
			"github.com/zephyrproject-rtos/python-devicetree (or EDTLIB_GIT to its git directory)" >&2
		exit 2
	fi
	src=$work/edtlib
	mkdir -p "$src"
	git -C "$edtgit" archive HEAD | tar -x -C "$src"
	sync=$(git -C "$edtgit" log -1 --format=%s --grep='Synchronize with zephyr commit' HEAD | awk '{print $NF}')
	edtrev="python-devicetree $(git -C "$edtgit" rev-parse --short=10 HEAD), zephyr ${sync:-?}"
else
	edtrev="python-devicetree at $src"
fi
if [ ! -f "$src/src/devicetree/edtlib.py" ]; then
	echo "bench/edtlib.sh: no src/devicetree/edtlib.py in $src" >&2
	exit 2
fi
edtver=$(sed -n "s/^ *version *= *'\(.*\)'.*/\1/p" "$src/setup.py" 2>/dev/null | head -n 1 || true)

# shellcheck source=bench/cue-lib.sh
. "$root/bench/cue-lib.sh"
cue=$(OPTIONAL=1 find_cue)
export CUE_REGISTRY=none

(cd "$root" && go build -o "$work/gen" ./bench/gen && go build -o "$work/proc" ./bench/proc)
if [ -n "${BOARDC:-}" ]; then
	cp "$BOARDC" "$work/boardc"
else
	(cd "$root" && go build -o "$work/boardc" ./cmd/boardc)
fi
# edtlib's modules are compiled (.pyc, in its source tree) by the untimed
# run, as a build that has run once has them.
unset PYTHONDONTWRITEBYTECODE
driver="PYTHONPATH=$src/src $python $root/bench/edtlib_driver.py"

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
echo "boardc $(cd "$root" && git describe --always --dirty 2>/dev/null || echo '?'), edtlib ${edtver:-?} ($edtrev), $("$python" -c 'import sys, yaml; print(sys.executable, sys.version.split()[0] + ", PyYAML", yaml.__version__, "libyaml" if yaml.__with_libyaml__ else "pure")'), ${cue:+$("$cue" version | head -n 1), }$(go version | cut -d' ' -f3)"
echo "runs sequential, $RUNS rounds, medians; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

for n in $SIZES; do
	mod=$work/n$n
	"$work/gen" -n "$n" -o "$mod" -dts "$mod.dt" >/dev/null
	read -r nodes masters _ < <(env PYTHONPATH="$src/src" "$python" "$root/bench/edtlib_driver.py" "$mod.dt/synth.dts" "$mod.dt/bindings")
	if [ "$masters" != "$n" ]; then
		echo "bench/edtlib.sh: edtlib found $masters masters in the tree of $n" >&2
		exit 1
	fi
	echo "N=$n: $(wc -l <"$mod/soc/synth/synth.cue") + $(wc -l <"$mod/board/board.cue") lines of CUE; $(wc -l <"$mod.dt/synth.dts") lines of DTS, $nodes nodes in edtlib"
	variants=("boardc=$work/boardc build -q -o $work/out$n board" "edtlib=$driver $mod.dt/synth.dts $mod.dt/bindings")
	[ -z "$cue" ] || variants+=("export=$cue export ./board --out json")
	(cd "$mod" && "$work/proc" -runs "$RUNS" -name "n$n" -o "$work/res/n$n" "${variants[@]}")
done
echo

# med FILE FIELD: the median of a field of bench/proc's lines
# (BenchmarkProc/NAME 1 WALL ns/op CPU cpu-ns/op RSS peak-RSS-B).
med() {
	[ -f "$1" ] || { echo nan; return; }
	awk -v f="$2" '{ print $f }' "$1" | sort -g | awk '{ a[NR] = $1 } END {
		if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
printf '%6s | %21s | %21s | %21s | %17s | %17s\n' "" "boardc" "edtlib" "cue export" "boardc/edtlib" "boardc/export"
printf '%6s | %6s %6s %7s | %6s %6s %7s | %6s %6s %7s | %8s %8s | %8s %8s\n' N wall_s cpu_s rss_MB wall_s cpu_s rss_MB wall_s cpu_s rss_MB cpu wall cpu wall
for n in $SIZES; do
	r=$work/res/n$n
	awk -v n="$n" \
		-v bw="$(med "$r/boardc.txt" 3)" -v bc="$(med "$r/boardc.txt" 5)" -v br="$(med "$r/boardc.txt" 7)" \
		-v dw="$(med "$r/edtlib.txt" 3)" -v dc="$(med "$r/edtlib.txt" 5)" -v dr="$(med "$r/edtlib.txt" 7)" \
		-v ew="$(med "$r/export.txt" 3)" -v ec="$(med "$r/export.txt" 5)" -v er="$(med "$r/export.txt" 7)" 'BEGIN {
		printf "%6d | %6.3f %6.3f %7.1f | %6.3f %6.3f %7.1f | ", n, bw / 1e9, bc / 1e9, br / 1048576, dw / 1e9, dc / 1e9, dr / 1048576
		if (ew == "nan") printf "%6s %6s %7s | %8.2f %8.2f | %8s %8s\n", "-", "-", "-", bc / dc, bw / dw, "-", "-"
		else printf "%6.3f %6.3f %7.1f | %8.2f %8.2f | %8.2f %8.2f\n", ew / 1e9, ec / 1e9, er / 1048576, bc / dc, bw / dw, bc / ec, bw / ew }'
done
echo
echo "edtlib CPU time by phase, one run (the rest of the process's time is the interpreter's start):"
for n in $SIZES; do
	printf '%6d  %s\n' "$n" "$(env PYTHONPATH="$src/src" "$python" "$root/bench/edtlib_driver.py" --phases "$work/n$n.dt/synth.dts" "$work/n$n.dt/bindings" 2>&1 >/dev/null)"
done
echo
echo "load average (bench/proc, per size):"
sed 's/^/  /' "$work"/res/n*/loadavg.txt
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
