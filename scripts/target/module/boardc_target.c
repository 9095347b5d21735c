// SPDX-License-Identifier: GPL-2.0
/*
 * boardc_target: reports how the running kernel sees a board's DMA masters,
 * for boardc's target test.
 *
 * For each device-tree path given in the paths parameter it prints one line
 * for the platform device created for the node and one for each PCI device
 * behind it when the node is a PCI host bridge:
 *
 *   boardc-target: dev PATH NAME driver=D coherent=C dma_mask=B coherent_mask=B described=B
 *
 * coherent is dev_is_dma_coherent() (<linux/dma-map-ops.h>), what the DMA
 * layer does cache maintenance by; the masks are bit counts; described is
 * the streaming width the board's generated C declares for the node (the
 * entry its lookup function finds for the node's compatible strings, as
 * of_match_node() matches a driver's), 0 when it declares none. A node
 * with no device prints "boardc-target: none PATH".
 *
 * Built with the board's generated header: the build defines
 * BOARDC_HEADER (the header, quoted) and BOARDC_DMA_CAPS_LOOKUP (its
 * lookup function, boardc_<board>_dma_caps_lookup).
 */

#include <linux/device.h>
#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/of.h>
#include <linux/of_platform.h>
#include <linux/pci.h>
#include <linux/platform_device.h>

#include BOARDC_HEADER

static char *paths[64];
static int npaths;
module_param_array(paths, charp, &npaths, 0444);
MODULE_PARM_DESC(paths, "device-tree paths of the masters to report");

static unsigned int mask_bits(u64 mask)
{
	return fls64(mask);
}

/* described_bits returns the streaming width the board's C declares for np:
 * the entry the header's lookup function finds for np's compatible strings. */
static unsigned int described_bits(struct device_node *np)
{
	const struct boardc_dma_caps *caps = BOARDC_DMA_CAPS_LOOKUP(np);

	return caps ? caps->streaming_bits : 0;
}

static void report(const char *path, struct device *dev, unsigned int described)
{
	pr_info("boardc-target: dev %s %s driver=%s coherent=%d dma_mask=%u coherent_mask=%u described=%u\n",
		path, dev_name(dev), dev->driver ? dev->driver->name : "-",
		dev_is_dma_coherent(dev) ? 1 : 0,
		dev->dma_mask ? mask_bits(*dev->dma_mask) : 0,
		mask_bits(dev->coherent_dma_mask), described);
}

/* report_pci reports the PCI devices whose host bridge hangs off np. */
static void report_pci(const char *path, struct device_node *np, unsigned int described)
{
	struct pci_dev *pdev = NULL;
	struct pci_host_bridge *bridge;

	for_each_pci_dev(pdev) {
		bridge = pci_find_host_bridge(pdev->bus);
		if (bridge && bridge->dev.parent && bridge->dev.parent->of_node == np)
			report(path, &pdev->dev, described);
	}
}

static int __init boardc_target_init(void)
{
	struct platform_device *pdev;
	struct device_node *np;
	unsigned int described;
	int i;

	for (i = 0; i < npaths; i++) {
		np = of_find_node_by_path(paths[i]);
		pdev = np ? of_find_device_by_node(np) : NULL;
		if (!pdev) {
			pr_info("boardc-target: none %s\n", paths[i]);
			of_node_put(np);
			continue;
		}
		described = described_bits(np);
		report(paths[i], &pdev->dev, described);
		report_pci(paths[i], np, described);
		put_device(&pdev->dev);
		of_node_put(np);
	}
	pr_info("boardc-target: done\n");
	return 0;
}

static void __exit boardc_target_exit(void)
{
}

module_init(boardc_target_init);
module_exit(boardc_target_exit);
MODULE_DESCRIPTION("Reports the DMA view of a board's masters for boardc's target test");
MODULE_LICENSE("GPL");
