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
# The generated files carry this SPDX identifier; the licence texts,
# oe-core's (meta/files/common-licenses), are copied into the source
# for legal-info, which checks them against boardc-tune.hash.
BOARDC_TUNE_LICENSE = GPL-2.0-or-later or MIT
BOARDC_TUNE_LICENSE_FILES = boardc-licenses/GPL-2.0-or-later boardc-licenses/MIT
BOARDC_TUNE_DEPENDENCIES = host-boardc
# Nothing is compiled for the target: no toolchain needed, so that the
# kernel, which waits for this package before its patch step, does not
# wait for one.
BOARDC_TUNE_ADD_TOOLCHAIN_DEPENDENCY = NO
BOARDC_TUNE_BOARD = $(call qstrip,$(BR2_PACKAGE_BOARDC_TUNE_BOARD))

# boardc writes the board's files to boardc-out/<board name>/; the
# build removes the previous set first, so the directory holds only
# what the description produces now.
BOARDC_TUNE_OUTDIR = $(BOARDC_TUNE_DIR)/boardc-out
BOARDC_TUNE_INSTALL = $(BR2_EXTERNAL_BOARDC_PATH)/package/boardc-tune/boardc-tune-install

ifeq ($(BR2_PACKAGE_BOARDC_TUNE)$(BR_BUILDING),yy)
ifeq ($(BOARDC_TUNE_BOARD),)
$(error BR2_PACKAGE_BOARDC_TUNE_BOARD is empty: set it to the board directory in $(BOARDC_TUNE_SITE))
endif
endif

define BOARDC_TUNE_COPY_LICENSES
	mkdir -p $(@D)/boardc-licenses
	cp $(BR2_EXTERNAL_BOARDC_PATH)/package/boardc-tune/licenses/GPL-2.0-or-later \
		$(BR2_EXTERNAL_BOARDC_PATH)/package/boardc-tune/licenses/MIT \
		$(@D)/boardc-licenses/
endef
BOARDC_TUNE_POST_RSYNC_HOOKS += BOARDC_TUNE_COPY_LICENSES

# boardc exits 1 with file:line:col diagnostics, and writes nothing,
# when the description has errors or warnings: the build stops there.
define BOARDC_TUNE_BUILD_CMDS
	rm -rf $(BOARDC_TUNE_OUTDIR)
	mkdir -p $(BOARDC_TUNE_OUTDIR)
	$(HOST_DIR)/bin/boardc build --werror -q -o $(BOARDC_TUNE_OUTDIR) \
		$(@D)/$(BOARDC_TUNE_BOARD)
endef

# A board that describes network queue counts gets a tune.sh whose
# actions call "channels RX TX", which sets them with ethtool -L: the
# build stops when the image has no ethtool, rather than tune.sh
# skipping the counts on the target.
ifeq ($(BR2_PACKAGE_ETHTOOL),)
define BOARDC_TUNE_CHECK_ETHTOOL
	if grep -q '^[[:space:]]*channels [0-9]' $(BOARDC_TUNE_OUTDIR)/*/tune.sh 2>/dev/null; then \
		echo "boardc-tune: board $(BOARDC_TUNE_BOARD): tune.sh sets network queue counts with ethtool: enable BR2_PACKAGE_ETHTOOL" >&2; \
		exit 1; \
	fi
endef
BOARDC_TUNE_POST_BUILD_HOOKS += BOARDC_TUNE_CHECK_ETHTOOL
endif

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

# The kernel's device trees include the fragment from its patch step
# (with LINUX_OVERRIDE_SRCDIR, its rsync step): that step waits for this
# package to be built, not only patched. Here, after linux/linux.mk,
# Buildroot has defined the kernel's step targets.
ifeq ($(BR2_LINUX_KERNEL_EXT_BOARDC_TUNE),y)
$(LINUX_TARGET_PATCH) $(LINUX_TARGET_RSYNC): | boardc-tune
endif
