################################################################################
#
# boardc
#
################################################################################

# The version and the repository come from the configuration, like a
# kernel from a custom git tree. The archive Buildroot makes of the
# version (git, then the Go modules vendored) is checked against the
# sha256 a hash file lists for it: boardc.hash in a directory of
# BR2_GLOBAL_PATCH_DIR (boardc/boardc.hash), beside the one here, which
# holds the licence's.
BOARDC_VERSION = $(call qstrip,$(BR2_PACKAGE_HOST_BOARDC_VERSION))
BOARDC_SITE = $(call qstrip,$(BR2_PACKAGE_HOST_BOARDC_REPO_URL))
BOARDC_SITE_METHOD = git
BOARDC_LICENSE = Apache-2.0
BOARDC_LICENSE_FILES = LICENSE

# go.mod's module path: without it, pkg-golang.mk would infer one from
# the site and build a package that does not exist.
HOST_BOARDC_GOMOD = boardc.dev/boardc
# Installs $(HOST_DIR)/bin/boardc, named after the build target.
HOST_BOARDC_BUILD_TARGETS = cmd/boardc
# pkg-golang.mk builds with -buildvcs=false: boardc version prints the
# version linked in here.
HOST_BOARDC_LDFLAGS = -X main.version=$(HOST_BOARDC_VERSION)

ifeq ($(BR2_PACKAGE_HOST_BOARDC)$(BR_BUILDING),yy)
ifeq ($(BOARDC_VERSION),)
$(error BR2_PACKAGE_HOST_BOARDC_VERSION is empty: set it to the boardc tag or commit to build)
endif
ifeq ($(BOARDC_SITE),)
$(error BR2_PACKAGE_HOST_BOARDC_REPO_URL is empty: set it to boardc's git repository)
endif
endif

$(eval $(host-golang-package))
