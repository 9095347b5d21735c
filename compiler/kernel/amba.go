package kernel

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// AMBA drivers match a device by the peripheral ID its registers report,
// not by compatible: amba_lookup() (drivers/amba/bus.c) takes the first
// entry of the driver's amba_id table with (periphid & mask) == id. The
// catalogue keys those drivers "amba:ID/MASK". A node becomes an AMBA
// device when it lists "arm,primecell" (of_platform_bus_create(),
// drivers/of/platform.c), and the PrimeCell binding
// (Documentation/devicetree/bindings/arm/primecell.yaml) names the block
// before it by ARM's engineering name, "arm,plNNN". ARM's blocks report
// designer AMBA_VENDOR_ARM (0x41, include/linux/amba/bus.h) and the
// engineering name's number as their part number: the kernel's own ID
// tables say so for each of them (pl330_ids 0x00041330 in
// drivers/dma/pl330.c, pl011's 0x00041011, pl022's 0x00041022, mmci's
// 0x00041180...). Lookup reads a node's ID that way, revision 0, when no
// driver lists one of its compatibles; a board whose node overrides the
// ID ("arm,primecell-periphid", of_amba_device_create()) is not seen
// here.

// primeCell is the engineering-name compatible of an ARM PrimeCell.
var primeCell = regexp.MustCompile(`^arm,pl([0-9a-f]{3})$`)

// primeCellID returns the peripheral ID a node of the given compatibles
// reports, and the compatible it was read from, when the node is an ARM
// PrimeCell named by its engineering name.
func primeCellID(compatibles []string) (uint32, string, bool) {
	isCell := false
	for _, c := range compatibles {
		isCell = isCell || c == "arm,primecell"
	}
	if !isCell {
		return 0, "", false
	}
	for _, c := range compatibles {
		if m := primeCell.FindStringSubmatch(c); m != nil {
			part, _ := strconv.ParseUint(m[1], 16, 16)
			return 0x41<<12 | uint32(part), c, true
		}
	}
	return 0, "", false
}

// ambaKey reads an "amba:ID/MASK" key.
func ambaKey(key string) (id, mask uint32, ok bool) {
	rest, ok := strings.CutPrefix(key, "amba:")
	if !ok {
		return 0, 0, false
	}
	var i, m uint32
	if _, err := fmt.Sscanf(rest, "0x%x/0x%x", &i, &m); err != nil {
		return 0, 0, false
	}
	return i, m, true
}

// ambaMatches reports whether an amba_id entry matches a peripheral ID
// as amba_lookup() does.
func ambaMatches(key string, periphid uint32) bool {
	id, mask, ok := ambaKey(key)
	return ok && periphid&mask == id
}

// lookupAMBA returns the first driver, in Drivers order, whose ID table
// matches periphid.
func (c *Catalog) lookupAMBA(periphid uint32) *Driver {
	if c.lazy != nil {
		return c.lazy.lookupAMBA(periphid)
	}
	for i := range c.Drivers {
		for _, k := range c.Drivers[i].Compatibles {
			if ambaMatches(k, periphid) {
				return &c.Drivers[i]
			}
		}
	}
	return nil
}

// lookupAMBA returns the first driver, in Drivers order, whose ID table
// matches periphid: of the index's "amba:" lines, the one whose driver
// starts first in the catalogue.
func (l *lazyDrivers) lookupAMBA(periphid uint32) *Driver {
	best := -1
	for line := range prefixLines(l.index, "amba:") {
		key, offset, _ := strings.Cut(line, " ")
		if !ambaMatches(key, periphid) {
			continue
		}
		n, err := strconv.Atoi(offset)
		if err != nil {
			panic(fmt.Sprintf("kernel: embedded index, %q: %v", line, err))
		}
		if best < 0 || n < best {
			best = n
		}
	}
	if best < 0 {
		return nil
	}
	return l.driverAt(best)
}
