// SPDX-License-Identifier: GPL-2.0
/*
 * boardc_two: a module that includes a board's generated header, built
 * twice (and more) from this one file, for boardc's two-module test:
 * outputs/c's TestKbuildTwoModules builds the modules against the host's
 * kernel headers, scripts/target-test.sh builds them for arm64 and loads
 * them in its guest. Two modules of one board including the header side
 * by side must build and load: the header defines no global symbol.
 *
 * The build defines BOARDC_HEADER (the header, quoted), BOARDC_LOOKUP and
 * BOARDC_SETUP (its lookup and setup functions). At load, the parameters
 * name a compatible string and the mask widths the description gives the
 * masters carrying it; the module then
 *   - looks up a device-tree node carrying that compatible (a node of its
 *     own, outside the tree: of_match_node() reads only its properties),
 *     which must give those widths, and a node with another compatible,
 *     which must give nothing;
 *   - registers a platform device with the 32-bit masks a device created
 *     from the tree starts with, runs the setup function on it (it has no
 *     node: the masks must stay), applies the entry with
 *     boardc_dma_caps_apply() and reads the masks back.
 * Any difference fails the load with -EINVAL, so insmod's status is the
 * result.
 */

#include <linux/bitops.h>
#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/string.h>

#include BOARDC_HEADER

static char *compat;
module_param(compat, charp, 0444);
MODULE_PARM_DESC(compat, "a compatible string the board's header has an entry for");
static unsigned int streaming;
module_param(streaming, uint, 0444);
MODULE_PARM_DESC(streaming, "the streaming mask width the entry must give");
static unsigned int coherent;
module_param(coherent, uint, 0444);
MODULE_PARM_DESC(coherent, "the coherent mask width the entry must give");

static char other[] = "boardc,no-such-device";
static struct property compat_prop = { .name = "compatible" };
static struct property other_prop = {
	.name = "compatible", .length = sizeof(other), .value = other,
};
static struct device_node node = { .name = "boardc-two", .properties = &compat_prop };
static struct device_node other_node = { .name = "boardc-two", .properties = &other_prop };

static struct platform_device *pdev;

/* masks returns whether dev's masks are s and c bits wide. */
static bool masks(struct device *dev, unsigned int s, unsigned int c)
{
	return fls64(*dev->dma_mask) == s && fls64(dev->coherent_dma_mask) == c;
}

static int __init boardc_two_init(void)
{
	struct platform_device_info info = {
		.name = KBUILD_MODNAME,
		.id = PLATFORM_DEVID_NONE,
		.dma_mask = DMA_BIT_MASK(32),
	};
	const struct boardc_dma_caps *caps;
	int err;

	if (!compat)
		return -EINVAL;
	compat_prop.value = compat;
	compat_prop.length = strlen(compat) + 1;
	caps = BOARDC_LOOKUP(&node);
	if (!caps || caps->streaming_bits != streaming || caps->coherent_bits != coherent) {
		pr_err("%s: %s: the header gives %u/%u bits, the description %u/%u\n", KBUILD_MODNAME,
		       compat, caps ? caps->streaming_bits : 0, caps ? caps->coherent_bits : 0,
		       streaming, coherent);
		return -EINVAL;
	}
	if (BOARDC_LOOKUP(&other_node)) {
		pr_err("%s: the header has an entry for %s\n", KBUILD_MODNAME, other);
		return -EINVAL;
	}

	pdev = platform_device_register_full(&info);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	err = BOARDC_SETUP(&pdev->dev);
	if (!err && !masks(&pdev->dev, 32, 32))
		err = -EINVAL;
	if (!err)
		err = boardc_dma_caps_apply(&pdev->dev, caps);
	if (!err && !masks(&pdev->dev, streaming, coherent))
		err = -EINVAL;
	if (err) {
		pr_err("%s: %s: masks %u/%u after applying %u/%u: %d\n", KBUILD_MODNAME, compat,
		       fls64(*pdev->dev.dma_mask), fls64(pdev->dev.coherent_dma_mask),
		       streaming, coherent, err);
		platform_device_unregister(pdev);
		return err;
	}
	pr_info("%s: %s: %u/%u bits applied\n", KBUILD_MODNAME, compat, streaming, coherent);
	return 0;
}

static void __exit boardc_two_exit(void)
{
	platform_device_unregister(pdev);
}

module_init(boardc_two_init);
module_exit(boardc_two_exit);
MODULE_DESCRIPTION("Includes a board's generated header beside another module of the board");
MODULE_LICENSE("GPL");
