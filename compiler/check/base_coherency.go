package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// BaseCoherency finds masters whose coherency differs from upstream's.
var BaseCoherency = &Check{
	Needs: FactBuses | FactMasters,
	Code: diag.Code{ID: "BC0607", Name: "base-coherency", Severity: diag.Warning,
		Doc: "The description and the base tree disagree on whether a master is DMA-coherent, as " +
			"of_dma_is_coherent() (drivers/of/address.c) answers for its node: walking up from the " +
			"node, the first dma-coherent or dma-noncoherent decides. The message says which one the " +
			"built tree has. A warning where the built tree contradicts the description: upstream " +
			"marks the node (or a bus above it) dma-coherent and the description neither marks it nor " +
			"opts it out, so the fragment leaves upstream's dma-coherent in place; state a verified " +
			"fact, or opt out with a reason. Info where the built tree follows the description: the " +
			"fragment adds dma-coherent that upstream lacks, or an opt-out deletes upstream's."},
	NeedsBase: true,
	Run: func(p *Pass) {
		t := p.Base
		for _, m := range p.Board.SoC.Masters {
			n := baseNode(t, m.Node)
			if n == nil || m.DMADeviceKey != "" {
				continue // the DMA device's node, compared as its own master, decides
			}
			up, by := n.Coherent()
			mine := m.Coherent()
			if up == mine {
				continue
			}
			where := "its node"
			if by != nil && by != n {
				where = "bus node " + by.Path
			}
			notes := []diag.Note{inTree(t, n.Path)}
			if by != nil {
				notes = append(notes, setAt(t, by.Path, map[bool]string{true: "dma-coherent", false: "dma-noncoherent"}[up])...)
			}
			pos := m.Pos
			if m.Coherency != nil {
				pos = m.Coherency.Pos
			}
			switch {
			case up && m.DeletesCoherent():
				p.ReportSeverity(diag.Info, m.Ref(), pos,
					fmt.Sprintf("master %s: upstream marks %s dma-coherent and the description opts out; the built tree has it non-coherent (the fragment deletes dma-coherent and writes dma-noncoherent)", m.Key, where),
					notes...)
			case up:
				p.Report(m.Ref(), pos,
					fmt.Sprintf("master %s: upstream marks %s dma-coherent and the description does not (%s); the fragment leaves it, so the built tree has it coherent",
						m.Key, where, coherenceWord(m)),
					append(notes, diag.Note{Message: "state coherency: {coherent: true, source: ...} if upstream is right, or {coherent: false, reason: ...} to opt out"})...)
			default:
				p.ReportSeverity(diag.Info, m.Ref(), pos,
					fmt.Sprintf("master %s: the description marks it coherent and upstream does not; the built tree has it coherent (the fragment adds dma-coherent)", m.Key),
					notes...)
			}
		}
	},
}

// coherenceWord says why the description does not mark m coherent.
func coherenceWord(m *ir.Master) string {
	switch m.Coherence() {
	case ir.NonCoherentBus:
		return "bus " + m.Bus.Key + " is not coherent"
	case ir.Unverified:
		return "bus " + m.Bus.Key + " is coherent for verified masters only, and the master has no verified fact"
	}
	return "it is not coherent"
}
