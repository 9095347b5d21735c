SUMMARY = "Board-description compiler: CUE to device tree, kernel C and runtime tuning"
DESCRIPTION = "boardc checks an SoC and board description written in CUE and \
compiles it into a device-tree fragment, driver DMA setup snippets and \
runtime tuning (IRQ affinity, RPS/XPS, sysctls)."
HOMEPAGE = "https://boardc.dev"
# Set to the licence of the boardc sources you build.
LICENSE = "CLOSED"

SRC_URI = "git://example.com/boardc.git;protocol=https;branch=main;destsuffix=${GO_SRCURI_DESTSUFFIX}"
SRCREV = "${AUTOREV}"

GO_IMPORT = "boardc.dev/boardc"
GO_INSTALL = "${GO_IMPORT}/cmd/boardc"

# The module's dependencies are downloaded by the go tool; pin them with
# go-mod-update-modules (or vendor them) for builds without network.
inherit go-mod

# boardc needs Go 1.26 or newer (go.mod).
BBCLASSEXTEND = "native nativesdk"
