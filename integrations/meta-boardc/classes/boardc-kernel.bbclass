# boardc-kernel.bbclass: include a board's device-tree fragment in the
# kernel's device trees. Inherit it in a bbappend of the machine's kernel:
#
#   # linux-yocto_%.bbappend (or your kernel's)
#   inherit boardc-kernel
#
# with BOARDC_BOARD set by the machine (conf/machine/include/boardc-*.inc).
# do_boardc compiles the board before the kernel's patch step; at the end
# of that step, after the kernel's own patches, boardc_kernel_include
# copies <board>.dtsi beside each device tree of BOARDC_KERNEL_DTS as
# boardc-<board>.dtsi and appends '#include "boardc-<board>.dtsi"' to
# it, once. The kernel source is edited where its patches edit it, in
# do_patch, and nowhere later (other recipes share it through
# STAGING_KERNEL_DIR); kbuild reads device trees from the source tree
# only (scripts/Makefile.dtbs, Linux 6.12: cpp includes from the .dts's
# directory), so a copy in ${B} would not be built. This works for every
# board, also one whose fragment deletes a property (no overlay:
# boardc's BC0105).

BOARDC_BOARD ??= ""

# The CUE module, fetched beside the kernel (see boardc-board.inc).
require recipes-devtools/boardc/boardc-source.inc
BOARDC_MODULE_URI ?= "${BOARDC_GIT_URI};destsuffix=boardc;name=boardc"
BOARDC_MODULE_SUBDIR ?= "boardc/boards"
SRC_URI:append = " ${@'${BOARDC_MODULE_URI}' if d.getVar('BOARDC_BOARD') else ''}"
SRCREV_boardc = "${BOARDC_SRCREV}"
BOARDC_SRCDIR = "${UNPACKDIR}/${BOARDC_MODULE_SUBDIR}"
BOARDC_BOARDS = "${BOARDC_BOARD}"
# Outside ${B}, which the kernel's configure step cleans.
BOARDC_OUTDIR = "${WORKDIR}/boardc-out"

# The kernel device trees (relative to arch/${ARCH}/boot/dts, without
# .dts) that include the fragment: by default every DTB of
# KERNEL_DEVICETREE.
BOARDC_KERNEL_DTS ?= "${@' '.join(x[:-4] for x in d.getVar('KERNEL_DEVICETREE').split() if x.endswith('.dtb'))}"

inherit boardc

# Before the patch step rather than before do_compile: once boardc-native
# is in the recipe's sysroot and the module is unpacked.
deltask do_boardc
addtask boardc after do_unpack do_prepare_recipe_sysroot before do_patch

boardc_kernel_include() {
	fragment="boardc-${BOARDC_BOARD}.dtsi"
	src="${BOARDC_OUTDIR}/${BOARDC_BOARD}/${BOARDC_BOARD}.dtsi"
	[ -f "$src" ] || bbfatal "boardc: board ${BOARDC_BOARD} produces no ${BOARDC_BOARD}.dtsi"
	[ -n "${BOARDC_KERNEL_DTS}" ] || bbfatal "boardc: no device tree to include the fragment in: set KERNEL_DEVICETREE or BOARDC_KERNEL_DTS"
	for dts in ${BOARDC_KERNEL_DTS}; do
		file="${S}/arch/${ARCH}/boot/dts/$dts.dts"
		[ -f "$file" ] || bbfatal "boardc: $file: no such device tree in the kernel"
		cp "$src" "$(dirname "$file")/$fragment"
		grep -qxF "#include \"$fragment\"" "$file" ||
			printf '\n#include "%s"\n' "$fragment" >>"$file"
	done
}
do_patch[postfuncs] += "${@'boardc_kernel_include' if d.getVar('BOARDC_BOARD') else ''}"
do_patch[vardeps] += "BOARDC_KERNEL_DTS BOARDC_BOARD"

# A machine without a board keeps its kernel as it is.
python () {
    if not d.getVar('BOARDC_BOARD'):
        bb.build.deltask('do_boardc', d)
}
