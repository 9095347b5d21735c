#!/usr/bin/env bash
# Builds the Debian bookworm arm64 root file system the systemd guest of
# scripts/target-systemd.sh boots, as an uncompressed cpio archive:
#
#   scripts/target-systemd/rootfs.sh DIR
#   scripts/target-systemd/rootfs.sh --modules ARCHIVE KVER MODULES
#
# DIR is the cache directory (created). The kernel's modules are an
# archive of their own, so that one root file system serves every
# kernel: the second form writes ARCHIVE, the modules of the virt
# machine's devices of the kernel release KVER (from the tree MODULES,
# lib/modules/KVER) with their dependencies, indexed by depmod so that
# udev loads them by modalias. The
# packages are resolved by apt against an empty dpkg status with arm64 as
# the only architecture, so that apt computes the whole dependency
# closure; they are fetched with apt-get --download-only and extracted
# with dpkg-deb -x, no maintainer script run (none can run on an amd64
# host without qemu-user). What those scripts would do and systemd needs
# is done here: the merged /usr, the users and groups of base-passwd.
# The packages are those of scripts/target-systemd/packages, with their
# dependencies; DIR/versions lists them, DIR/base.cpio is the archive.
set -euo pipefail
if [ "$1" = --modules ]; then
	archive=$2 kver=$3 mods=$4
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	# The root file system's /lib is usr/lib: the archive holds
	# usr/lib/modules, and depmod reads it through a lib link the
	# archive leaves out.
	mkdir -p "$tmp/usr/lib/modules/$kver"
	ln -s usr/lib "$tmp/lib"
	for m in virtio_pci virtio_mmio virtio_net virtio-rng net_failover failover \
		virtio_pci_modern_dev virtio_pci_legacy_dev; do
		# 6.12's modules are xz-compressed, which the guest's kmod reads.
		f=$(find "$mods/lib/modules/$kver/kernel" -name "$m.ko" -o -name "$m.ko.xz" | head -n 1)
		[ -n "$f" ] || continue
		rel=${f#"$mods/lib/modules/$kver/"}
		mkdir -p "$tmp/usr/lib/modules/$kver/${rel%/*}"
		cp "$f" "$tmp/usr/lib/modules/$kver/$rel"
	done
	cp "$mods/lib/modules/$kver/modules.order" "$mods/lib/modules/$kver/modules.builtin"* \
		"$tmp/usr/lib/modules/$kver/" 2>/dev/null || true
	depmod -b "$tmp" "$kver"
	(cd "$tmp" && find usr | cpio -o -H newc --quiet) >"$archive.tmp"
	mv "$archive.tmp" "$archive"
	exit 0
fi
dir=$1
mapfile -t pkgs <"$(dirname "$0")/packages"
apt_opts=(-o Dir::State::status="$dir/status" -o APT::Architecture=arm64
	-o APT::Architectures::=arm64 -o APT::Install-Recommends=false
	-o Dir::Cache::archives="$dir/deb" -o Debug::NoLocking=1
	-o APT::Sandbox::User=root)
mkdir -p "$dir/deb/partial"
: >"$dir/status"
chmod -R 777 "$dir/deb" # apt's download step runs as _apt
apt-get -qq -s "${apt_opts[@]}" install "${pkgs[@]}" |
	awk '$1 == "Inst" { v = $3; gsub(/[()]/, "", v); print $2, v }' | sort >"$dir/versions"
[ -s "$dir/versions" ] || {
	echo "rootfs: apt resolved no arm64 package" >&2
	exit 1
}
DEBIAN_FRONTEND=noninteractive apt-get -qq -y --download-only "${apt_opts[@]}" \
	install "${pkgs[@]}" >/dev/null
root=$dir/root
rm -rf "$root"
mkdir -p "$root/usr/bin" "$root/usr/sbin" "$root/usr/lib"
# bookworm's merged /usr, as debootstrap lays it out before extracting.
for d in bin sbin lib; do ln -s "usr/$d" "$root/$d"; done
stage=$dir/stage
for deb in "$dir"/deb/*.deb; do
	rm -rf "$stage"
	mkdir "$stage"
	dpkg-deb -x "$deb" "$stage"
	tar -C "$stage" -cf - . | tar -C "$root" --keep-directory-symlink -xf -
done
rm -rf "$stage"
# The loader where the arm64 ABI looks for it (/lib is usr/lib).
[ -e "$root/lib/ld-linux-aarch64.so.1" ] ||
	ln -s aarch64-linux-gnu/ld-linux-aarch64.so.1 "$root/usr/lib/ld-linux-aarch64.so.1"
# The alternatives the packages' postinst would make (update-alternatives):
# awk is gawk's; tune.sh and the checks run it.
ln -sf gawk "$root/usr/bin/awk"
# What no guest reads.
rm -rf "$root"/usr/share/{doc,man,info,locale,perl,perl5,lintian,bash-completion,zsh} \
	"$root"/usr/lib/aarch64-linux-gnu/perl* "$root"/usr/share/perl*
# base-passwd's postinst copies its masters; systemd-sysusers adds the
# rest at boot.
cp "$root/usr/share/base-passwd/passwd.master" "$root/etc/passwd"
cp "$root/usr/share/base-passwd/group.master" "$root/etc/group"
printf 'root:*::0:99999:7:::\n' >"$root/etc/shadow"
: >"$root/etc/machine-id"
echo boardc-guest >"$root/etc/hostname"
(cd "$root" && find . | cpio -o -H newc --quiet) >"$dir/base.cpio.tmp"
mv "$dir/base.cpio.tmp" "$dir/base.cpio"
