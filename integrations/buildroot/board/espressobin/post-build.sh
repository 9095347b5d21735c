#!/bin/sh
# Buildroot post-build script (BR2_ROOTFS_POST_BUILD_SCRIPT): compile the
# ESPRESSObin description with host boardc and install its runtime tuning
# into the target root file system. Buildroot passes TARGET_DIR as $1 and
# exports HOST_DIR, BUILD_DIR and BR2_EXTERNAL_<NAME>_PATH.
#
# BOARDC_BOARD is the board directory inside your CUE module; by default
# boards/espressobin of the br2-external tree this script sits in.
set -eu

target=$1
here=$(cd "$(dirname "$0")" && pwd)
board=${BOARDC_BOARD:-$here/../../boards/espressobin}
out=$BUILD_DIR/boardc
name=espressobin

# Exits 1 with positioned diagnostics, and writes nothing, when the
# description has errors: the build fails.
"$HOST_DIR/bin/boardc" build --werror -q -o "$out" "$board"

# The units, the udev rule, the irqbalance drop-in and the init scripts
# name these paths.
install -d "$target/usr/libexec/boardc/$name" "$target/usr/libexec/boardc/irqbalance.d" \
	"$target/etc/sysctl.d"
install -m 0755 "$out/$name/tune.sh" "$target/usr/libexec/boardc/$name/"
install -m 0755 "$out/$name/irqbalance-policy.sh" "$target/usr/libexec/boardc/irqbalance.d/boardc-$name"
install -m 0644 "$out/$name"/sysctl.d/*.conf "$target/etc/sysctl.d/"
if [ -d "$target/etc/systemd/system" ]; then
	install -d "$target/usr/lib/systemd/system/irqbalance.service.d" "$target/usr/lib/udev/rules.d" \
		"$target/etc/systemd/system/multi-user.target.wants"
	install -m 0644 "$out/$name/boardc-tune-$name.service" "$out/$name/boardc-tune-$name@.service" \
		"$target/usr/lib/systemd/system/"
	install -m 0644 "$out/$name"/irqbalance.service.d/*.conf "$target/usr/lib/systemd/system/irqbalance.service.d/"
	install -m 0644 "$out/$name"/udev/*.rules "$target/usr/lib/udev/rules.d/"
	ln -sf "/usr/lib/systemd/system/boardc-tune-$name.service" \
		"$target/etc/systemd/system/multi-user.target.wants/"
else
	# BusyBox init (or sysvinit): rcS runs /etc/init.d/S??* with "start".
	install -d "$target/etc/init.d"
	install -m 0755 "$out/$name/init.d/S40boardc-tune-$name" "$target/etc/init.d/"
fi
