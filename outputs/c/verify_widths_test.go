package c_test

import (
	"fmt"
	"math/bits"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/outputs/c"
	"github.com/google/go-cmp/cmp"
)

// driverWidths are the mask widths each in-tree board's masters end with on
// a running kernel, read from the drivers of Linux 6.12 (and 6.1, where
// they agree unless noted), independently of the descriptions: what the
// verifier's table must accept, and nothing else. own is the node's
// device's streaming and coherent masks, below the PCI devices behind a
// host bridge or the objects below an fsl-mc bus. "any" is printed as
// information. The OF default is 32 bits, both masks
// (of_platform_device_create_pdata(), drivers/of/platform.c:179-181;
// 6.1: 183-185), and a bus's dma-ranges narrows it before probe only
// (of_dma_configure_id(), drivers/of/device.c:143-145; 6.1: 192-194).
var driverWidths = map[string]map[string]string{
	"ls2088a-rdb": {
		// caam_probe(), drivers/crypto/caam/ctrl.c:1072 (6.1: 777), sets
		// caam_get_dma_mask() (intern.h:248-263; 6.1: 222-237): 32, 49 on
		// DPAA2, 40 for fsl,sec-v5.0.
		"crypto": "own 32,40,49/32,40,49 below any/any",
		// The node's device: masks not checked. Objects:
		// fsl_mc_device_add() ~0ULL (drivers/bus/fsl-mc/fsl-mc-bus.c:855-857;
		// 6.1: 886-888), narrowed at bind to /soc's 48 bits by
		// fsl_mc_dma_configure() (fsl-mc-bus.c:151-163; 6.1: 147-159).
		"fsl_mc": "own any/any below 48/48",
		// ahci_platform_init_host(), drivers/ata/libahci_platform.c:771-772
		// (6.1: 775-776): 64 with HOST_CAP_64, else the OF default.
		"sata0": "own 32,64/32,64 below any/any",
		"sata1": "own 32,64/32,64 below any/any",
		// arm_smmu_device_cfg_probe(), drivers/iommu/arm/arm-smmu/arm-smmu.c:1906
		// (6.1: 1832), of arm_smmu_id_size_to_bits() (:1738-1755).
		"smmu": "own 32,36,40,42,44,48/32,36,40,42,44,48 below any/any",
		// dwc3_probe(), drivers/usb/dwc3/core.c:2232-2234 (6.1: 2017-2019),
		// xhci_plat_probe() (xhci-plat.c:169; 6.1: 222), xhci_gen_setup()
		// (xhci.c:5318-5332; 6.1: 5452-5466).
		"usb0": "own 32,64/32,64 below any/any",
		"usb1": "own 32,64/32,64 below any/any",
	},
	"espressobin": {
		// safexcel_probe(), drivers/crypto/inside-secure/safexcel.c:1782 (6.1: 1789).
		"crypto": "own 64/64 below any/any",
		// mvneta_probe() (drivers/net/ethernet/marvell/mvneta.c) sets none.
		"eth0": "own 32/32 below any/any",
		// A bridge: its own device does no DMA, and advk_pcie_probe()
		// (drivers/pci/controller/pci-aardvark.c:1751) sets none; the
		// endpoints' drivers set theirs (after the 32 bits of
		// pci_setup_device(), drivers/pci/probe.c:1964), which the
		// description does not state.
		"pcie0": "own any/any below any/any",
		// ahci_platform_init_host(), as above.
		"sata": "own 32,64/32,64 below any/any",
		// sdhci_set_dma_mask(), drivers/mmc/host/sdhci.c:4066, 4076; PIO:
		// sdhci_setup_host() 64-bit streaming only (sdhci.c:4384).
		"sdhci1": "own 32,64/32,64 below any/any",
		// ehci_orion_drv_probe(), drivers/usb/host/ehci-orion.c:242
		// (dma_mask_orion, :74, :347; 6.1: 233).
		"usb2": "own 32/32 below any/any",
		// xhci_plat_probe() and xhci_gen_setup(), as above.
		"usb3": "own 32,64/32,64 below any/any",
		// mv_xor_probe() (drivers/dma/mv_xor.c) sets none.
		"xor": "own 32/32 below any/any",
	},
	"mirabox": {
		// mv_cesa_probe() (drivers/crypto/marvell/cesa/cesa.c), mvneta_probe(),
		// mvsd_probe() (drivers/mmc/host/mvsdio.c), mv_xor_probe() set none.
		"cesa": "own 32/32 below any/any",
		"eth0": "own 32/32 below any/any",
		"eth1": "own 32/32 below any/any",
		"sdio": "own 32/32 below any/any",
		// ehci_orion_drv_probe(), ehci-orion.c:242 (:346; 6.1: 233).
		"usb0": "own 32/32 below any/any",
		"usb1": "own 32/32 below any/any",
		"xor0": "own 32/32 below any/any",
		"xor1": "own 32/32 below any/any",
	},
	"qemu-virt": {
		// A bridge: its own device does no DMA, and
		// pci_host_common_probe() (drivers/pci/controller/pci-host-common.c:52)
		// sets none; the PCI devices behind it are virtio-pci's, which
		// vp_modern_probe() (drivers/virtio/virtio_pci_modern_dev.c:279)
		// gives 64 bits.
		"pcie": "own any/any below 64/64",
		// virtio_mmio_probe(), drivers/virtio/virtio_mmio.c:643 (6.1: 626),
		// version 2.
		"rng":  "own 64/64 below any/any",
		"vnet": "own 64/64 below any/any",
	},
}

// verifyRow matches a row of the verifier's master table: the key, then
// the own and below widths, each as two bit sets and two texts.
var verifyRow = regexp.MustCompile(`(?m)^\t\{ "([a-z0-9_]+)", "[^"]*", (?:true|false),\n` +
	`\t  \{ (0x[0-9a-f]+)ULL, (0x[0-9a-f]+)ULL, "([^"]*)", "([^"]*)" \},\n` +
	`\t  \{ (0x[0-9a-f]+)ULL, (0x[0-9a-f]+)ULL, "([^"]*)", "([^"]*)" \},\n`)

// setText decodes a width bit set of the table as the verifier prints it.
func setText(t *testing.T, hex string) string {
	t.Helper()
	v, err := strconv.ParseUint(hex, 0, 64)
	if err != nil {
		t.Fatal(err)
	}
	if v == 0 {
		return "any"
	}
	var ws []string
	for v != 0 {
		n := bits.TrailingZeros64(v)
		ws = append(ws, strconv.Itoa(n+1))
		v &^= 1 << n
	}
	return strings.Join(ws, ",")
}

// TestVerifierWidthsFromDrivers: every row of every in-tree board's
// verifier table accepts exactly the widths its drivers end with
// (driverWidths), in the bit sets it checks and in the text it prints,
// and the LS2088A-RDB's object table holds dpaa2-caam's 49 bits for a
// DPSECI (dpaa2_caam_probe(), drivers/crypto/caam/caamalg_qi2.c:5230;
// 6.1: 5183).
func TestVerifierWidthsFromDrivers(t *testing.T) {
	for _, b := range intree.Boards(t, "../../boards") {
		var src string
		for _, f := range c.Emit(b) {
			if f.Path == c.VerifyName(b) {
				src = string(f.Data)
			}
		}
		got := map[string]string{}
		for _, m := range verifyRow.FindAllStringSubmatch(src, -1) {
			for i, h := range []int{2, 3, 6, 7} {
				if d := setText(t, m[h]); d != m[h+2] {
					t.Errorf("%s: %s: bit set %d %s is %s, printed as %s", b.Name, m[1], i, m[h], d, m[h+2])
				}
			}
			got[m[1]] = fmt.Sprintf("own %s/%s below %s/%s", m[4], m[5], m[8], m[9])
		}
		if diff := cmp.Diff(driverWidths[b.Name], got); diff != "" {
			t.Errorf("%s: the verifier's accepted widths differ from the drivers' (-drivers +verifier):\n%s", b.Name, diff)
		}
		if b.Name == "ls2088a-rdb" {
			const dpseci = "\t{ \"dpseci\", \"dpaa2_caam\", { 0x1000000000000ULL, 0x1000000000000ULL, \"49\", \"49\" } },\n\t{ }\n"
			if !strings.Contains(src, dpseci) {
				t.Errorf("%s: the object table is not DPSECI's 49 bits alone:\n%s", b.Name, src)
			}
		}
	}
}
