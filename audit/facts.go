package audit

import "strings"

// Coherence is what a source says about an interconnect's DMA coherency.
type Coherence string

// The coherency facts.
const (
	// Coherent: the interconnect snoops the CPU caches for DMA.
	Coherent Coherence = "coherent"
	// NotCoherent: it does not; dma-coherent below it corrupts data.
	NotCoherent Coherence = "not-coherent"
	// Unknown: no source says.
	Unknown Coherence = "unknown"
)

// Family is the interconnect facts of one SoC family, each with its
// source. A board is of the family when its root compatible names one of
// SoCs (or starts with one of Prefixes).
type Family struct {
	// Name names the family in findings: "armada-37xx".
	Name string
	// SoCs are the root compatibles of the family's SoCs; Prefixes match
	// root compatibles by prefix ("marvell,armada-ap80").
	SoCs, Prefixes []string
	// Interconnect is the coherency of the interconnect the masters sit
	// on; Source says where it comes from.
	Interconnect Coherence
	Source       string
	// PerSoC, when not nil, states the interconnect fact SoC by SoC:
	// the source for each SoC (root compatible) the fact is read for.
	// A SoC of the family without an entry is Unknown. When nil, Source
	// states the fact for every SoC of the family.
	PerSoC map[string]string
	// AllMasters is true when the source states coherency for every DMA
	// master on the interconnect: each inherits it. Otherwise only the
	// drivers' compatibles in Verified are, each with its source.
	AllMasters bool
	Verified   map[string]string
}

// Families are the SoC facts the audit knows. Families not listed are
// Unknown: they get no Coherency finding, only Bounce and Ranges.
var Families = []Family{
	{
		Name: "armada-37xx",
		SoCs: []string{"marvell,armada3710", "marvell,armada3720"},
		// The in-tree SoC package boards/soc/armada37xx states the same
		// fact with the same source.
		Interconnect: Coherent,
		Source:       `commit 5dd98e0389545b302b0c46cef2264b5b09c01677 "arm64: dts: marvell: armada-37xx: mark EIP97 as dma-coherent" (mvebu/dt64, 2026): "Armada 37xx has coherent bus, similar to Armada 7k/8k"`,
		Verified: map[string]string{
			"inside-secure,safexcel-eip97ies": `commit 5dd98e0389545b302b0c46cef2264b5b09c01677: EIP97 marked dma-coherent, "Tested on Armada 3720. Platform passes testmgr selftests", +3 % to +326 % throughput`,
		},
	},
	{
		Name: "armada-7k8k",
		// AP806/AP807 with CP110/CP115: Armada 7020/7040/8040, CN913x.
		Prefixes:     []string{"marvell,armada-ap80"},
		Interconnect: Coherent,
		Source:       "arch/arm64/boot/dts/marvell/armada-ap80x.dtsi and armada-cp11x.dtsi (Linux v7.1): every DMA master of the AP and CP (smmu, xor, sdhci, ethernet, usb3, sata, crypto, pcie) is marked dma-coherent",
		AllMasters:   true,
	},
	{
		Name: "layerscape",
		SoCs: []string{
			"fsl,ls1012a", "fsl,ls1028a", "fsl,ls1043a", "fsl,ls1046a",
			"fsl,ls1088a", "fsl,ls2080a", "fsl,ls2081a", "fsl,ls2088a", "fsl,lx2160a",
		},
		// Which masters issue snooping transactions differs per SoC; each
		// SoC's .dtsi marks them one by one, and the interconnect fact is
		// read SoC by SoC from those lines: masters on /soc of that SoC
		// are marked, so its interconnect snoops for DMA. No master is
		// covered by the fact alone; only the Sibling class applies.
		// boards/soc/ls2088a states the same for LS2088A (coherent,
		// verified masters only).
		Interconnect: Coherent,
		Source:       "the SoC's .dtsi (Linux v7.1): masters on its interconnect marked dma-coherent",
		PerSoC: map[string]string{
			"fsl,ls1012a": "arch/arm64/boot/dts/freescale/fsl-ls1012a.dtsi:200, :500, :514 (Linux v7.1): crypto, usb0 and sata on /soc marked dma-coherent",
			"fsl,ls1028a": "arch/arm64/boot/dts/freescale/fsl-ls1028a.dtsi:615, :627, :656, :695, :728, :784 (Linux v7.1): usb0, usb1, pcie1, pcie2, smmu and crypto on /soc marked dma-coherent",
			"fsl,ls1043a": `arch/arm64/boot/dts/freescale/fsl-ls1043a.dtsi:308 (Linux v7.1): dma-coherent on /soc itself, commit f0560158da0bfb808d318a279f80565035fd619a "arm64: dts: ls1043a: make dma-coherent global to the SoC"`,
			"fsl,ls1046a": `arch/arm64/boot/dts/freescale/fsl-ls1046a.dtsi:280 (Linux v7.1): dma-coherent on /soc itself, commit 136975c33894e7b48a6007af0f4c25f423bbd1de "arm64: dts: ls1046a: make dma-coherent global to the SoC"`,
			"fsl,ls1088a": "arch/arm64/boot/dts/freescale/fsl-ls1088a.dtsi:497, :510, :525, :537, :578, :688 (Linux v7.1): usb0, usb1, sata, crypto, pcie1 and smmu on /soc marked dma-coherent",
			"fsl,ls2080a": ls208xa,
			"fsl,ls2081a": ls208xa,
			"fsl,ls2088a": ls208xa,
			"fsl,lx2160a": "arch/arm64/boot/dts/freescale/fsl-lx2160a.dtsi:645, :943, :1112, :1140, :1192, :1437 (Linux v7.1): crypto, esdhc0, usb0, sata0, pcie1 and smmu on /soc marked dma-coherent",
		},
	},
}

// ls208xa is the interconnect fact of LS2080A, LS2081A and LS2088A,
// which share fsl-ls208xa.dtsi.
const ls208xa = "arch/arm64/boot/dts/freescale/fsl-ls208xa.dtsi:480, :885, :1085, :1172 (Linux v7.1): crypto, smmu, pcie1 and sata0 on /soc marked dma-coherent"

// FamilyOf returns the family of a board by its root compatibles, and
// the compatible that matched (the SoC), or nil and "".
func FamilyOf(root []string) (*Family, string) {
	for i := range Families {
		f := &Families[i]
		for _, c := range root {
			for _, s := range f.SoCs {
				if c == s {
					return f, c
				}
			}
			for _, p := range f.Prefixes {
				if strings.HasPrefix(c, p) {
					return f, c
				}
			}
		}
	}
	return nil, ""
}

// InterconnectOf returns the coherency of the interconnect of SoC soc
// (a root compatible of the family) and its source: the family's where
// it states the fact for every SoC, else the SoC's own (PerSoC), and
// Unknown where the SoC has none.
func (f *Family) InterconnectOf(soc string) (Coherence, string) {
	if f.PerSoC == nil {
		return f.Interconnect, f.Source
	}
	if src, ok := f.PerSoC[soc]; ok {
		return f.Interconnect, src
	}
	return Unknown, ""
}

// familyNamed returns the family called name, or nil.
func familyNamed(name string) *Family {
	for i := range Families {
		if Families[i].Name == name {
			return &Families[i]
		}
	}
	return nil
}

// covers reports whether the family's facts make a master of the given
// compatibles on SoC soc coherent, and the source that says so.
func (f *Family) covers(soc string, compat []string) (string, bool) {
	c, src := f.InterconnectOf(soc)
	if c != Coherent {
		return "", false
	}
	if f.AllMasters {
		return src, true
	}
	for _, c := range compat {
		if src, ok := f.Verified[c]; ok {
			return src, true
		}
	}
	return "", false
}

// Snoops are the drivers read to make the block's own snooping follow
// the node's coherency, keyed by the catalogue's driver name: with
// dma-coherent the block issues snooping transactions, without it the
// kernel cleans and invalidates the caches around each transfer. For a
// Sibling finding they say the block is one that would take the change
// up (Linux 6.12 sources).
var Snoops = map[string]string{
	"sdhci-esdhc": "esdhc_of_enable_dma() sets ESDHC_DMA_SNOOP in ESDHC_DMA_SYSCTL exactly when of_dma_is_coherent(), and clears it otherwise (drivers/mmc/host/sdhci-of-esdhc.c:545-548, Linux 6.12)",
	"ahci-qoriq":  "ahci_qoriq_phy_init() writes the port's AXI cache attributes (PORT_AXICC) only when the device is DEV_DMA_COHERENT (drivers/ata/ahci_qoriq.c:238-239 and 297-298, Linux 6.12)",
}
