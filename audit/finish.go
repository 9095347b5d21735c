package audit

import (
	"fmt"
	"sort"
	"strings"
)

// occurrence is a coherent master of a driver on one SoC of a family.
type occurrence struct {
	board, soc, path, at string
}

// driverKey identifies the IP block of a master across SoCs: the driver
// that binds it, else its most generic compatible.
func driverKey(m Master) string {
	if m.Driver != "" {
		return m.Driver
	}
	if len(m.Compatible) > 0 {
		return m.Compatible[len(m.Compatible)-1]
	}
	return ""
}

// Finish returns every board's findings with those that need every
// board, ranked (Sort).
//
// A Bounce finding on a board whose tree leaves the RAM size open is
// kept only where a board of the same SoC (the root's last compatible)
// states RAM above the device's reach, with that board as evidence.
//
// A Sibling finding is an enabled master not coherent (and not stated
// dma-noncoherent) whose driver binds a master on another SoC of the same
// family that carries dma-coherent itself (a flag on a whole bus, as
// fsl-ls1043a.dtsi's soc has, states no one master's port), on a SoC
// whose interconnect the facts state I/O-coherent (InterconnectOf),
// where the board has no Coherency finding for it already. Without that
// fact the finding would claim what no source says, and is not made.
func Finish(rs []BoardResult) []Finding {
	// family -> driver key -> SoC -> first coherent occurrence, boards
	// in the order given.
	coh := map[string]map[string]map[string]occurrence{}
	for _, r := range rs {
		if r.Family == "" {
			continue
		}
		for _, m := range r.Masters {
			k := driverKey(m)
			if !m.Own || !m.Enabled || k == "" {
				continue
			}
			if coh[r.Family] == nil {
				coh[r.Family] = map[string]map[string]occurrence{}
			}
			if coh[r.Family][k] == nil {
				coh[r.Family][k] = map[string]occurrence{}
			}
			if _, ok := coh[r.Family][k][r.SoC]; !ok {
				coh[r.Family][k][r.SoC] = occurrence{r.Board, r.SoC, m.Path, m.CoherentAt}
			}
		}
	}
	// The highest RAM any board of a SoC states, and where.
	type ram struct {
		top          uint64
		board, where string
	}
	rams := map[string]ram{}
	for _, r := range rs {
		if r.RAMTop > rams[r.Chip].top {
			rams[r.Chip] = ram{r.RAMTop, r.Board, r.RAMSource}
		}
	}
	var out []Finding
	for _, r := range rs {
		for _, f := range r.Findings {
			if f.above == 0 {
				out = append(out, f)
				continue
			}
			// The board leaves its RAM size open: a board of the same
			// SoC that states RAM above the reach shows the SoC has
			// such RAM; without one, the finding may never happen.
			m, ok := rams[r.Chip]
			if !ok || m.top < f.above {
				continue
			}
			f.Evidence = append(f.Evidence, Evidence{Kind: "memory", Text: fmt.Sprintf("%s, a board of the same SoC (%s), has RAM up to %#x", m.board, r.Chip, m.top), Source: m.where})
			out = append(out, f)
		}
		fam := familyNamed(r.Family)
		if fam == nil {
			continue
		}
		ic, icSrc := fam.InterconnectOf(r.SoC)
		if ic != Coherent {
			continue
		}
		reported := map[string]bool{}
		for _, f := range r.Findings {
			if f.Class == Coherency {
				reported[f.Path] = true
			}
		}
		for _, m := range r.Masters {
			if m.Coherent || m.Explicit || !m.Enabled || reported[m.Path] {
				continue
			}
			var sibs []occurrence
			for soc, o := range coh[r.Family][driverKey(m)] {
				if soc != r.SoC {
					sibs = append(sibs, o)
				}
			}
			if len(sibs) == 0 {
				continue
			}
			sort.Slice(sibs, func(i, j int) bool { return sibs[i].soc < sibs[j].soc })
			f := finding(Sibling, Note, r.Board, m)
			socs := ""
			for i, o := range sibs {
				if i > 0 {
					socs += ", "
				}
				socs += o.soc
			}
			f.Message = fmt.Sprintf("%s is not dma-coherent on %s, but the same IP block (%s) is on %s of the %s family", m.Path, r.SoC, driverKey(m), socs, r.Family)
			f.Evidence = []Evidence{{Kind: "dt", Text: "no dma-coherent on the node or an ancestor", Source: m.Source}}
			f.Evidence = append(f.Evidence, Evidence{Kind: "soc", Text: fmt.Sprintf("%s: the interconnect is I/O-coherent", r.SoC), Source: icSrc})
			for _, o := range sibs {
				f.Evidence = append(f.Evidence, Evidence{Kind: "sibling", Text: fmt.Sprintf("dma-coherent on %s of %s (%s)", o.path, o.board, o.soc), Source: o.at})
			}
			if name, _, _ := strings.Cut(m.Driver, " "); Snoops[name] != "" {
				f.Evidence = append(f.Evidence, Evidence{Kind: "driver", Text: "the block snoops only when the node is dma-coherent", Source: Snoops[name]})
			}
			f.Suggest = fmt.Sprintf("check in the %s reference manual whether this master's port snoops; if so, add `dma-coherent;` to %s", r.SoC, ref(m))
			if m.Source != "" {
				f.Suggest += " in " + fileOf(m.Source)
			}
			out = append(out, f)
		}
	}
	Sort(out)
	return out
}
