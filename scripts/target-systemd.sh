#!/usr/bin/env bash
# The systemd target test: proves a board's runtime outputs under real
# systemd, udev and irqbalance.
#
#   scripts/target-systemd.sh [BOARD]       (default boards/qemu-virt)
#   BOARDC_TARGET_SERIES=6.12 scripts/target-systemd.sh
#   BOARDC_TARGET_CONTROL=0 scripts/target-systemd.sh   (no control boot)
#
# scripts/target-test.sh boots BusyBox init, so the generated systemd
# units, the udev rule and the irqbalance drop-in never run there. This
# test boots Debian bookworm's arm64 user space (systemd as PID 1, udev,
# irqbalance; scripts/target-systemd/rootfs.sh builds it from Debian's
# packages) with Debian's arm64 kernel of a series (BOARDC_TARGET_SERIES,
# 6.1 by default, or 6.12, as scripts/target-test.sh) under QEMU's virt
# machine, as an initramfs: the cached root file system, the kernel's
# modules, then an archive of the board's
# outputs installed where their headers say, and the guest's checks
# (scripts/target-systemd/checks.sh, run by a oneshot unit after
# multi-user.target). The virt machine's 4-queue PCI NIC is renamed br-lan
# by a .link file; the virtio-mmio one keeps its kernel name. A second boot, the negative
# control, installs none of the generated units, rule or drop-in: every
# check must then fail.
#
# What it needs it installs with apt-get (as root): qemu-system-arm,
# cpio, iproute2, util-linux, kmod; the arm64 packages are fetched with
# apt-get (after dpkg --add-architecture arm64) and kept in
# BOARDC_TARGET_CACHE (default ~/.cache/boardc-target), keyed by their
# versions, with the kernel of scripts/target-test.sh. When something is
# missing and cannot be installed the test skips naming it, or fails
# under BOARDC_REQUIRE_TOOLS=1.
#
# Exit status: 0 passed (or skipped), 1 a check or a control failed.
set -euo pipefail
cd "$(dirname "$0")/.."
board=${1:-boards/qemu-virt}
series=${BOARDC_TARGET_SERIES:-6.1}
case $series in
6.1) meta=linux-image-arm64 ;; # bookworm's own kernel
6.12) meta=linux-image-6.12-arm64 ;;
*)
	echo "target-systemd: BOARDC_TARGET_SERIES=$series: the series are 6.1 and 6.12" >&2
	exit 2
	;;
esac
cache=${BOARDC_TARGET_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/boardc-target}
start=$(date +%s)

log() { printf 'target-systemd: %s\n' "$*" >&2; }
fail() {
	log "FAIL: $*"
	exit 1
}
skip() {
	if [ "${BOARDC_REQUIRE_TOOLS-}" = 1 ]; then
		fail "$* (BOARDC_REQUIRE_TOOLS=1)"
	fi
	log "skip: $*"
	exit 0
}
[ "$(id -u)" -eq 0 ] || skip "not root: the arm64 packages are fetched and the guest's tap made as root"

# apt runs apt-get with a TMPDIR its unprivileged steps (the _apt user)
# can write to.
apt() {
	local tmp=${TMPDIR:-/tmp}
	[ "$(stat -c %a "$tmp" 2>/dev/null)" = 1777 ] || tmp=/var/tmp
	TMPDIR=$tmp DEBIAN_FRONTEND=noninteractive apt-get "$@"
}
apt_updated=0
apt_update() {
	[ "$apt_updated" = 1 ] || apt -qq update
	apt_updated=1
}
need=()
want() { command -v "$1" >/dev/null || need+=("$2"); }
want qemu-system-aarch64 qemu-system-arm
want cpio cpio
want ip iproute2
want unshare util-linux
want depmod kmod
want dpkg-deb dpkg
if [ ${#need[@]} -gt 0 ]; then
	mapfile -t need < <(printf '%s\n' "${need[@]}" | sort -u)
	log "installing ${need[*]}"
	apt_update
	apt install -y -qq --no-install-recommends "${need[@]}" >/dev/null ||
		skip "cannot install ${need[*]}"
fi
unshare -n ip tuntap add dev tap0 mode tap multi_queue 2>/dev/null ||
	skip "cannot create a multi-queue tap in a network namespace (unshare -n, /dev/net/tun)"
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	dpkg --add-architecture arm64
	apt_updated=0
fi

# --- the kernel: scripts/target-test.sh's, or fetched the same way ----------
arm=$cache/arm64-$series
if [ -f "$arm/stamp" ]; then
	read -r ver _ <"$arm/stamp"
else
	apt_update
	img=$(apt-cache depends "$meta:arm64" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ :]*-arm64\)\(:arm64\)\{0,1\}$/\1/p' | head -n 1)
	[ -n "$img" ] || skip "apt knows no $meta:arm64"
	ver=${img#linux-image-}
	ver=${ver%-arm64}
	arm=$cache/systemd/kernel-$series
fi
kver=$ver-arm64
kernel=$arm/root/boot/vmlinuz-$kver
if [ ! -f "$kernel" ] || [ ! -d "$arm/root/lib/modules/$kver" ]; then
	rm -rf "$arm"
	mkdir -p "$arm/deb"
	chmod 777 "$arm/deb"
	log "downloading linux-image-$kver-unsigned (arm64)"
	(cd "$arm/deb" && apt -qq download "linux-image-$kver-unsigned:arm64") ||
		skip "cannot download linux-image-$kver-unsigned:arm64"
	dpkg-deb -x "$arm"/deb/linux-image-*.deb "$arm/root"
fi

# --- the root file system, cached by its package versions -------------------
# The versions apt resolves name the cache entry: without lists for
# arm64 there is nothing to resolve.
ls /var/lib/apt/lists/*binary-arm64_Packages* >/dev/null 2>&1 || apt_update
sysd=$cache/systemd
mkdir -p "$sysd"
: >"$sysd/empty-status"
mapfile -t pkgs <scripts/target-systemd/packages
key=$( (
	cat scripts/target-systemd/rootfs.sh scripts/target-systemd/packages
	apt-get -qq -s -o Dir::State::status="$sysd/empty-status" -o APT::Architecture=arm64 \
		-o APT::Architectures::=arm64 -o APT::Install-Recommends=false install "${pkgs[@]}" |
		awk '$1 == "Inst"'
) | sha256sum | cut -c1-16)
rootfs=$sysd/rootfs-$key
if [ ! -s "$rootfs/base.cpio" ] || [ "${BOARDC_TARGET_REFRESH-}" = 1 ]; then
	log "building the arm64 root file system (systemd, udev, irqbalance) in $rootfs"
	t=$(date +%s)
	rm -rf "$sysd"/rootfs-*
	scripts/target-systemd/rootfs.sh "$rootfs" ||
		skip "cannot fetch or extract the arm64 packages of the systemd guest"
	rm -rf "$rootfs/root" "$rootfs/deb"
	log "root file system built in $(($(date +%s) - t))s: $(wc -l <"$rootfs/versions") packages"
fi
# The kernel's modules, an archive per kernel release.
modules=$sysd/modules-$kver.cpio
if [ ! -s "$modules" ] || [ "${BOARDC_TARGET_REFRESH-}" = 1 ]; then
	scripts/target-systemd/rootfs.sh --modules "$modules" "$kver" "$arm/root" ||
		fail "cannot archive the modules of $kver"
fi

# --- the board's outputs ------------------------------------------------------
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go run ./cmd/boardc build -q -o "$work/out" "$board"
name=$(ls "$work/out")
out=$work/out/$name
for f in tune.sh "boardc-tune-$name.service" "boardc-tune-$name@.service" \
	"udev/90-boardc-$name.rules" "irqbalance.service.d/90-boardc-$name.conf" irqbalance-policy.sh; do
	[ -f "$out/$f" ] || fail "$board: no $f among the outputs"
done

# overlay MODE DIR lays out the guest's own files, and in mode full the
# board's outputs where their headers say to install them.
overlay() {
	local d=$2 s=scripts/target-systemd
	mkdir -p "$d/boardc" "$d/etc/systemd/system/multi-user.target.wants" \
		"$d/etc/systemd/network" "$d/etc/modules-load.d" "$d/usr/libexec/boardc/$name"
	echo "$name" >"$d/boardc/board"
	echo "$1" >"$d/boardc/mode"
	cp "$s/checks.sh" "$d/boardc/checks.sh"
	# The control lists no known failure: each of its checks must fail.
	: >"$d/boardc/xfail"
	[ "$1" = control ] || cp "$work/xfail" "$d/boardc/xfail"
	cp "$s/boardc-systemd-checks.service" "$d/etc/systemd/system/"
	cp "$s"/10-boardc-*.link "$d/etc/systemd/network/"
	cp "$s/modules-load.conf" "$d/etc/modules-load.d/boardc-virtio.conf"
	ln -s ../boardc-systemd-checks.service "$d/etc/systemd/system/multi-user.target.wants/"
	ln -s /lib/systemd/system/irqbalance.service "$d/etc/systemd/system/multi-user.target.wants/"
	# tune.sh is the script both boots have; the control lacks only what
	# starts it and what tells irqbalance about it.
	install -m 0755 "$out/tune.sh" "$d/usr/libexec/boardc/$name/tune.sh"
	[ "$1" = full ] || return 0
	# Each where its header says.
	cp "$out/boardc-tune-$name.service" "$out/boardc-tune-$name@.service" "$d/etc/systemd/system/"
	ln -s "../boardc-tune-$name.service" "$d/etc/systemd/system/multi-user.target.wants/"
	mkdir -p "$d/etc/udev/rules.d" "$d/etc/systemd/system/irqbalance.service.d" "$d/usr/libexec/boardc/irqbalance.d"
	cp "$out/udev/90-boardc-$name.rules" "$d/etc/udev/rules.d/"
	cp "$out/irqbalance.service.d/90-boardc-$name.conf" "$d/etc/systemd/system/irqbalance.service.d/"
	install -m 0755 "$out/irqbalance-policy.sh" "$d/usr/libexec/boardc/irqbalance.d/boardc-$name"
}
# Known failures, one check ID a line, each taken off when its fix lands
# (docs/target-systemd.md). None today.
: >"$work/xfail"
for m in full control; do
	overlay "$m" "$work/$m"
	(cd "$work/$m" && find . | cpio -o -H newc --quiet) >"$work/$m.cpio"
	cat "$rootfs/base.cpio" "$modules" "$work/$m.cpio" >"$work/$m.initrd"
done

# --- boot -------------------------------------------------------------------
# shellcheck disable=SC2054 # commas separate QEMU sub-options
machine=(-M virt,gic-version=3 -cpu cortex-a72 -smp 4,sockets=1,clusters=2,cores=2 -m 1024)
# boot MODE LOG boots the guest in a network namespace of its own with a
# multi-queue tap for the 4-queue virtio-net-pci NIC.
boot() {
	unshare -n sh -c '
		ip tuntap add dev tap0 mode tap multi_queue && ip link set tap0 up || exit 90
		exec timeout 600 qemu-system-aarch64 "$@"' qemu "${machine[@]}" \
		-nodefaults -nographic -no-reboot -serial stdio -monitor none \
		-kernel "$kernel" -initrd "$work/$1.initrd" \
		-append "console=ttyAMA0 quiet panic=-1 rdinit=/lib/systemd/systemd systemd.getty_auto=no systemd.show_status=error" \
		-netdev tap,id=pcinet,ifname=tap0,script=no,downscript=no,queues=4 \
		-device virtio-net-pci,netdev=pcinet,mq=on,vectors=10,romfile=,mac=52:54:00:12:34:56 \
		-netdev user,id=mmionet -device virtio-net-device,netdev=mmionet,mac=52:54:00:12:34:57 \
		-device virtio-rng-device </dev/null >"$2" 2>&1 || true
	tr -d '\r' <"$2" | sed -n 's/^boardc-systemd: //p' >"$2.results"
}
closing() {
	grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1.results" | tail -n 1 | grep . || {
		tail -n 40 "$1" >&2
		fail "the guest printed no closing line (see the console above)"
	}
}

if [ "${BOARDC_TARGET_CONTROL:-1}" = 0 ]; then
	log "booting $kver with systemd and the outputs of $name installed; no control boot (BOARDC_TARGET_CONTROL=0)"
	t=$(date +%s)
	boot full "$work/full.log"
	log "the guest ran in $(($(date +%s) - t))s"
	sed 's/^/  /' "$work/full.log.results" >&2
	full=$(closing "$work/full.log")
	read -r npass _ nfail _ <<<"${full//,/}"
	log "board $name on $kver under systemd: $full; no control; $(($(date +%s) - start))s"
	[ "$nfail" = 0 ] || fail "$nfail check(s) failed on the target"
	echo "target-systemd: $npass passed, $nfail failed"
	exit 0
fi
log "booting $kver with systemd, the outputs of $name installed, and the control without them"
t=$(date +%s)
boot full "$work/full.log" &
fullpid=$!
boot control "$work/control.log"
wait "$fullpid"
log "both guests ran in $(($(date +%s) - t))s"
sed 's/^/  /' "$work/full.log.results" >&2
full=$(closing "$work/full.log")
sed 's/^/  control: /' "$work/control.log.results" >&2
closing "$work/control.log" >/dev/null
missed=
for c in boot-unit boot-unit-no-device template-plain template-renamed template-escape rename irqbalance; do
	grep -q "^FAIL $c:" "$work/control.log.results" || missed="$missed $c"
done
# irqbalance's control is only one if tune.sh had placed the IRQs first.
grep -q '^irqbalance-baseline: .*no drift' "$work/control.log.results" ||
	missed="$missed irqbalance(the control's IRQs were not placed before irqbalance ran)"
[ -z "$missed" ] || fail "negative control: without the outputs these checks still passed:$missed"
read -r npass _ nfail _ <<<"${full//,/}"
log "board $name on $kver under systemd: $full; the control failed every check; $(($(date +%s) - start))s"
[ "$nfail" = 0 ] || fail "$nfail check(s) failed on the target"
echo "target-systemd: $npass passed, $nfail failed"
