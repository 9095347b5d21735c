################################################################################
#
# boardc-tune
#
################################################################################

# The CUE module is the source: editing a description and running
# "make boardc-tune-rebuild" compiles it again. The site is set also
# when the package is off, where Buildroot would stop every build on a
# local package without one.
BOARDC_TUNE_VERSION = custom
BOARDC_TUNE_SITE = $(or $(call qstrip,$(BR2_PACKAGE_BOARDC_TUNE_MODULE)),$(BR2_EXTERNAL_BOARDC_PATH)/../../boards)
BOARDC_TUNE_SITE_METHOD = local
# The generated files carry this SPDX identifier.
BOARDC_TUNE_LICENSE = GPL-2.0-or-later or MIT
BOARDC_TUNE_DEPENDENCIES = host-boardc host-jq
BOARDC_TUNE_BOARD = $(call qstrip,$(BR2_PACKAGE_BOARDC_TUNE_BOARD))

# boardc writes the board's files to boardc-out/<board name>/; the
# build removes the previous set first, so the directory holds only
# what the description produces now.
BOARDC_TUNE_OUTDIR = $(BOARDC_TUNE_DIR)/boardc-out
BOARDC_TUNE_INSTALL = \
	JQ=$(HOST_DIR)/bin/jq \
	$(BR2_EXTERNAL_BOARDC_PATH)/package/boardc-tune/boardc-tune-install

ifeq ($(BR2_PACKAGE_BOARDC_TUNE)$(BR_BUILDING),yy)
ifeq ($(BOARDC_TUNE_BOARD),)
$(error BR2_PACKAGE_BOARDC_TUNE_BOARD is empty: set it to the board directory in $(BOARDC_TUNE_SITE))
endif
endif

# boardc exits 1 with file:line:col diagnostics, and writes nothing,
# when the description has errors or warnings: the build stops there.
define BOARDC_TUNE_BUILD_CMDS
	rm -rf $(BOARDC_TUNE_OUTDIR)
	mkdir -p $(BOARDC_TUNE_OUTDIR)
	$(HOST_DIR)/bin/boardc build --werror -q -o $(BOARDC_TUNE_OUTDIR) \
		$(@D)/$(BOARDC_TUNE_BOARD)
endef

# Only the files the board's manifest.json lists are installed, where
# the generated files expect each other; a board without tune.sh (no
# runtime tuning) installs nothing. See boardc-tune-install.
define BOARDC_TUNE_INSTALL_TARGET_CMDS
	$(BOARDC_TUNE_INSTALL) $(BOARDC_TUNE_OUTDIR) $(TARGET_DIR) files
endef

define BOARDC_TUNE_INSTALL_INIT_SYSV
	$(BOARDC_TUNE_INSTALL) $(BOARDC_TUNE_OUTDIR) $(TARGET_DIR) sysv
endef

define BOARDC_TUNE_INSTALL_INIT_SYSTEMD
	$(BOARDC_TUNE_INSTALL) $(BOARDC_TUNE_OUTDIR) $(TARGET_DIR) systemd
endef

$(eval $(generic-package))
