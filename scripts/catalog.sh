#!/usr/bin/env bash
# Regenerates boardc's driver-facts catalogues,
# compiler/kernel/data/linux-SERIES.json and its index, from Debian's kernel source
# packages (/usr/src/linux-source-SERIES.tar.xz), installing the missing
# ones with apt-get first. The archives' Makefile, drivers/ and sound/
# are extracted once into $BOARDC_KSRC_CACHE (default ~/.cache/boardc/ksrc).
set -euo pipefail
cd "$(dirname "$0")/.."

series=(6.1 6.12)
need=()
for s in "${series[@]}"; do
	[ -f "/usr/src/linux-source-$s.tar.xz" ] || need+=("linux-source-$s")
done
if [ ${#need[@]} -gt 0 ]; then
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	echo "installing: ${need[*]}" >&2
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/boardc-catalog" ./cmd/boardc-catalog
for s in "${series[@]}"; do
	"$bin/boardc-catalog" -tarball "/usr/src/linux-source-$s.tar.xz" -out "compiler/kernel/data/linux-$s.json"
done
