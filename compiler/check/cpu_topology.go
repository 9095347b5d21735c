package check

import (
	"fmt"
	"slices"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// CPUTopology checks that the clusters number the CPUs 0..N-1, each once.
var CPUTopology = &Check{
	Needs: FactCPUs,
	Code: diag.Code{ID: "BC0401", Name: "cpu-topology", Severity: diag.Error,
		Doc: "The clusters must list every logical CPU exactly once, numbered 0..N-1 as Linux numbers " +
			"them, and a cluster's cores may name only its own CPUs, each once. Stash destinations, DPIO affinity and every CPU mask are computed from this list; " +
			"a gap or a duplicate puts work on a CPU that does not exist."},
	Run: func(p *Pass) {
		seen := map[int]bool{}
		n := p.Board.SoC.NumCPUs()
		for ci, c := range p.Board.SoC.Clusters {
			for _, cpu := range c.CPUs {
				switch {
				case seen[cpu]:
					p.Report(ir.ClusterRef(ci), c.Pos, fmt.Sprintf("CPU %d is listed in more than one place", cpu))
				case cpu >= n:
					p.Report(ir.ClusterRef(ci), c.Pos, fmt.Sprintf("CPU %d is out of range: the clusters hold %d CPUs, numbered 0..%d", cpu, n, n-1))
				}
				seen[cpu] = true
			}
			named := map[int]bool{}
			for _, cc := range c.Cores {
				for _, cpu := range cc.CPUs {
					switch {
					case !slices.Contains(c.CPUs, cpu):
						p.Report(ir.ClusterRef(ci), cc.Pos, fmt.Sprintf("cluster %d: cores names CPU %d as %q, but the cluster's cpus do not hold it", ci, cpu, cc.Core))
					case named[cpu]:
						p.Report(ir.ClusterRef(ci), cc.Pos, fmt.Sprintf("cluster %d: cores names CPU %d more than once", ci, cpu))
					}
					named[cpu] = true
				}
			}
		}
	},
}
