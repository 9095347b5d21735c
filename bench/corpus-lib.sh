# shellcheck shell=bash
# bench/corpus-lib.sh: what bench/corpus.sh and bench/bsp.sh share.
# Sourced from the directory the corpus was extracted into.

# compile_dts DTS DTB compiles a board of the corpus as kbuild does (cpp,
# then dtc -@), with its vendor directory, src/arm64 and include on the
# include path, and the vendor directory on dtc's for a dtc /include/
# (kbuild's -i $(dir $<)); it fails, leaving no DTB, when the board does
# not compile.
# With KERNEL_DIR, a directory internal/conform's OpenKernel made from a
# kernel source archive (the corpus cache's linux-source-6.12-*), the
# <arm/...> and <riscv/...> includes the corpus lacks come from its
# arch/arm and arch/riscv device trees and its scripts/dtc/dtc compiles,
# as in CORPUS.md.
compile_dts() {
	local inc=() dtc=dtc
	if [ -n "${KERNEL_DIR:-}" ]; then
		if [ ! -d kernel-prefixes ]; then
			mkdir -p kernel-prefixes
			ln -s "$KERNEL_DIR/arch/arm/boot/dts" kernel-prefixes/arm
			ln -s "$KERNEL_DIR/arch/riscv/boot/dts" kernel-prefixes/riscv
		fi
		inc=(-I kernel-prefixes)
		dtc=$KERNEL_DIR/scripts/dtc/dtc
	fi
	cpp -nostdinc -I "$(dirname "$1")" -I src/arm64 -I include "${inc[@]}" -undef -D__DTS__ \
		-x assembler-with-cpp "$1" 2>/dev/null |
		"$dtc" -q -I dts -O dtb -@ -i "$(dirname "$1")" -o "$2" - 2>/dev/null || { rm -f "$2"; return 1; }
}

# fill_board DIR fills the draft board package in DIR as internal/conform
# fills a draft (conform.Filler): 32-bit DMA widths where neither import
# nor the driver-facts catalogue gave one (a default, so that a width the
# draft states wins; none on a PCIe host bridge, which has no width of its
# own), 1 GiB of RAM at 0 where the tree has none.
fill_board() {
	local pkg
	pkg=$(sed -n 's/^package //p' "$1/board.cue" | head -n 1)
	{
		printf '// corpus filler: 32-bit DMA widths where the catalogue gives none; memory 1 GiB at 0 where the tree has none\npackage %s\n\nsoc: masters: [_]: M={if M.bridge == _|_ {dma: streaming: *32 | int}}\n' "$pkg"
		grep -q '^memory:' "$1/board.cue" || echo 'memory: [{base: 0x0, size: 0x4000_0000}]'
	} >"$1/fill.cue"
}
