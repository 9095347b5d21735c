package check

import (
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// CoherentOnNonCoherentBus finds masters declared coherent on a bus that
// cannot snoop the CPU caches.
var CoherentOnNonCoherentBus = &Check{
	Needs: FactBuses | FactMasters,
	Code: diag.Code{ID: "BC0101", Name: "coherent-on-noncoherent-bus", Severity: diag.Error,
		Doc: "A master is declared cache-coherent but sits on an interconnect whose coherency fact says it " +
			"cannot snoop the CPU caches. Marking it dma-coherent would make the kernel skip cache " +
			"maintenance for DMA that does not snoop: data corrupts silently. Fix the bus fact if the " +
			"interconnect is coherent, or drop the master's claim."},
	Run: func(p *Pass) {
		for _, m := range p.Board.SoC.Masters {
			if m.Coherency == nil || !m.Coherency.Coherent || m.Bus.Coherency.Coherent {
				continue
			}
			p.Report(m.Ref(), m.Coherency.Pos,
				"master "+m.Key+" is declared coherent on non-coherent bus "+m.Bus.Key,
				Note(m.Bus.Coherency.Pos, "bus %s is not coherent: %s", m.Bus.Key, m.Bus.Coherency.Source),
				Note(ir.Pos{}, "dma-coherent on a non-snooping bus skips cache maintenance: silent data corruption"))
		}
	},
}
