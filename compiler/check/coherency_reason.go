package check

import "boardc.dev/boardc/compiler/diag"

// CoherencyOverrideReason finds master-level coherency facts that override
// or extend the interconnect's fact without saying why or who verified it.
var CoherencyOverrideReason = &Check{
	Needs: FactBuses | FactMasters,
	Code: diag.Code{ID: "BC0102", Name: "coherency-override-reason", Severity: diag.Error,
		Doc: "A master's own coherency fact changes what it inherits from its interconnect, so it must be " +
			"justified: opting out of a coherent interconnect needs a reason, and marking a master coherent " +
			"on an interconnect whose coherency covers only verified masters needs the source that verified " +
			"it (a patch, a datasheet section)."},
	Run: func(p *Pass) {
		for _, m := range p.Board.SoC.Masters {
			c := m.Coherency
			if c == nil || !m.Bus.Coherency.Coherent {
				continue
			}
			switch {
			case !c.Coherent && c.Reason == "":
				p.Report(m.Ref(), c.Pos,
					"master "+m.Key+" opts out of coherent bus "+m.Bus.Key+" without a reason",
					Note(m.Bus.Coherency.Pos, "bus %s is coherent: %s", m.Bus.Key, m.Bus.Coherency.Source),
					Note(c.Pos, "add coherency.reason saying why this master's port does not snoop"))
			case c.Coherent && c.Source == "" && c.Reason == "":
				p.Report(m.Ref(), c.Pos,
					"master "+m.Key+" is marked coherent without a source",
					Note(c.Pos, "add coherency.source naming who verified the master's coherency"))
			}
		}
	},
}
