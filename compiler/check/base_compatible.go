package check

import (
	"fmt"
	"slices"
	"strings"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// BaseCompatible finds compatibles that differ from the base tree's.
var BaseCompatible = &Check{
	Needs: FactMasters,
	Code: diag.Code{ID: "BC0602", Name: "base-compatible", Severity: diag.Error,
		Doc: "A master's compatible list, or the board's, differs from the node's compatible in the " +
			"base tree. The generated C chooses DMA widths by compatible and the verifier module finds " +
			"devices by it; a compatible the running tree does not have matches nothing. The board's " +
			"list is compared with the root node's."},
	NeedsBase: true,
	Run: func(p *Pass) {
		t := p.Base
		quote := func(ss []string) string { return `["` + strings.Join(ss, `", "`) + `"]` }
		if got, ok := t.Node("/").Strings("compatible"); ok && !slices.Equal(got, p.Board.Compatible) {
			p.Report(ir.RefCompatible, p.Board.CompatiblePos,
				fmt.Sprintf("the board's compatible differs from the base tree's root: it is %s there", quote(got)),
				inTree(t, "/"))
		}
		for _, m := range p.Board.SoC.Masters {
			n := baseNode(t, m.Node)
			if n == nil {
				continue
			}
			got, _ := n.Strings("compatible")
			if !slices.Equal(got, m.Compatible) {
				p.Report(m.Ref(), m.CompatiblePos.Or(m.Pos),
					fmt.Sprintf("master %s: compatible differs from the base tree's: it is %s there", m.Key, quote(got)),
					inTree(t, n.Path))
			}
		}
	},
}
