package check

import (
	"slices"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// The one measurement of what dma-coherent is worth: the patch that marked
// the Armada 3720's EIP97 crypto engine coherent ("arm64: dts: marvell:
// armada-37xx: mark EIP97 as dma-coherent", 2026) measured its throughput
// with the property against without it. The gains range over its table
// (algorithms and lengths) from +3 % to +326 %, the largest for
// AES-GCM-128 at 64 B in its row "MB 8".
const (
	// eip97Gain states the measurement, for the engine it was made on.
	eip97Gain = "measured on Armada 3720's EIP97 crypto engine: with dma-coherent, throughput rose by " +
		"+3 % to +326 % (AES-GCM-128, 64 B: +326 %), since the CPU no longer cleans and invalidates " +
		"every DMA buffer"
	// eip97Elsewhere says what the measurement is to another master.
	eip97Elsewhere = "not measured for this master; the only measurement is of Armada 3720's EIP97 crypto " +
		"engine, whose throughput rose by +3 % to +326 % with dma-coherent"
)

// eip97Compatibles are the compatibles of the EIP97 engine as Armada 37xx
// names it (armada-37xx.dtsi crypto).
var eip97Compatibles = []string{"inside-secure,safexcel-eip97ies", "inside-secure,safexcel-eip97"}

// armada3720 are the SoC compatibles of the SoC the EIP97 figure was
// measured on.
var armada3720 = []string{"marvell,armada3720", "marvell,armada3710"}

// costNote is what leaving m non-coherent is known to cost: the EIP97
// figure on the engine and SoC it was measured on, and for any other
// master only that it is a measurement of that engine.
func costNote(soc *ir.SoC, m *ir.Master) string {
	if hasAny(m.Compatible, eip97Compatibles) && hasAny(soc.Compatible, armada3720) {
		return eip97Gain
	}
	return eip97Elsewhere
}

func hasAny(have, want []string) bool {
	for _, w := range want {
		if slices.Contains(have, w) {
			return true
		}
	}
	return false
}

// CoherencyOptOut finds masters that opt out of a coherent interconnect.
var CoherencyOptOut = &Check{
	Needs: FactBuses | FactMasters,
	Code: diag.Code{ID: "BC0103", Name: "coherency-opt-out", Severity: diag.Warning,
		Doc: "A master on a coherent interconnect is declared non-coherent, so the kernel does cache " +
			"maintenance on every DMA buffer. That is right when the master's port really does not snoop, " +
			"and costly when it does; how costly was measured once, on Armada 3720's EIP97 crypto engine, " +
			"whose throughput rose by +3 % to +326 % when it was marked dma-coherent. Other masters and " +
			"other SoCs are not measured. Waive the finding with the reason once verified."},
	Run: func(p *Pass) {
		for _, m := range p.Board.SoC.Masters {
			if m.Coherence() != ir.OptedOut || m.DMADeviceKey != "" {
				continue
			}
			p.Report(m.Ref(), m.Coherency.Pos,
				"master "+m.Key+" opts out of coherent bus "+m.Bus.Key+": the kernel will do cache maintenance on every DMA",
				Note(m.Bus.Coherency.Pos, "bus %s is coherent: %s", m.Bus.Key, m.Bus.Coherency.Source),
				Note(ir.Pos{}, "cost: %s", costNote(&p.Board.SoC, m)))
		}
	},
}

// CoherencyUnverified reports masters on an interconnect that is coherent
// for verified masters only, and that carry no verification.
var CoherencyUnverified = &Check{
	Needs: FactBuses | FactMasters,
	Code: diag.Code{ID: "BC0104", Name: "coherency-unverified", Severity: diag.Info,
		Doc: "The interconnect can snoop the CPU caches, but its fact covers only masters verified one by " +
			"one, and this master has not been. It is left non-coherent (never marked silently); verifying " +
			"its port and adding coherency: {coherent: true, source: ...} may be worth a lot: on Armada " +
			"3720, the one place it was measured, marking the EIP97 crypto engine dma-coherent raised its " +
			"throughput by +3 % to +326 %. What it is worth for another master is not measured."},
	Run: func(p *Pass) {
		for _, m := range p.Board.SoC.Masters {
			if m.Coherence() != ir.Unverified || m.DMADeviceKey != "" {
				continue
			}
			p.Report(m.Ref(), m.BusPos,
				"master "+m.Key+" sits on coherent bus "+m.Bus.Key+" but its coherency is unverified; left non-coherent",
				Note(m.Bus.Coherency.Pos, "bus %s: %s", m.Bus.Key, m.Bus.Coherency.Source),
				Note(ir.Pos{}, "opportunity: %s", costNote(&p.Board.SoC, m)))
		}
	},
}
