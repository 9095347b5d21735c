package check

import (
	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// eip97Cost is what leaving dma-coherent off the Armada 3720 EIP97 cost,
// measured by the patch that added it ("arm64: dts: marvell: armada-37xx:
// mark EIP97 as dma-coherent", 2026).
const eip97Cost = "on Armada 3720 the EIP97 without dma-coherent ran +21 % (DES-ECB, 16 B) to +326 % " +
	"(AES-GCM-128, 64 B) slower: every DMA buffer was cleaned and invalidated by the CPU"

// CoherencyOptOut finds masters that opt out of a coherent interconnect.
var CoherencyOptOut = &Check{
	Code: "BC0103", Name: "coherency-opt-out", Severity: diag.Warning,
	Doc: "A master on a coherent interconnect is declared non-coherent, so the kernel does cache " +
		"maintenance on every DMA buffer. That is right when the master's port really does not snoop, " +
		"and costly when it does: " + eip97Cost + ". Waive the finding with the reason once verified.",
	Run: func(p *Pass) {
		for _, m := range p.Board.SoC.Masters {
			if m.Coherence() != ir.OptedOut {
				continue
			}
			p.Report(m.Ref, m.Coherency.Pos,
				"master "+m.Key+" opts out of coherent bus "+m.Bus.Key+": the kernel will do cache maintenance on every DMA",
				Note(m.Bus.Coherency.Pos, "bus %s is coherent: %s", m.Bus.Key, m.Bus.Coherency.Source),
				Note(ir.Pos{}, "%s", eip97Cost))
		}
	},
}

// CoherencyUnverified reports masters on an interconnect that is coherent
// for verified masters only, and that carry no verification.
var CoherencyUnverified = &Check{
	Code: "BC0104", Name: "coherency-unverified", Severity: diag.Info,
	Doc: "The interconnect can snoop the CPU caches, but its fact covers only masters verified one by " +
		"one, and this master has not been. It is left non-coherent (never marked silently); verifying " +
		"its port and adding coherency: {coherent: true, source: ...} may be worth a lot: " + eip97Cost + ".",
	Run: func(p *Pass) {
		for _, m := range p.Board.SoC.Masters {
			if m.Coherence() != ir.Unverified {
				continue
			}
			p.Report(m.Ref, m.BusPos,
				"master "+m.Key+" sits on coherent bus "+m.Bus.Key+" but its coherency is unverified; left non-coherent",
				Note(m.Bus.Coherency.Pos, "bus %s: %s", m.Bus.Key, m.Bus.Coherency.Source),
				Note(ir.Pos{}, "opportunity: %s", eip97Cost))
		}
	},
}
