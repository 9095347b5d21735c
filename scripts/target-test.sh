#!/usr/bin/env bash
# The target test: proves a board's outputs on a running arm64 Linux kernel.
#
#   scripts/target-test.sh [BOARD]       (default boards/qemu-virt)
#   BOARDC_TARGET_SERIES=6.12 scripts/target-test.sh
#
# It boots Debian's arm64 kernel of a series (BOARDC_TARGET_SERIES, 6.1 by
# default, or 6.12: Debian bookworm's linux-image-arm64 and
# linux-image-6.12-arm64, both at their current version) under QEMU's virt
# machine with the board's
# device-tree fragment included after the machine's own tree, from which
# every property the fragment sets was first removed, so that what the
# kernel shows comes from boardc; where the board has an overlay, applying
# it must give the same tree. In the guest, scripts/target/checks.sh (and
# the parts it sources from scripts/target/checks/) checks each property
# set or deleted under /proc/device-tree, each master's coherency and DMA
# masks as the DMA layer sees them (scripts/target/module, built for arm64
# with the board's generated C), the board's verifier module, tune.sh's
# apply, --verify, read-back and --revert, twice, the queue counts it sets
# with ethtool, the boot files, and the irqbalance policy script. A third
# boot appends cmdline.txt's fragment and checks the kernel's CPU
# isolation. Three negative controls run every time: the same boot without
# the fragment must fail the device-tree, coherency and command-line
# checks, a value changed behind tune.sh must be reported by --verify, and
# the verifier of a description whose driver widths are wrong (the
# virtio-mmio transports' 64 bits said to be 32) must refuse a strict=1
# load, naming those masters.
#
# With the default board it also proves a bus DMA limit, which QEMU's own
# tree (no dma-ranges: every bus_dma_limit 0) cannot: two more boots, in
# the background, of the same machine with the case
# testdata/cases/qemu-virt-ranges, QEMU's tree with its virtio-mmio
# transports moved under a simple-bus whose dma-ranges window (the guest's
# RAM) that description states (scripts/target/ranges.sh). With the
# fragment, the case's verifier must find each transport's bus_dma_limit
# (0x7fffffff) equal to what the description gives, and virtio-rng on
# the bus must deliver bytes; without the fragment's dma-ranges, the
# verifier must fail on exactly those limits; and the verifier of the
# description with the window halved must refuse a strict=1 load.
# BOARDC_TARGET_RANGES=0 leaves them out.
#
# What it needs it installs with apt-get (as root, or with sudo):
# qemu-system-arm, cpio, gcc-aarch64-linux-gnu, device-tree-compiler, make,
# iproute2, util-linux and the host's linux-kbuild; the arm64 kernel image,
# its headers, busybox-static and ethtool (with the libc6 and libmnl0 it
# runs on) are downloaded (apt-get download, after
# dpkg --add-architecture arm64), extracted and kept in
# BOARDC_TARGET_CACHE (default ~/.cache/boardc-target), a directory per
# series. When something is
# missing and cannot be installed the test skips naming it, or fails under
# BOARDC_REQUIRE_TOOLS=1.
#
# Exit status: 0 passed (or skipped), 1 a check or a control failed.
set -euo pipefail
cd "$(dirname "$0")/.."
board=${1:-boards/qemu-virt}
if [ "${board%/}" = testdata/cases/qemu-virt-ranges ]; then
	echo "target-test: $board boots on QEMU's tree reshaped, with the default board (scripts/target/ranges.sh): run scripts/target-test.sh alone" >&2
	exit 2
fi
series=${BOARDC_TARGET_SERIES:-6.1}
case $series in
6.1) meta=linux-image-arm64 ;; # bookworm's own kernel
6.12) meta=linux-image-6.12-arm64 ;;
*)
	echo "target-test: BOARDC_TARGET_SERIES=$series: the series are 6.1 and 6.12" >&2
	exit 2
	;;
esac
cache=${BOARDC_TARGET_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/boardc-target}
start=$(date +%s)

log() { printf 'target-test: %s\n' "$*" >&2; }
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

sudo=
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
		sudo=sudo
	else
		sudo=none
	fi
fi

# apt runs apt-get with a TMPDIR its unprivileged steps (the _apt user)
# can write to: a world-writable directory outside a private home.
apt() {
	local tmp=${TMPDIR:-/tmp}
	if [ "$(stat -c %a "$tmp" 2>/dev/null)" != 1777 ]; then
		tmp=/var/tmp
		if [ "$(stat -c %a "$tmp" 2>/dev/null)" != 1777 ]; then
			tmp=/var/cache/boardc-target-tmp
			$sudo mkdir -p "$tmp"
			$sudo chmod 1777 "$tmp"
		fi
	fi
	TMPDIR=$tmp DEBIAN_FRONTEND=noninteractive $sudo apt-get "$@"
}

apt_updated=0
apt_update() {
	[ "$apt_updated" = 1 ] || apt -qq update
	apt_updated=1
}

# need installs the packages whose command is missing: need CMD PKG ...
need=()
want() { command -v "$1" >/dev/null || need+=("$2"); }
want qemu-system-aarch64 qemu-system-arm
want cpio cpio
want aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
want dtc device-tree-compiler
want fdtoverlay device-tree-compiler
want make make
want xz xz-utils
want ip iproute2
want unshare util-linux
if [ ${#need[@]} -gt 0 ]; then
	mapfile -t need < <(printf '%s\n' "${need[@]}" | sort -u)
	[ "$sudo" != none ] || skip "not root and no sudo to install ${need[*]}"
	log "installing ${need[*]}"
	apt_update
	apt install -y -qq --no-install-recommends "${need[@]}" >/dev/null ||
		skip "cannot install ${need[*]}"
fi
# The guest's NIC is a multi-queue tap in a network namespace of its own:
# as root a plain one, otherwise inside a user namespace, where opening
# /dev/net/tun needs the device to be open to all.
netns=(unshare -n)
[ "$(id -u)" -eq 0 ] || netns=(unshare -rn)
"${netns[@]}" ip tuntap add dev tap0 mode tap multi_queue 2>/dev/null ||
	skip "cannot create a multi-queue tap in a network namespace (${netns[*]}, /dev/net/tun): run as root"

# --- the arm64 kernel, its headers, busybox and ethtool, cached -------------
arm=$cache/arm64-$series
# The guest's user space: what is copied into the initramfs from $arm/root.
# ethtool needs libc.so.6, libm.so.6 and libmnl.so.0 (readelf -d).
guest_files="bin/busybox sbin/ethtool lib/aarch64-linux-gnu/ld-linux-aarch64.so.1
lib/aarch64-linux-gnu/libc.so.6 lib/aarch64-linux-gnu/libm.so.6
usr/lib/aarch64-linux-gnu/libmnl.so.0"
cached=1
for f in $guest_files; do
	[ -e "$arm/root/$f" ] || cached=0
done
if [ ! -f "$arm/stamp" ] || [ "$cached" = 0 ] || [ "${BOARDC_TARGET_REFRESH-}" = 1 ]; then
	[ "$sudo" != none ] || skip "not root and no sudo to download the arm64 packages linux-image-VERSION-arm64-unsigned, linux-headers-VERSION-arm64, busybox-static, ethtool, libc6 and libmnl0"
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		$sudo dpkg --add-architecture arm64
		apt_updated=0
	fi
	apt_update
	# The metapackage names the current version, so image and headers match.
	img=$(apt-cache depends "$meta:arm64" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ :]*-arm64\)\(:arm64\)\{0,1\}$/\1/p' | head -n 1)
	[ -n "$img" ] || skip "apt knows no $meta:arm64 (dpkg --add-architecture arm64 and apt-get update)"
	ver=${img#linux-image-}
	ver=${ver%-arm64}
	rm -rf "$arm"
	mkdir -p "$arm/deb"
	chmod 777 "$arm/deb" # apt's download step runs as _apt
	log "downloading linux-image-$ver-arm64-unsigned, linux-headers-$ver-arm64, busybox-static, ethtool, libc6, libmnl0 (arm64)"
	(cd "$arm/deb" && apt -qq download "linux-image-$ver-arm64-unsigned:arm64" \
		"linux-headers-$ver-arm64:arm64" "linux-headers-$ver-common" "busybox-static:arm64" \
		"ethtool:arm64" "libc6:arm64" "libmnl0:arm64") ||
		skip "cannot download the arm64 kernel packages"
	for d in "$arm"/deb/*.deb; do
		dpkg-deb -x "$d" "$arm/root"
	done
	kbuild=$(dpkg-deb -f "$arm"/deb/linux-headers-"$ver"-arm64_*.deb Depends |
		grep -o 'linux-kbuild-[^ ,]*' | head -n 1)
	echo "$ver $kbuild" >"$arm/stamp"
fi
read -r ver kbuild <"$arm/stamp"
kver=$ver-arm64
if [ ! -d "/usr/lib/$kbuild/scripts" ]; then
	[ "$sudo" != none ] || skip "not root and no sudo to install $kbuild"
	apt_update
	apt install -y -qq --no-install-recommends "$kbuild" >/dev/null || skip "cannot install $kbuild"
fi
# The headers' scripts and tools are the host's kbuild of the same version
# (it builds arm64 modules), and the arch Makefile includes the common one.
hdr=$arm/root/usr/src/linux-headers-$kver
common=$arm/root/usr/src/linux-headers-$ver-common
for d in "$hdr" "$common"; do
	ln -sfn "/usr/lib/$kbuild/scripts" "$d/scripts"
	ln -sfn "/usr/lib/$kbuild/tools" "$d/tools"
done
echo "include $common/Makefile" >"$hdr/Makefile"
kernel=$arm/root/boot/vmlinuz-$kver
mods=$arm/root/lib/modules/$kver
if [ ! -f "$kernel" ] || [ ! -d "$mods" ]; then
	fail "no kernel in $arm; rerun with BOARDC_TARGET_REFRESH=1"
fi

# --- the board's outputs and plan -------------------------------------------
work=$(mktemp -d)
# A run that stops early stops the guests it left in the background: the
# subshell, and the timeout its boot runs (which passes the signal on to
# QEMU).
ranges_pid=
stop_background() {
	[ -n "$ranges_pid" ] || return 0
	local kids
	kids=$(pgrep -P "$ranges_pid" || true)
	# shellcheck disable=SC2086 # one PID a word
	kill "$ranges_pid" $kids 2>/dev/null || true
}
trap 'stop_background; rm -rf "$work"' EXIT
go build -o "$work/boardc" ./cmd/boardc
"$work/boardc" build -q -o "$work/out" "$board"
name=$(ls "$work/out")
out=$work/out/$name
cname=${name//-/_}
go run ./internal/targetplan "$board" >"$work/plan"
# The kernel command line: boards/qemu-virt isolates no CPU, so the
# fragment is that of a description that does, the compiler's case
# policy-isolated (two of four CPUs), built by boardc as any board is.
iso=testdata/cases/policy-isolated
"$work/boardc" build -q -o "$work/iso" "$iso"
frag=$(grep -v '^#' "$work/iso/policy-isolated/cmdline.txt")
[ -n "$frag" ] || fail "$iso: cmdline.txt has no fragment"
go run ./internal/targetplan "$iso" | awk '$1 == "isolated" || $1 == "housekeeping"' >"$work/cmdline.plan"
log "board $name: $(grep -c '^master ' "$work/plan") masters, $(grep -vc '^#\|^board \|^master ' "$work/plan") runtime values"

# --- the device tree: QEMU's own, stripped of what boardc sets --------------
# shellcheck disable=SC2054 # commas separate QEMU sub-options
machine=(-M virt,gic-version=3 -cpu cortex-a72 -smp 4,sockets=1,clusters=2,cores=2 -m 1024)
qemu-system-aarch64 "${machine[@]/#virt,gic-version=3/virt,gic-version=3,dumpdtb=$work/dumped.dtb}" \
	-nodefaults -nographic >/dev/null 2>&1 || true
[ -s "$work/dumped.dtb" ] || fail "qemu-system-aarch64 did not dump the virt machine's tree"
# The dump is padded to 1 MiB; a kernel given it with -dtb hangs silently.
dtc -q -I dtb -O dtb -o "$work/machine.dtb" "$work/dumped.dtb"
# What the fragment sets and deletes, node by node, from the .dtsi: the
# properties it sets are removed from a copy of QEMU's tree first, so that
# the kernel can show them only if boardc's fragment sets them; those it
# deletes stay, so that the deletion is what removes them.
# fragment DIR OUT NAME does so for the fragment NAME.dtsi in OUT over
# DIR/machine.dtb: DIR/stripped.dtb, the tree without what it sets;
# DIR/board.dtb, with the fragment; DIR/props, what the guest must show;
# and routes, what the overlay route gave.
fragment() {
	awk -v name="$3.dtsi" '/^&\{\/.*\} \{/ { p = $1; sub(/^&\{/, "", p); sub(/\}$/, "", p); next }
		/^&/ { printf "%s: %s targets a label; QEMU'"'"'s tree has none, name the node by path\n", name, $1 > "/dev/stderr"; exit 1 }
		/^}/ { p = "" }
		p == "" { next }
		$1 == "/delete-property/" { n = $2; sub(/;$/, "", n); print p, n, "absent"; next }
		$1 ~ /^[a-zA-Z0-9,._+#-]+;$/ { n = $1; sub(/;$/, "", n); print p, n, "set"; next }
		$2 == "=" { print p, $1, "set" }' "$2/$3.dtsi" >"$1/fragment.props" ||
		fail "cannot read what $3.dtsi sets"
	cp "$1/machine.dtb" "$1/stripped.dtb"
	while read -r path p what; do
		if [ "$what" = set ] && fdtget "$1/stripped.dtb" "$path" "$p" >/dev/null 2>&1; then
			fdtput -d "$1/stripped.dtb" "$path" "$p"
		fi
	done <"$1/fragment.props"
	# The .dtsi route: included at the end of the machine's tree.
	{
		dtc -q -I dtb -O dts "$1/stripped.dtb"
		printf '/include/ "%s"\n' "$2/$3.dtsi"
	} >"$1/included.dts"
	dtc -q -I dts -O dtb -o "$1/board.dtb" "$1/included.dts"
	: >"$1/props"
	while read -r path p what; do
		if [ "$what" = absent ]; then
			echo "$path $p absent" >>"$1/props"
			continue
		fi
		hex=
		for b in $(fdtget -t bx "$1/board.dtb" "$path" "$p"); do
			hex=$hex$(printf '%02x' "0x$b")
		done
		echo "$path $p ${hex:--}" >>"$1/props"
	done <"$1/fragment.props"
	# The overlay route, where there is an overlay, must give the same tree.
	# There is none when the fragment deletes a property (BC0105).
	if [ -f "$2/$3.dtso" ]; then
		dtc -q -@ -I dts -O dtb -o "$1/board.dtbo" "$2/$3.dtso"
		fdtoverlay -i "$1/stripped.dtb" -o "$1/overlaid.dtb" "$1/board.dtbo"
		if ! diff -u <(dtc -q -s -I dtb -O dts "$1/overlaid.dtb") <(dtc -q -s -I dtb -O dts "$1/board.dtb") >"$1/routes.diff"; then
			cat "$1/routes.diff" >&2
			fail "the overlay and the .dtsi route give different trees"
		fi
		routes="the overlay gives the same tree"
	else
		[ "$(grep -c ' absent$' "$1/props")" -gt 0 ] || fail "no $3.dtso, though the fragment deletes nothing"
		routes="no overlay: the fragment deletes, which an overlay cannot (BC0105)"
	fi
}
fragment "$work" "$out" "$name"
log "$(grep -vc ' absent$' "$work/props") properties set by the .dtsi, removed from QEMU's tree first, $(grep -c ' absent$' "$work/props") deleted; $routes"

# --- the C outputs, built for arm64 with the reporting module ---------------
mkdir "$work/mod"
cp scripts/target/module/boardc_target.c "$work/mod/boardc_target_main.c"
cp "$out/boardc_$cname.h" "$work/mod/"
cat >"$work/mod/Kbuild" <<EOF
obj-m := boardc_target.o
boardc_target-y := boardc_target_main.o
ccflags-y := -DBOARDC_HEADER='"boardc_$cname.h"' -DBOARDC_DMA_CAPS_LOOKUP=boardc_${cname}_dma_caps_lookup
EOF
# kbuild DIR LOG WHAT [MAKEARGS...] builds the external modules in DIR
# for arm64 with W=1 -Werror, its output in LOG: all of it on failure,
# else all but the BTF notice. WHAT names the module in the failure.
kbuild() {
	make -s -C "$hdr" M="$1" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
		W=1 KCFLAGS=-Werror "${@:4}" modules >"$2" 2>&1 || {
		cat "$2" >&2
		fail "$3 did not build for arm64 with W=1 -Werror"
	}
	grep -v '^Skipping BTF' "$2" >&2 || true
}
kbuild "$work/mod" "$work/kbuild.log" "the board's C"
# The board's own verifier module, by its generated Kbuild.
mkdir "$work/verify"
cp "$out/Kbuild" "$out/boardc_${cname}_verify.c" "$work/verify/"
kbuild "$work/verify" "$work/kbuild-verify.log" "the board's verifier"
# The verifier's negative control: boards/qemu-virt with the widths its
# virtio-mmio transports' driver sets changed from 64 to 32 bits, which
# virtio_mmio_probe() never leaves on a version 2 transport: that
# verifier must refuse a strict=1 load and name both transports.
: >"$work/verify-neg"
if [ "$board" = boards/qemu-virt ]; then
	mkdir -p "$work/neg/verify"
	cp -r boards "$work/neg/"
	soc=$work/neg/boards/soc/qemuvirt/qemuvirt.cue
	sed -i 's/^\t_virtioMMIO: driverSets: widths: \[64\]$/\t_virtioMMIO: driverSets: widths: [32]/' "$soc"
	grep -q '_virtioMMIO: driverSets: widths: \[32\]' "$soc" ||
		fail "the verifier's negative control: $soc no longer states the transports' widths as it expects"
	"$work/boardc" build -q -o "$work/neg/out" "$work/neg/boards/qemu-virt"
	cp "$work/neg/out/$name/Kbuild" "$work/neg/out/$name/boardc_${cname}_verify.c" "$work/neg/verify/"
	kbuild "$work/neg/verify" "$work/kbuild-verify-neg.log" "the verifier's negative control"
	awk '$1 == "master" && $3 ~ /^\/virtio_mmio@/ { print $2 }' "$work/plan" >"$work/verify-neg"
fi

# Two modules of one board, each including the board's generated header
# (outputs/c/testdata/twomod, which go test ./outputs/c builds for the
# host): both must load. The board is testdata/cases/dma-split, whose eth
# master (40-bit streaming, 32-bit coherent, on a bus whose dma-ranges
# reach 40 bits) is one the kernel would leave at 32 bits, so its header
# has an entry; qemu-virt's masters set their own masks and have none.
# The widths the modules must find come from the description
# (targetplan), not from the header. Negative controls, loaded after
# them: a third copy given a wrong expectation must fail, and of two
# modules each linking an exported definition, the way the board's C was
# once a source file of its own, the second must fail ("exports duplicate
# symbol", verify_exported_symbols(), kernel/module/main.c).
two=testdata/cases/dma-split
t=$(date +%s)
"$work/boardc" build -q -o "$work/two-out" "$two"
read -r _ _ _ _ two_s two_c _ < <(go run ./internal/targetplan "$two" | awk '$1 == "master" && $2 == "eth"')
[ -n "${two_c-}" ] || fail "$two: targetplan gives no widths for master eth"
two_compat=vendor,eth-40-32 # soc.masters.eth.compatible in $two/board.cue
grep -q "\"$two_compat\"" "$work/two-out/dma-split/boardc_dma_split.h" ||
	fail "$two: the header has no entry for $two_compat"
sh outputs/c/testdata/twomod/prepare.sh "$work/two" "$work/two-out/dma-split/boardc_dma_split.h"
kbuild "$work/two" "$work/kbuild-two.log" "the two-module test" BOARDC_BOARD=dma_split
two_args="compat=$two_compat streaming=$two_s coherent=$two_c"
log "the two-module test: five modules built for arm64 in $(($(date +%s) - t))s"

# --- the initramfs -----------------------------------------------------------
ir=$work/initramfs
mkdir -p "$ir/bin" "$ir/proc" "$ir/sys" "$ir/dev" "$ir/run" "$ir/tmp" "$ir/boardc/modules"
# BusyBox, and ethtool for the channels tune.sh sets (ethtool -L), with
# its dynamic loader and libraries where the loader looks for them.
for f in $guest_files; do
	mkdir -p "$ir/${f%/*}"
	cp -L "$arm/root/$f" "$ir/$f"
done
ln -s aarch64-linux-gnu/ld-linux-aarch64.so.1 "$ir/lib/ld-linux-aarch64.so.1"
install -m 0755 scripts/target/init "$ir/init"
cp scripts/target/checks.sh "$work/plan" "$work/props" "$work/cmdline.plan" "$ir/boardc/"
cp -r scripts/target/checks "$ir/boardc/"
cp -r "$out" "$ir/boardc/out"
cp "$work/mod/boardc_target.ko" "$ir/boardc/modules/"
cp "$work/verify/boardc_${cname}_verify.ko" "$ir/boardc/modules/boardc_verify.ko"
cp "$work/verify-neg" "$ir/boardc/verify-neg"
if [ -s "$work/verify-neg" ]; then
	cp "$work/neg/verify/boardc_${cname}_verify.ko" "$ir/boardc/modules/boardc_verify_neg.ko"
fi
# Known failures, one check ID a line, each to be taken off when its fix
# lands (the guest fails a listed check that passes). None today: the
# opt-out that was one now deletes the upstream dma-coherent.
: >"$ir/boardc/xfail"
# Debian builds virtio-net, virtio-pci and virtio-mmio as modules (6.12
# builds virtio-pci in, and compresses its modules with xz, which
# BusyBox's insmod does not read): load them and their dependencies (the
# .ko's modinfo depends=) in order, those built in left out.
: >"$ir/boardc/modules.list"
addmod() {
	local m=$1 f d n
	grep -qx "$m" "$ir/boardc/modules.list" && return 0
	for n in "$m" "${m//_/-}"; do
		grep -q "/$n\.ko$" "$mods/modules.builtin" && return 0
		f=$(find "$mods/kernel" -name "$n.ko" -o -name "$n.ko.xz" | head -n 1)
		[ -z "$f" ] || break
	done
	[ -n "$f" ] || fail "no module $m in $mods"
	case $f in
	*.xz) xz -dc "$f" >"$ir/boardc/modules/$m.ko" ;;
	*) cp "$f" "$ir/boardc/modules/$m.ko" ;;
	esac
	for d in $(tr '\0' '\n' <"$ir/boardc/modules/$m.ko" | sed -n 's/^depends=//p' | tr ',' ' '); do
		addmod "$d"
	done
	# After its dependencies, which the recursion listed first.
	echo "$m" >>"$ir/boardc/modules.list"
}
# virtio_pci first, so that the PCI NIC is virtio0, as the plan names it.
for m in virtio_pci virtio_mmio virtio_net virtio-rng; do
	addmod "$m"
done
mv "$ir/boardc/modules.list" "$ir/boardc/load-order"
cp "$work"/two/boardc_two_a.ko "$work"/two/boardc_two_b.ko "$work"/two/boardc_two_wrong.ko \
	"$work"/two/boardc_old_a.ko "$work"/two/boardc_old_b.ko "$ir/boardc/modules/"
cat >>"$ir/boardc/load-order" <<EOF
boardc_two_a $two_args
boardc_two_b $two_args
boardc_two_wrong compat=$two_compat streaming=$((two_s + 1)) coherent=$two_c
boardc_old_a $two_args
boardc_old_b $two_args
EOF
(cd "$ir" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initramfs.gz"

# --- the dma-ranges case -----------------------------------------------------
# With the default board, the case testdata/cases/qemu-virt-ranges too
# (scripts/target/ranges.sh), unless BOARDC_TARGET_RANGES=0.
ranges=0
if [ "$board" = boards/qemu-virt ] && [ "${BOARDC_TARGET_RANGES-1}" != 0 ]; then
	ranges=1
	# shellcheck source=scripts/target/ranges.sh
	. scripts/target/ranges.sh
	ranges_prepare
fi

# --- boot -------------------------------------------------------------------
# boot MODE DTB LOG [PARAMS] boots the guest in a network namespace of its
# own with a multi-queue tap for the virtio-net-pci NIC, PARAMS appended
# to the kernel command line, and the initramfs initrd (default the
# board's).
boot() {
	"${netns[@]}" sh -c '
		ip tuntap add dev tap0 mode tap multi_queue && ip link set tap0 up || exit 90
		exec timeout 300 qemu-system-aarch64 "$@"' qemu "${machine[@]}" \
		-nodefaults -nographic -no-reboot -serial stdio -monitor none \
		-kernel "$kernel" -initrd "${initrd:-$work/initramfs.gz}" -dtb "$2" \
		-append "console=ttyAMA0 quiet panic=-1 boardc.mode=$1${4:+ $4}" \
		-global virtio-mmio.force-legacy=false \
		-netdev tap,id=pcinet,ifname=tap0,script=no,downscript=no,queues=4 \
		-device virtio-net-pci,netdev=pcinet,mq=on,vectors=10,romfile= \
		-netdev user,id=mmionet -device virtio-net-device,netdev=mmionet \
		-device virtio-rng-device </dev/null >"$3" 2>&1 || true
	tr -d '\r' <"$3" | sed -n 's/^boardc-target: //p' >"$3.results"
}

# closing LOG prints the guest's "N passed, M failed" line, or fails.
closing() {
	grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1.results" | tail -n 1 | grep . || {
		tail -n 30 "$1" >&2
		fail "the guest printed no closing line (see the console above)"
	}
}

if [ "$ranges" = 1 ]; then
	log "$rg_name: booting $kver with and without the window, in the background"
	ranges_boot &
	ranges_pid=$!
	ranges_t=$(date +%s)
fi
log "booting $kver with the fragment applied"
t=$(date +%s)
boot full "$work/board.dtb" "$work/full.log"
log "the guest ran for $(($(date +%s) - t))s"
sed 's/^/  /' "$work/full.log.results" >&2
full=$(closing "$work/full.log")
# /init reports a module that does not load as "FAIL insmod NAME".
two_failed() { grep -qx "FAIL insmod $1" "$work/full.log.results"; }
for m in boardc_two_a boardc_two_b boardc_old_a; do
	if two_failed $m; then
		grep "$m" "$work/full.log" >&2 || true
		fail "two modules of one board: $m did not load"
	fi
done
two_failed boardc_two_wrong || fail "negative control: boardc_two_wrong loaded with a wrong expectation"
if ! two_failed boardc_old_b || ! tr -d '\r' <"$work/full.log" |
	grep -q 'boardc_old_b: exports duplicate symbol boardc_exported_dma_caps (owned by boardc_old_a)'; then
	fail "negative control: boardc_old_b, exporting what boardc_old_a exports, was not refused as a duplicate"
fi
log "two modules of one board, each with its header ($two: $two_s/$two_c bits): both loaded; a wrong expectation and a duplicate export were refused"
if [ -s "$work/verify-neg" ]; then
	grep -q "^ok verifier negative:" "$work/full.log.results" ||
		fail "the verifier's negative control did not run or did not fail as it must"
fi

log "negative control: booting without the fragment"
t=$(date +%s)
boot control "$work/stripped.dtb" "$work/control.log"
log "the guest ran for $(($(date +%s) - t))s"
closing "$work/control.log" >/dev/null
# Every property boardc sets or deletes, and every master's coherency that
# only boardc's fragment decides (coherent, or opted out of QEMU's
# dma-coherent), must now fail: otherwise the checks cannot tell.
missed=
while read -r path p _; do
	grep -q "^FAIL dt $path/$p:" "$work/control.log.results" || missed="$missed dt:$path/$p"
done <"$work/props"
while read -r kind key _ state _; do
	if [ "$kind" != master ] || { [ "$state" != coherent ] && [ "$state" != optout ]; }; then continue; fi
	grep -q "^FAIL coherent $key:" "$work/control.log.results" || missed="$missed coherent:$key"
	grep -q "^FAIL verifier $key:" "$work/control.log.results" || missed="$missed verifier:$key"
done <"$work/plan"
# The generated verifier, loaded with strict=1, must refuse to load.
grep -q "^FAIL verifier strict:" "$work/control.log.results" || missed="$missed verifier:strict"
# Without the command-line fragment, nothing is isolated.
for c in isolated nohz_full rcu_nocbs irqaffinity; do
	grep -q "^FAIL cmdline $c:" "$work/control.log.results" || missed="$missed cmdline:$c"
done
sed -n 's/^/  control: /p' "$work/control.log.results" | grep -E 'FAIL|closing|passed' >&2 || true
[ -z "$missed" ] || fail "negative control: without the fragment these checks still passed:$missed"

log "booting with the command-line fragment of $iso: $frag"
t=$(date +%s)
boot cmdline "$work/board.dtb" "$work/cmdline.log" "$frag"
log "the guest ran for $(($(date +%s) - t))s"
sed 's/^/  cmdline: /' "$work/cmdline.log.results" >&2
cmdline=$(closing "$work/cmdline.log")
read -r cpass _ cfail _ <<<"${cmdline//,/}"
[ "$cfail" = 0 ] || fail "$cfail command-line check(s) failed on the target"

if [ "$ranges" = 1 ]; then
	wait "$ranges_pid" || true
	ranges_pid=
	log "$rg_name: its guests were done $(($(date +%s) - ranges_t))s after they started"
	ranges_results
	cpass=$((cpass + rg_pass))
fi

took=$(($(date +%s) - start))
read -r npass _ nfail _ <<<"${full//,/}"
npass=$((npass + cpass))
log "board $name on $kver: $full, command line $cmdline; negative controls failed as they must; ${took}s"
[ "$nfail" = 0 ] || fail "$nfail check(s) failed on the target"
echo "target-test: $npass passed, $nfail failed"
