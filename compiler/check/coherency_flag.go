package check

import (
	"fmt"
	"strings"

	"boardc.dev/boardc/compiler/diag"
)

// CoherencyFlagAt finds a bus's flagAt that is not the bus's node or an
// ancestor of it, or that is given where there is no flag to place.
var CoherencyFlagAt = &Check{
	Needs: FactBuses,
	Code: diag.Code{ID: "BC0106", Name: "coherency-flag-at", Severity: diag.Error,
		Doc: "A bus's coherency.flagAt names the node whose dma-coherent makes the bus's masters coherent, " +
			"and the fragment writes the flag there instead of on each master. It must be the bus's own " +
			"node or an ancestor of it (\"/\" for the root): of_dma_is_coherent() (drivers/of/address.c) " +
			"walks up from a device, so a flag on any other node reaches none of the bus's masters. It " +
			"means something only on a bus coherent for all masters: on a non-coherent bus or one " +
			"covering verified masters only, no flag covers the whole bus."},
	Run: func(p *Pass) {
		for _, b := range p.Board.SoC.Buses {
			c := b.Coherency
			if c.FlagAt == "" {
				continue
			}
			switch at := c.FlagAt; {
			case !c.Coherent || c.Masters != "all":
				p.Reportf(b.Ref(), c.FlagAtPos, "bus %s is not coherent for all masters: flagAt %s has no flag to place; remove it", b.Key, at)
			case b.Node.Path != "" && at != "/" && at != b.Node.Path && !strings.HasPrefix(b.Node.Path, at+"/"):
				p.Report(b.Ref(), c.FlagAtPos, fmt.Sprintf("flagAt %s is neither bus %s's node %s nor an ancestor of it: of_dma_is_coherent() walks up from each device and would not reach it", at, b.Key, b.Node.Path))
			}
		}
	},
}
