#!/usr/bin/env bash
# Fetches Debian's arm64 kernel headers of each Linux SERIES given, ready to
# build out-of-tree modules for arm64 on this host:
#
#   scripts/target/arm64-headers.sh SERIES...     (e.g. 6.1 6.12)
#
# For a series it asks apt which package the metapackage of that series
# names (linux-headers-SERIES-arm64:arm64, else linux-headers-arm64:arm64
# when its version is of the series), downloads it and its -common with
# apt-get download, extracts them with dpkg-deb -x into
# BOARDC_TARGET_CACHE/headers-SERIES (default ~/.cache/boardc-target), and
# installs the host's linux-kbuild of the same version, whose scripts the
# headers use. It prints one line per series: SERIES and the kbuild
# directory (the one to pass to make -C, with ARCH=arm64 and
# CROSS_COMPILE=aarch64-linux-gnu-). outputs/c's TestKbuildVerifierArm64
# finds them there. A series already fetched is not fetched again unless
# BOARDC_TARGET_REFRESH=1.
#
# Exit status: 0 every series ready, 1 something could not be fetched.
set -euo pipefail
cache=${BOARDC_TARGET_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/boardc-target}
[ $# -gt 0 ] || {
	echo "usage: $0 SERIES..." >&2
	exit 2
}
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
log() { printf 'arm64-headers: %s\n' "$*" >&2; }

# apt runs apt-get with a TMPDIR its unprivileged steps (the _apt user)
# can write to.
apt() {
	local tmp=${TMPDIR:-/tmp}
	[ "$(stat -c %a "$tmp" 2>/dev/null)" = 1777 ] || tmp=/var/tmp
	TMPDIR=$tmp DEBIAN_FRONTEND=noninteractive $sudo apt-get "$@"
}

updated=0
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	$sudo dpkg --add-architecture arm64
	apt -qq update
	updated=1
fi

# depends META prints the linux-headers-VERSION-arm64 package META names,
# nothing when apt knows no META.
depends() {
	{ apt-cache depends "$1:arm64" 2>/dev/null || true; } |
		sed -n 's/^ *Depends: \(linux-headers-[0-9][^ :]*-arm64\)\(:arm64\)\{0,1\}$/\1/p' | head -n 1
}

for series in "$@"; do
	dir=$cache/headers-$series
	if [ -f "$dir/stamp" ] && [ "${BOARDC_TARGET_REFRESH-}" != 1 ]; then
		read -r _ hdr <"$dir/stamp"
		echo "$series $hdr"
		continue
	fi
	pkg=$(depends "linux-headers-$series-arm64")
	if [ -z "$pkg" ]; then
		pkg=$(depends linux-headers-arm64)
		case $pkg in
		"linux-headers-$series".*) ;;
		*) pkg= ;;
		esac
	fi
	if [ -z "$pkg" ] && [ "$updated" = 0 ]; then
		apt -qq update
		updated=1
		pkg=$(depends "linux-headers-$series-arm64")
	fi
	[ -n "$pkg" ] || {
		log "apt knows no arm64 headers of Linux $series (linux-headers-$series-arm64:arm64)"
		exit 1
	}
	ver=${pkg#linux-headers-}
	ver=${ver%-arm64}
	rm -rf "$dir"
	mkdir -p "$dir/deb"
	chmod 777 "$dir/deb" # apt's download step runs as _apt
	log "downloading $pkg:arm64 and linux-headers-$ver-common"
	(cd "$dir/deb" && apt -qq download "$pkg:arm64" "linux-headers-$ver-common") || {
		log "cannot download $pkg"
		exit 1
	}
	for d in "$dir"/deb/*.deb; do
		dpkg-deb -x "$d" "$dir/root"
	done
	kbuild=$(dpkg-deb -f "$dir"/deb/"$pkg"_*.deb Depends | grep -o 'linux-kbuild-[^ ,]*' | head -n 1)
	if [ ! -d "/usr/lib/$kbuild/scripts" ]; then
		log "installing $kbuild"
		apt install -y -qq --no-install-recommends "$kbuild" >/dev/null || {
			log "cannot install $kbuild"
			exit 1
		}
	fi
	# The headers' scripts and tools are the host's kbuild of the same
	# version, and the arch Makefile includes the common one.
	hdr=$dir/root/usr/src/$pkg
	common=$dir/root/usr/src/linux-headers-$ver-common
	for d in "$hdr" "$common"; do
		ln -sfn "/usr/lib/$kbuild/scripts" "$d/scripts"
		ln -sfn "/usr/lib/$kbuild/tools" "$d/tools"
	done
	echo "include $common/Makefile" >"$hdr/Makefile"
	rm -rf "$dir/deb"
	echo "$ver $hdr" >"$dir/stamp"
	echo "$series $hdr"
done
