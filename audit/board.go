package audit

import (
	"fmt"
	"strings"

	"boardc.dev/boardc/compiler/basetree"
	"boardc.dev/boardc/compiler/draft"
	"boardc.dev/boardc/compiler/kernel"
)

// Master is what the audit keeps of one DMA master of a board, for the
// findings that compare boards (Sibling).
type Master struct {
	Path       string   `json:"path"`
	Compatible []string `json:"compatible,omitempty"`
	// Driver is the catalogue's driver ("name file"), "" when no driver
	// lists a compatible of the node.
	Driver string `json:"driver,omitempty"`
	// Coherent is of_dma_is_coherent()'s answer; CoherentAt where the
	// deciding dma-coherent is written (file:line).
	Coherent   bool   `json:"coherent"`
	CoherentAt string `json:"coherentAt,omitempty"`
	// Own is true when the node itself carries dma-coherent, not an
	// ancestor: coherency stated for this master.
	Own     bool `json:"own,omitempty"`
	Enabled bool `json:"enabled"`
	// Explicit is true when the node or an ancestor says
	// dma-noncoherent: a stated fact, not an omission.
	Explicit bool `json:"explicit,omitempty"`
	// Source is where the node is written (its compatible's file:line).
	Source string `json:"source,omitempty"`
	Label  string `json:"label,omitempty"`
}

// BoardResult is the audit of one board.
type BoardResult struct {
	Board string `json:"board"`
	// Family is the SoC family of the facts ("" when none), SoC the root
	// compatible that matched it.
	Family string `json:"family,omitempty"`
	SoC    string `json:"soc,omitempty"`
	// Chip is the root's last compatible, the SoC's ("rockchip,rk3399");
	// RAMTop the highest RAM address its memory nodes state, 0 where they
	// leave the size open; RAMSource where.
	Chip      string `json:"chip,omitempty"`
	RAMTop    uint64 `json:"ramTop,omitempty"`
	RAMSource string `json:"ramSource,omitempty"`
	// Masters are the board's DMA masters, as boardc import finds them.
	Masters  []Master  `json:"masters"`
	Findings []Finding `json:"findings"`
	// Err is why the board could not be audited ("" when it was).
	Err string `json:"error,omitempty"`
}

// Board audits one compiled tree, named board in the findings, with the
// driver facts of cat (nil: no driver-based finding).
func Board(t *basetree.Tree, board string, cat *kernel.Catalog) BoardResult {
	r := BoardResult{Board: board}
	root, _ := t.Node("/").Strings("compatible")
	fam, soc := FamilyOf(root)
	if fam != nil {
		r.Family, r.SoC = fam.Name, soc
	}
	d, err := draft.Generate(t, draft.Options{Source: board, DTS: board, Module: "boardc.dev/audit"})
	if err != nil {
		r.Err = err.Error()
		return r
	}
	mem := memoryOf(t)
	if len(root) > 0 {
		r.Chip = root[len(root)-1]
	}
	if mem.Sized {
		for _, rg := range mem.Regions {
			r.RAMTop = max(r.RAMTop, rg[0]+(rg[1]-1))
		}
		r.RAMSource = mem.Source
	}
	for _, dm := range d.Masters() {
		n := t.Node(dm.Path)
		if n == nil {
			continue
		}
		m := Master{Path: dm.Path, Compatible: dm.Compatible, Enabled: available(n), Source: t.PropSource(dm.Path, "compatible")}
		if ls := t.LabelsOf(dm.Path); len(ls) > 0 {
			m.Label = ls[0]
		}
		coherent, at := n.Coherent()
		m.Coherent = coherent
		if at != nil {
			m.Explicit = !coherent
			if coherent {
				m.CoherentAt = t.PropSource(at.Path, "dma-coherent")
				m.Own = at == n
			}
		}
		var drv *kernel.Driver
		var matched string
		if cat != nil {
			drv, matched = cat.Lookup(dm.Compatible)
			if drv != nil {
				m.Driver = drv.Name + " " + drv.Site.File
			}
		}
		r.Masters = append(r.Masters, m)
		if !m.Enabled {
			continue
		}
		if fam != nil {
			r.Findings = append(r.Findings, coherency(board, fam, soc, m)...)
		}
		if drv != nil {
			if f, ok := bounce(t, board, n, m, drv, matched, cat, mem); ok {
				r.Findings = append(r.Findings, f)
			}
		}
	}
	r.Findings = append(r.Findings, ranges(t, board)...)
	return r
}

// finding starts a finding on master m of board.
func finding(c Class, s Severity, board string, m Master) Finding {
	return Finding{Class: c, Severity: s, Board: board, Path: m.Path, Label: m.Label, Compatible: m.Compatible, Source: m.Source}
}

// ref names a node as a change to it is written: &label, else its path.
func ref(m Master) string {
	if m.Label != "" {
		return "&" + m.Label
	}
	return "&{" + m.Path + "}"
}

// fileOf returns the file of a file:line position.
func fileOf(pos string) string {
	if i := strings.LastIndexByte(pos, ':'); i > 0 {
		return pos[:i]
	}
	return pos
}

// coherency returns the Coherency and NonCoherentBus findings of master m
// on a board of SoC soc of family fam.
func coherency(board string, fam *Family, soc string, m Master) []Finding {
	ic, icSrc := fam.InterconnectOf(soc)
	switch {
	case ic == NotCoherent && m.Coherent:
		f := finding(NonCoherentBus, Error, board, m)
		f.Message = fmt.Sprintf("%s is dma-coherent, but the %s interconnect does not snoop the CPU caches: DMA data can be corrupted silently", m.Path, fam.Name)
		f.Evidence = []Evidence{
			{Kind: "dt", Text: "dma-coherent", Source: m.CoherentAt},
			{Kind: "soc", Text: fmt.Sprintf("%s: the interconnect is not I/O-coherent", fam.Name), Source: icSrc},
		}
		f.Suggest = fmt.Sprintf("remove dma-coherent from the node at %s", m.CoherentAt)
		return []Finding{f}
	case m.Coherent || m.Explicit:
		return nil
	}
	src, ok := fam.covers(soc, m.Compatible)
	if !ok {
		return nil
	}
	f := finding(Coherency, Error, board, m)
	f.Message = fmt.Sprintf("%s is not dma-coherent, but it sits on the %s interconnect, which is I/O-coherent for it: the kernel does cache maintenance on every DMA", m.Path, fam.Name)
	f.Evidence = []Evidence{
		{Kind: "dt", Text: fmt.Sprintf("compatible = %s; no dma-coherent on the node or an ancestor (of_dma_is_coherent(), drivers/of/address.c)", quoted(m.Compatible)), Source: m.Source},
		{Kind: "soc", Text: fmt.Sprintf("%s: the interconnect is I/O-coherent", fam.Name), Source: icSrc},
	}
	if src != icSrc {
		f.Evidence = append(f.Evidence, Evidence{Kind: "soc", Text: "this master's coherency verified", Source: src})
	}
	f.Suggest = fmt.Sprintf("add `dma-coherent;` to %s", ref(m))
	if m.Source != "" {
		f.Suggest += " in " + fileOf(m.Source)
	}
	return []Finding{f}
}

// quoted prints compatibles as a device tree writes them.
func quoted(cs []string) string {
	q := make([]string, len(cs))
	for i, c := range cs {
		q[i] = `"` + c + `"`
	}
	return strings.Join(q, ", ")
}

// available reports whether the kernel creates a device for n: n and
// every ancestor enabled. of_platform_device_create_pdata()
// (drivers/of/platform.c) creates none for a disabled node, and
// of_platform_bus_create() then populates nothing below it.
func available(n *basetree.Node) bool {
	for a := n; a != nil; a = a.Parent {
		if !a.Enabled() {
			return false
		}
	}
	return true
}
