################################################################################
#
# Include boardc's device-tree fragment in the kernel's device trees
#
################################################################################

LINUX_EXTENSIONS += boardc-tune

BOARDC_TUNE_KERNEL_DTS = $(or \
	$(call qstrip,$(BR2_LINUX_KERNEL_EXT_BOARDC_TUNE_DTS)), \
	$(call qstrip,$(BR2_LINUX_KERNEL_INTREE_DTS_NAME)))

# As a kernel extension, boardc-tune is built before the kernel is
# patched. The fragment is included after the kernel's patches are
# applied, so that no patch meets a modified .dts.
define BOARDC_TUNE_PREPARE_KERNEL
	@$(call MESSAGE,"boardc fragment for: $(BOARDC_TUNE_KERNEL_DTS)")
endef

ifeq ($(BR2_LINUX_KERNEL_EXT_BOARDC_TUNE),y)
ifeq ($(BR_BUILDING),y)
ifeq ($(BOARDC_TUNE_KERNEL_DTS),)
$(error BR2_LINUX_KERNEL_EXT_BOARDC_TUNE is set but no device tree is named: set BR2_LINUX_KERNEL_EXT_BOARDC_TUNE_DTS or BR2_LINUX_KERNEL_INTREE_DTS_NAME)
endif
endif

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
LINUX_POST_PATCH_HOOKS += BOARDC_TUNE_KERNEL_FRAGMENT
endif
