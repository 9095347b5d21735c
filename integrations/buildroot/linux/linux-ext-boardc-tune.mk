################################################################################
#
# Include boardc's device-tree fragment in the kernel's device trees
#
################################################################################

# Not one of LINUX_EXTENSIONS: those make the kernel's patch step wait
# for the extension's patch step only, and the fragment is what
# boardc-tune builds. boardc-tune.mk makes the kernel's patch and rsync
# steps wait for the whole package; as a dependency, it also comes
# before the kernel's configure and build steps.

BOARDC_TUNE_KERNEL_DTS = $(or \
	$(call qstrip,$(BR2_LINUX_KERNEL_EXT_BOARDC_TUNE_DTS)), \
	$(call qstrip,$(BR2_LINUX_KERNEL_INTREE_DTS_NAME)))

ifeq ($(BR2_LINUX_KERNEL_EXT_BOARDC_TUNE),y)
ifeq ($(BR_BUILDING),y)
ifeq ($(BOARDC_TUNE_KERNEL_DTS),)
$(error BR2_LINUX_KERNEL_EXT_BOARDC_TUNE is set but no device tree is named: set BR2_LINUX_KERNEL_EXT_BOARDC_TUNE_DTS or BR2_LINUX_KERNEL_INTREE_DTS_NAME)
endif
endif

# check-package TypoInPackageVariable
LINUX_DEPENDENCIES += boardc-tune

ifeq ($(BR2_LINUX_KERNEL_EXT_BOARDC_TUNE_OVERLAY),y)
# <vendor>/boardc-<board>, beside the first device tree.
BOARDC_TUNE_KERNEL_DTSO = $(patsubst ./%,%,$(dir $(firstword $(BOARDC_TUNE_KERNEL_DTS))))boardc-$(call qstrip,$(BR2_PACKAGE_BOARDC_TUNE_BOARD))
# check-package TypoInPackageVariable
LINUX_DTSO_NAMES += $(BOARDC_TUNE_KERNEL_DTSO)

define BOARDC_TUNE_KERNEL_FRAGMENT
	$(BR2_EXTERNAL_BOARDC_PATH)/package/boardc-tune/boardc-tune-dts --overlay \
		$(BOARDC_TUNE_OUTDIR) $(LINUX_ARCH_PATH)/boot/dts/$(BOARDC_TUNE_KERNEL_DTSO).dtso
endef
else
define BOARDC_TUNE_KERNEL_FRAGMENT
	$(foreach dts,$(BOARDC_TUNE_KERNEL_DTS), \
		$(BR2_EXTERNAL_BOARDC_PATH)/package/boardc-tune/boardc-tune-dts \
			$(BOARDC_TUNE_OUTDIR) $(LINUX_ARCH_PATH)/boot/dts/$(dts).dts$(sep))
endef
endif
# After the kernel's patches, so that no patch meets a modified .dts;
# with LINUX_OVERRIDE_SRCDIR there is no patch step, and the fragment is
# included after each rsync from the source directory.
LINUX_POST_PATCH_HOOKS += BOARDC_TUNE_KERNEL_FRAGMENT
# check-package TypoInPackageVariable
LINUX_POST_RSYNC_HOOKS += BOARDC_TUNE_KERNEL_FRAGMENT
endif
