package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// BoardCompatible finds a board whose compatible names only its SoC.
var BoardCompatible = &Check{
	Needs: FactIdentity,
	Code: diag.Code{ID: "BC0504", Name: "board-compatible", Severity: diag.Error,
		Doc: "The board's compatible list names only compatibles of its SoC. The root compatible of a " +
			"device tree starts with the board's own (\"vendor,board\", then the SoC's: devicetree " +
			"specification 3.2), and tune.sh refuses to run on a system whose root compatible does not " +
			"name this board: with only the SoC's, every board of that SoC passes, and one board's IRQ " +
			"pins and steering are applied to another's hardware. Put the board's own compatible first."},
	Run: func(p *Pass) {
		b := p.Board
		if len(b.Compatible) == 0 {
			return
		}
		soc := map[string]bool{}
		for _, c := range b.SoC.Compatible {
			soc[c] = true
		}
		for _, c := range b.Compatible {
			if !soc[c] {
				return
			}
		}
		p.Report(ir.RefCompatible, b.CompatiblePos, fmt.Sprintf(
			"the board's compatible %q names only SoC %s's compatibles: tune.sh would accept every board of the SoC as this one", b.Compatible, b.SoC.Name))
	},
}
