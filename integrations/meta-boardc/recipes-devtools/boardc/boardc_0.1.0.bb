SUMMARY = "Board-description compiler: CUE to device tree, kernel C and runtime tuning"
DESCRIPTION = "boardc checks an SoC and board description written in CUE and \
compiles it into a device-tree fragment, driver DMA setup snippets and \
runtime tuning (IRQ affinity, RPS/XPS, sysctls)."
HOMEPAGE = "https://boardc.dev"
SECTION = "devel"

LICENSE = "Apache-2.0"
LIC_FILES_CHKSUM = "file://src/${GO_IMPORT}/LICENSE;md5=3b83ef96387f14655fc854ddc3c6bd57"

require boardc-source.inc
SRC_URI = "${BOARDC_GIT_URI};destsuffix=${GO_SRCURI_DESTSUFFIX}"
SRCREV = "${BOARDC_SRCREV}"
PV .= "+git"

GO_IMPORT = "boardc.dev/boardc"
GO_INSTALL = "${GO_IMPORT}/cmd/boardc"
# boardc version prints the commit built (go.bbclass builds with
# -trimpath, from a source tree without the checkout's history).
GO_EXTRA_LDFLAGS:append = " -X main.version=${SRCREV}"

# Every Go module boardc builds with, fetched by the gomod:// fetcher
# (do_fetch, so builds need no network after it), and their licences.
# Both files are generated: see the layer's README.
require ${BPN}-go-mods.inc
require ${BPN}-licenses.inc

inherit go-mod go-mod-update-modules

BBCLASSEXTEND = "native nativesdk"
