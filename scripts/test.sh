#!/usr/bin/env bash
# Runs boardc's whole test suite with every system tool the tests use,
# installing the missing ones with apt-get first. Missing tools fail the
# suite here (BOARDC_REQUIRE_TOOLS=1) instead of skipping tests.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v dtc >/dev/null && command -v fdtoverlay >/dev/null || need+=(device-tree-compiler)
command -v shellcheck >/dev/null || need+=(shellcheck)
# dt-validate, the fragments against the v7.1 bindings (docs/dt-validate.md)
command -v dt-validate >/dev/null && command -v dt-mk-schema >/dev/null || need+=(dt-schema)
ls /usr/src/linux-headers-*-amd64/Makefile >/dev/null 2>&1 || need+=(linux-headers-amd64)
command -v ip >/dev/null || need+=(iproute2)
command -v systemd-analyze >/dev/null || need+=(systemd)
command -v busybox >/dev/null || need+=(busybox)
command -v jq >/dev/null || need+=(jq)
command -v python3 >/dev/null || need+=(python3)
command -v unshare >/dev/null || need+=(util-linux)
command -v make >/dev/null || need+=(make)
# the corpus builds the dtc of the kernel sources (internal/conform OpenKernel)
command -v flex >/dev/null || need+=(flex)
command -v bison >/dev/null || need+=(bison)
command -v xz >/dev/null || need+=(xz-utils)
command -v aarch64-linux-gnu-gcc >/dev/null || need+=(gcc-aarch64-linux-gnu)
command -v gcc >/dev/null && command -v cpp >/dev/null || need+=(gcc cpp)
command -v chromium >/dev/null || need+=(chromium fonts-dejavu-core)
# The kernel sources the driver-facts catalogues are regenerated from
# (internal/kextract's TestCataloguesRegenerate, docs/kernel-facts.md):
# the version each catalogue records, while Debian's archive still has
# it; else the current one, and the test then names both sources.
sources=()
for s in 6.1 6.12; do
	[ -f "/usr/src/linux-source-$s.tar.xz" ] && continue
	v=$(sed -n 's/^ *"package": "linux-source-[0-9.]* \(.*\)",$/\1/p' "compiler/kernel/data/linux-$s.json")
	sources+=("linux-source-$s${v:+=$v}")
done
if [ ${#need[@]} -gt 0 ]; then
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	echo "installing: ${need[*]}" >&2
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
if [ ${#sources[@]} -gt 0 ]; then
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	[ ${#need[@]} -gt 0 ] || $sudo apt-get update -qq
	for p in "${sources[@]}"; do
		echo "installing: $p" >&2
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$p" >/dev/null ||
			DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${p%%=*}" >/dev/null
	done
fi

export BOARDC_REQUIRE_TOOLS=1
# The shared reference device trees (../shared/upstream-dts, or
# $BOARDC_SHARED/upstream-dts) are no package apt can install: where they
# are, the tests that read them must run; where not, say which are skipped.
shared=${BOARDC_SHARED:-../shared}
if [ -d "$shared/upstream-dts" ]; then
	export BOARDC_REQUIRE_SHARED=1
else
	echo "NOTICE: no $shared/upstream-dts (set BOARDC_SHARED): TestUpstream, TestBaseTree, TestGroundTruth, TestTopology, TestPropSource, TestRoundTrip, TestBuildrootDTSCompiles, TestCorpus, TestEIP97 and TestPrecision are skipped" >&2
fi
# go test ./... below runs internal/conform's TestCorpus over its fixed
# sample of the upstream arm64 corpus ($shared/corpus): one board per
# vendor and SoC family, 332 of 1,524, about 45 s. Every board takes
# about 7 minutes on 2 cores, which would take the suite past 15
# minutes: scripts/corpus.sh runs them all and rewrites CORPUS.md.
export BOARDC_CORPUS=sample
if git rev-parse --git-dir >/dev/null 2>&1; then
	unformatted=$(git ls-files -z '*.go' | xargs -0 gofmt -l)
else
	unformatted=$(find . -name '*.go' -print0 | xargs -0 gofmt -l)
fi
if [ -n "$unformatted" ]; then
	echo "gofmt would change: $unformatted" >&2
	exit 1
fi
# cmd/boardc-layout is a module of its own (it holds the Graphviz
# engine, which boardc's module does not require): ./... does not reach
# it, so it is vetted, checked and tested on its own.
layout=cmd/boardc-layout
go vet ./...
go -C "$layout" vet ./...
# The project's own shell scripts, the target test's guest side included.
shellcheck -x .ci/run scripts/*.sh scripts/target/arm64-headers.sh bench/*.sh
shellcheck -x -s sh scripts/target/checks.sh scripts/target/checks/*.sh
shellcheck -s sh scripts/target/init
shellcheck scripts/target-systemd/*.sh
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
go run -C "$layout" honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
# Debian's arm64 headers of Linux 6.1 and 6.12, which outputs/c builds
# the verifiers against (TestKbuildVerifierArm64).
./scripts/target/arm64-headers.sh 6.1 6.12 >/dev/null
go test -count=1 ./...
go test -C "$layout" -count=1 ./...
# The emitters run side by side: a large synthetic board, small ones and
# the in-tree boards under the race detector; and the workers of one
# build, which share each SoC lowered once, on a BSP.
go test -race -count=1 -run '^(TestCompiles|TestGolden|TestParallelBSPMatchesSequential)$' ./internal/synth/ ./boards/ ./cmd/boardc/
# Budgets are counts, not durations. A duration races Go's fuzzing
# coordinator at its deadline: on a loaded machine a worker still busy
# when it passes fails the run with a bare "context deadline exceeded"
# and no input (go.dev/issue/75804, fixed in Go 1.27). A count has no
# deadline; load only makes it slower. Minimizing a new input is bounded
# by a count too, which keeps the budget for exploring; about 20 s and
# 17 s here on 2 idle cores.
go test -run '^$' -fuzz '^FuzzLoad$' -fuzztime 20000x -fuzzminimizetime 100x .
# Import over arbitrary .dtb bytes: no panic, bounded memory, CUE out.
go test -run '^$' -fuzz '^FuzzImport$' -fuzztime 20000x -fuzzminimizetime 100x ./compiler/draft/
# The outputs of boards/qemu-virt on Debian's arm64 kernel under QEMU,
# with its negative controls, and beside them the dma-ranges case
# (testdata/cases/qemu-virt-ranges: a bus DMA limit proven in the guest);
# it installs and caches what it needs. On
# Linux 6.12 it is one command away (BOARDC_TARGET_SERIES=6.12), out of
# the suite for its time (docs/target-test.md).
./scripts/target-test.sh
# The same outputs under Debian's systemd, udev and irqbalance
# (docs/target-systemd.md) on Linux 6.12, so that the suite boots each
# kernel once; the control boot, which shows each check can fail, runs
# beside it. The 6.1 guest is one command away
# (./scripts/target-systemd.sh), out of the suite for its two minutes.
BOARDC_TARGET_SERIES=6.12 ./scripts/target-systemd.sh
