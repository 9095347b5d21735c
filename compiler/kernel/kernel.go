// Package kernel is the driver-facts catalogue: what the Linux drivers of
// one kernel series do with the devices they bind (the DMA masks they set,
// the IRQs they request, whether they are bridges), extracted from that
// kernel's sources and keyed by device-tree compatible. Every fact carries
// the file, line and function it was read from.
//
// The catalogues boardc ships are embedded data, one per series; Load
// returns one, and Lookup finds the driver of a compatible list the way
// the kernel matches it.
package kernel

import (
	"fmt"
	"strings"
)

// Catalog is the driver facts of one kernel.
type Catalog struct {
	// Series is the kernel series, VERSION.PATCHLEVEL: "6.12".
	Series string `json:"series"`
	// Kernel is the full version of the tree the facts were read from,
	// as its Makefile gives it: "6.12.57".
	Kernel string `json:"kernel"`
	// Source is the source tree's provenance.
	Source Source `json:"source"`
	// Drivers are sorted by Site (file, then line). A catalogue Load
	// returns leaves Drivers nil and decodes a driver when Lookup first
	// returns it; All returns every driver of any catalogue.
	Drivers []Driver `json:"drivers"`

	byCompat map[string]int // compatible -> index in Drivers
	lazy     *lazyDrivers   // Load's catalogues: the drivers undecoded
}

// Source is where a catalogue's facts were read from.
type Source struct {
	// Tarball is the name of the source archive ("linux-source-6.12.tar.xz"),
	// Package the distribution package that ships it with its version
	// ("linux-source-6.12 6.12.57-1"), SHA256 the archive's digest.
	Tarball string `json:"tarball"`
	Package string `json:"package,omitempty"`
	SHA256  string `json:"sha256"`
	// Extractor is the version of the extraction rules that wrote the
	// catalogue: a catalogue is regenerated when they change.
	Extractor int `json:"extractor"`
}

// Site is a place in the kernel sources.
type Site struct {
	// File is relative to the tree's root: "drivers/ata/libahci_platform.c".
	File string `json:"file"`
	Line int    `json:"line"`
	// Func is the function the site is in, "" at file scope.
	Func string `json:"func,omitempty"`
}

// String returns the site as "file:line func()".
func (s Site) String() string {
	if s.Func == "" {
		return fmt.Sprintf("%s:%d", s.File, s.Line)
	}
	return fmt.Sprintf("%s:%d %s()", s.File, s.Line, s.Func)
}

// Driver is one driver structure (a platform_driver, amba_driver,
// fsl_mc_driver...) and what it does with the devices it binds.
type Driver struct {
	// Name is the driver's name (.driver.name), Bus its bus type:
	// "platform", "amba", "i2c", "spi", "fsl-mc", "host1x"...
	Name string `json:"name"`
	Bus  string `json:"bus"`
	// Site is the driver structure's definition, Probe its probe function.
	Site  Site `json:"site"`
	Probe Site `json:"probe"`
	// Compatibles are the DT compatibles of its of_device_id table, in
	// table order.
	Compatibles []string `json:"compatibles"`
	// MatchData is true when the table's entries carry .data: a board
	// must not put its own data there.
	MatchData bool `json:"matchData,omitempty"`
	// DMA is what the driver does with the DMA masks of the device.
	DMA DMA `json:"dma"`
	// IRQs are the names the driver requests its IRQs under, as
	// /proc/interrupts shows them.
	IRQs []IRQ `json:"irqs,omitempty"`
	// Affinity lists the places the driver sets IRQ affinity itself
	// (irq_set_affinity_hint(), irq_update_affinity_hint(), managed
	// vectors).
	Affinity []Site `json:"affinity,omitempty"`
	// Netdev is set for a driver that registers network devices.
	Netdev *Netdev `json:"netdev,omitempty"`
	// Bridge names the kind of bridge the device is, "" for none:
	// "pci-host" (the endpoints behind it do the DMA), "fsl-mc", "host1x".
	Bridge string `json:"bridge,omitempty"`
}

// DMAKind classifies what a driver does with the DMA masks.
type DMAKind string

// The DMA behaviours a driver can have.
const (
	// DMANone: the driver sets no mask; the device keeps the OF default,
	// 32 bits for both masks (of_platform_device_create_pdata(),
	// drivers/of/platform.c), narrowed by dma-ranges
	// (of_dma_configure_id(), drivers/of/device.c).
	DMANone DMAKind = "none"
	// DMAFixed: the driver sets one width, Widths[0].
	DMAFixed DMAKind = "fixed"
	// DMAChoice: the driver sets one of Widths, chosen at probe (a
	// capability register, a fallback when the first call fails).
	DMAChoice DMAKind = "choice"
	// DMAMatchData: the width comes from the match data of the compatible
	// that matched: PerCompatible.
	DMAMatchData DMAKind = "match-data"
	// DMARuntime: the driver sets a width it computes or reads from the
	// hardware at probe; Sets give the expression.
	DMARuntime DMAKind = "runtime"
	// DMAChildren: the driver sets masks on the devices it creates below
	// its own (the fsl-mc bus), not on its own device.
	DMAChildren DMAKind = "children"
	// DMAUnknown: the extractor cannot tell; Reason says why.
	DMAUnknown DMAKind = "unknown"
)

// Known reports whether the kind says what the driver does.
func (k DMAKind) Known() bool { return k != DMAUnknown && k != "" }

// DMA is a driver's DMA mask behaviour.
type DMA struct {
	Kind DMAKind `json:"kind"`
	// Widths are the streaming-mask widths the driver can set, sorted:
	// one for DMAFixed, several for DMAChoice, the union of
	// PerCompatible for DMAMatchData.
	Widths []int `json:"widths,omitempty"`
	// PerCompatible maps a compatible to the width its match data gives.
	PerCompatible map[string]int `json:"perCompatible,omitempty"`
	// Reason says why the behaviour is unknown, or what chooses among
	// Widths.
	Reason string `json:"reason,omitempty"`
	// Sets are the calls that set the masks, in the order found.
	Sets []MaskSet `json:"sets,omitempty"`
}

// MaskSet is one call that sets DMA masks.
type MaskSet struct {
	// Call is the function called: "dma_set_mask_and_coherent",
	// "dma_coerce_mask_and_coherent", "dma_set_mask",
	// "dma_set_coherent_mask".
	Call string `json:"call"`
	// Arg is the mask argument as written: "DMA_BIT_MASK(64)".
	Arg string `json:"arg"`
	// Width is the mask's width when Arg is a constant, 0 otherwise.
	Width int `json:"width,omitempty"`
	// Cond is the condition the call is under, as written, "" for none.
	Cond string `json:"cond,omitempty"`
	Site Site   `json:"site"`
	// Via is the chain of calls from the probe function to the one
	// holding the call, outermost first; empty when probe holds it.
	Via []string `json:"via,omitempty"`
}

// IRQ is one IRQ request of a driver.
type IRQ struct {
	// Name is the action name: a literal, or a format as written
	// ("%s-rx-%d").
	Name string `json:"name"`
	// Kind says where the name comes from: "literal", "format",
	// "dev_name" (the device's name), "netdev" (the interface's name),
	// "unknown".
	Kind string `json:"kind"`
	Site Site   `json:"site"`
}

// Netdev is what a network driver does about queues.
type Netdev struct {
	// SetChannels is the ethtool .set_channels handler, nil when the
	// driver has none (the queue count cannot be changed).
	SetChannels *Site `json:"setChannels,omitempty"`
	// XPS lists the places the driver sets XPS masks itself
	// (netif_set_xps_queue()).
	XPS []Site `json:"xps,omitempty"`
}

// Lookup returns the driver that binds a node of the given compatibles,
// most specific first, and the compatible it matched: the first one any
// driver lists, as of_match_device() prefers the most specific
// compatible; else, for an ARM PrimeCell ("arm,plNNN", "arm,primecell"),
// the AMBA driver of the peripheral ID it reports, matched by
// "arm,plNNN" (amba.go). It returns nil and "" when no driver binds it.
func (c *Catalog) Lookup(compatibles []string) (*Driver, string) {
	if c.lazy != nil {
		for _, s := range compatibles {
			if d := c.lazy.lookup(s); d != nil {
				return d, s
			}
		}
	} else {
		if c.byCompat == nil {
			c.index()
		}
		for _, s := range compatibles {
			if i, ok := c.byCompat[s]; ok {
				return &c.Drivers[i], s
			}
		}
	}
	// An ARM PrimeCell: its AMBA driver, by the ID it reports (amba.go).
	if id, s, ok := primeCellID(compatibles); ok {
		if d := c.lookupAMBA(id); d != nil {
			return d, s
		}
	}
	return nil, ""
}

// All returns every driver of the catalogue, in Drivers order, decoding
// the ones a catalogue Load returned has not decoded yet.
func (c *Catalog) All() []Driver {
	if c.lazy != nil {
		return c.lazy.all()
	}
	return c.Drivers
}

// index maps each compatible to its first driver in Drivers order.
func (c *Catalog) index() {
	c.byCompat = make(map[string]int)
	for i, d := range c.Drivers {
		for _, s := range d.Compatibles {
			if _, dup := c.byCompat[s]; !dup {
				c.byCompat[s] = i
			}
		}
	}
}

// WidthFor returns the widths the driver can set on a device matched by
// compatible: PerCompatible's entry for DMAMatchData, Widths otherwise.
func (d *Driver) WidthFor(compatible string) []int {
	if d.DMA.Kind == DMAMatchData {
		if w, ok := d.DMA.PerCompatible[compatible]; ok {
			return []int{w}
		}
		return nil
	}
	return d.DMA.Widths
}

// seriesOf returns the VERSION.PATCHLEVEL of a full kernel version.
func seriesOf(version string) string {
	f := strings.SplitN(version, ".", 3)
	if len(f) < 2 {
		return version
	}
	return f[0] + "." + f[1]
}
