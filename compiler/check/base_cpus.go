package check

import (
	"fmt"
	"slices"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// BaseCPUs finds a CPU topology that differs from the base tree's.
var BaseCPUs = &Check{
	Needs: FactCPUs,
	Code: diag.Code{ID: "BC0605", Name: "base-cpus", Severity: diag.Error,
		Doc: "The description's CPU count, clusters or core types differ from the base tree's /cpus: the " +
			"core of each CPU (its cluster's core, or the entry of cores naming it) against the first " +
			"compatible of its CPU node; the " +
			"CPU nodes (device_type \"cpu\", numbered in tree order as arch/arm64/kernel/smp.c numbers " +
			"them), grouped by cpu-map's leaf clusters (drivers/base/arch_topology.c), or by shared " +
			"next-level-cache where there is no cpu-map. IRQ pinning, steering masks, DPIO tables and " +
			"stash destinations are computed from the description's topology; on other CPUs they " +
			"pin to CPUs that do not exist or split a cache. A tree that says nothing about clusters " +
			"is not compared on them."},
	NeedsBase: true,
	Run: func(p *Pass) {
		t := p.Base
		s := &p.Board.SoC
		cpus := t.CPUs()
		pos := s.Pos
		if len(s.Clusters) > 0 {
			pos = s.Clusters[0].Pos
		}
		if len(cpus) != s.NumCPUs() {
			p.Report(ir.RefCPUs, pos,
				fmt.Sprintf("the description has %d CPUs, the base tree's /cpus has %d", s.NumCPUs(), len(cpus)),
				inTree(t, "/cpus"))
			return
		}
		for i, c := range s.Clusters {
			for _, cpu := range c.CPUs {
				if core := c.CoreOf(cpu); cpu < len(cpus) && cpus[cpu].Core != "" && cpus[cpu].Core != core {
					p.Report(ir.ClusterRef(i), c.Pos,
						fmt.Sprintf("cluster %d: CPU %d is %q in the base tree, not %q", i, cpu, cpus[cpu].Core, core),
						inTree(t, cpus[cpu].Node.Path))
					break
				}
			}
		}
		topo := t.Topology()
		if topo.From == "" {
			return
		}
		var mine [][]int
		for _, c := range s.Clusters {
			cs := slices.Clone(c.CPUs)
			slices.Sort(cs)
			mine = append(mine, cs)
		}
		// The same partition in another order is the same topology.
		theirs := slices.Clone(topo.Clusters)
		slices.SortFunc(mine, slices.Compare)
		slices.SortFunc(theirs, slices.Compare)
		if !slices.EqualFunc(mine, theirs, slices.Equal) {
			p.Report(ir.RefCPUs, pos,
				fmt.Sprintf("the clusters %v differ from the base tree's %v (from its %s)", mine, theirs, topo.From),
				inTree(t, "/cpus"))
		}
	},
}
