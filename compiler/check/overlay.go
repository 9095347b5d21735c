package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// OverlayCannotDelete reports the boards whose fragment deletes a property,
// for which no overlay is written.
var OverlayCannotDelete = &Check{
	Needs: FactIdentity | FactBuses | FactMasters,
	Code: diag.Code{ID: "BC0105", Name: "overlay-cannot-delete", Severity: diag.Warning,
		Doc: "A master declared non-coherent gets /delete-property/ dma-coherent; before dma-noncoherent " +
			"in the .dtsi, because of_dma_is_coherent() (drivers/of/address.c) answers true on an " +
			"upstream dma-coherent before it looks at dma-noncoherent: without the deletion the opt-out " +
			"has no effect. A device-tree overlay cannot delete a property (of_overlay_fdt_apply() and " +
			"fdtoverlay only add and change them), so for such a board no .dtso is written rather than " +
			"one that silently leaves the master coherent. Include the .dtsi at the end of the board's " +
			".dts instead."},
	Run: func(p *Pass) {
		for _, m := range p.Board.SoC.OverlayDeletes() {
			p.Report(m.Ref(), m.Coherency.Pos,
				fmt.Sprintf("no overlay for board %s: master %s's opt-out deletes dma-coherent, which an overlay cannot", p.Board.Name, m.Key),
				Note(ir.Pos{}, "include %s.dtsi at the end of the board's .dts: it deletes the property (of_dma_is_coherent() answers on dma-coherent first)", p.Board.Name))
		}
	},
}
