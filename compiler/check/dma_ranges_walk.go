package check

import (
	"fmt"
	"sort"
	"strings"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// DMARangesWalk says where of_dma_get_range() stops short of a described
// translation, and where a stated identity carries it on.
var DMARangesWalk = &Check{
	Needs: FactBuses | FactMasters,
	Code: diag.Code{ID: "BC0205", Name: "dma-ranges-walk", Severity: diag.Info,
		Doc: "of_dma_get_range() (drivers/of/address.c), called by of_dma_configure_id() " +
			"(drivers/of/device.c), walks up from a master's bus: a missing dma-ranges on that first bus " +
			"is passed over, an empty one is an identity and the walk goes on, and past the first bus a " +
			"missing one ends the walk with no translation, so the kernel sets no bus_dma_limit. When a " +
			"bus between a master and a bus with dmaRanges states none, that translation does not reach " +
			"the master, and boardc says so instead of adding a dma-ranges the description does not " +
			"state: to carry the translation down, state dmaRanges on that bus (an empty list for an " +
			"identity). When a bus does state an empty one there, this says which masters it carries the " +
			"translation to and the limit the kernel then sets."},
	Run: func(p *Pass) {
		stops, bridges := map[walkKey][]string{}, map[walkKey][]string{}
		for _, m := range p.Board.SoC.Masters {
			if !m.Enabled {
				continue
			}
			chain := m.BusPath()
			top := -1
			for i, b := range chain {
				if len(b.DMARanges) > 0 {
					top = i
					break
				}
			}
			for i := 1; i < top; i++ {
				b := chain[i]
				if !b.HasDMARanges {
					k := walkKey{b, chain[top]}
					stops[k] = append(stops[k], m.Key)
					break
				}
				k := walkKey{b, chain[top]}
				bridges[k] = append(bridges[k], m.Key)
			}
		}
		for _, k := range sortedKeys(stops) {
			p.Report(k.at.Ref(), k.at.Pos,
				fmt.Sprintf("bus %s states no dmaRanges: of_dma_get_range() stops there, so the dma-ranges of bus %s do not reach %s, and the kernel sets no bus_dma_limit",
					k.at.Key, k.top.Key, masterList(stops[k])),
				Note(k.top.DMARangesPos, "the dma-ranges of bus %s", k.top.Key),
				Note(ir.Pos{}, "the fragment writes no dma-ranges the description does not state; to carry the translation down, state dmaRanges on bus %s (an empty list for an identity)", k.at.Key))
		}
		for _, k := range sortedKeys(bridges) {
			p.Report(k.at.Ref(), k.at.DMARangesPos.Or(k.at.Pos),
				fmt.Sprintf("bus %s: its empty dmaRanges carries of_dma_get_range() on to the dma-ranges of bus %s for %s; the fragment writes an empty dma-ranges on %s",
					k.at.Key, k.top.Key, masterList(bridges[k]), k.at.Node.Path),
				Note(k.top.DMARangesPos, "the kernel sets their bus_dma_limit from the dma-ranges of bus %s", k.top.Key))
		}
	},
}

// DMARangesEmptyCells finds an empty dma-ranges that dtc warns about.
var DMARangesEmptyCells = &Check{
	Needs: FactRoot | FactBuses,
	Code: diag.Code{ID: "BC0206", Name: "dma-ranges-empty-cells", Severity: diag.Warning,
		Doc: "A bus states an empty dmaRanges (an identity) but its #address-cells or #size-cells differ " +
			"from its parent's. The fragment writes the empty dma-ranges the description states, which " +
			"the kernel reads as an identity whatever the cell counts (of_dma_get_range(), " +
			"drivers/of/address.c), but dtc warns on it (dma_ranges_format). boardc writes no 1:1 window " +
			"in its place: a non-empty dma-ranges ends the kernel's walk there and sets a bus_dma_limit " +
			"the description does not state."},
	Run: func(p *Pass) {
		soc := &p.Board.SoC
		for _, b := range soc.Buses {
			if !b.HasDMARanges || len(b.DMARanges) > 0 || b.Node.Path == "/" {
				continue
			}
			pa, ps := soc.ParentCells(b)
			if pa == b.AddressCells && ps == b.SizeCells {
				continue
			}
			p.Report(b.Ref(), b.DMARangesPos.Or(b.Pos),
				fmt.Sprintf("bus %s: an empty dma-ranges with cell counts <%d %d>, not its parent's <%d %d>: dtc warns (dma_ranges_format)",
					b.Key, b.AddressCells, b.SizeCells, pa, ps),
				Note(b.CellsPos, "cell counts of bus %s", b.Key))
		}
	},
}

// walkKey is a bus where the walk stops or goes on, and the translating
// bus above it.
type walkKey struct{ at, top *ir.Bus }

// sortedKeys returns the keys of m by the node path of the bus they are
// about, then of the translating bus.
func sortedKeys(m map[walkKey][]string) []walkKey {
	out := make([]walkKey, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.at.Node.Path != b.at.Node.Path {
			return a.at.Node.Path < b.at.Node.Path
		}
		return a.top.Node.Path < b.top.Node.Path
	})
	return out
}

// masterList names masters, sorted: "master a", "masters a, b".
func masterList(keys []string) string {
	sort.Strings(keys)
	if len(keys) == 1 {
		return "master " + keys[0]
	}
	return "masters " + strings.Join(keys, ", ")
}
