################################################################################
#
# boardc
#
################################################################################

BOARDC_VERSION = 0.1.0
# Set to where your boardc sources live, e.g. a git server:
#   BOARDC_SITE = https://example.com/boardc.git
#   BOARDC_SITE_METHOD = git
BOARDC_SITE = $(call github,boardc,boardc,v$(BOARDC_VERSION))
# Set to the licence of the boardc sources you build.
BOARDC_LICENSE = PROPRIETARY

BOARDC_GOMOD = boardc.dev/boardc
HOST_BOARDC_BUILD_TARGETS = cmd/boardc
HOST_BOARDC_INSTALL_BINS = boardc

$(eval $(host-golang-package))

# BOARDC_BUILD(board-dir,out-dir): check the board description in
# board-dir and write its outputs to out-dir/<board>/, for use in the
# hooks of other packages (see board/espressobin/ in boardc's
# integrations/buildroot). boardc exits 1 and writes nothing when the
# description has errors, which fails the build.
define BOARDC_BUILD
	$(HOST_DIR)/bin/boardc build --werror -q -o $(2) $(1)
endef
