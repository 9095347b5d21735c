#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# prepare.sh DIR HEADER: writes the two-module test's sources into DIR
# beside the board's generated HEADER (boardc_<board>.h), as Kbuild
# names them; then: make -C KERNEL_BUILD_DIR M=DIR BOARDC_BOARD=<board> modules.
set -eu
here=$(dirname "$0")
dir=$1
mkdir -p "$dir"
cp "$2" "$here/Kbuild" "$dir/"
for m in two_a two_b two_wrong old_a_main old_b_main; do
	cp "$here/boardc_two.c" "$dir/boardc_$m.c"
done
for m in old_a old_b; do
	cp "$here/boardc_exported.c" "$dir/boardc_${m}_export.c"
done
