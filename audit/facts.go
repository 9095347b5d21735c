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
		// Which masters issue snooping transactions differs per SoC; the
		// per-SoC .dtsi marks them one by one. Only the Sibling heuristic
		// applies.
		Interconnect: Coherent,
		Source:       "arch/arm64/boot/dts/freescale/fsl-ls208xa.dtsi, fsl-ls1088a.dtsi, fsl-lx2160a.dtsi, fsl-ls1028a.dtsi, fsl-ls1043a.dtsi, fsl-ls1046a.dtsi (Linux v7.1): masters on the CCI/CCN interconnect marked dma-coherent one by one",
	},
}

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

// covers reports whether the family's facts make a master of the given
// compatibles coherent, and the source that says so.
func (f *Family) covers(compat []string) (string, bool) {
	if f.Interconnect != Coherent {
		return "", false
	}
	if f.AllMasters {
		return f.Source, true
	}
	for _, c := range compat {
		if src, ok := f.Verified[c]; ok {
			return src, true
		}
	}
	return "", false
}
