package check

import (
	"fmt"
	"slices"
	"strings"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// kernelStash is what dpaa2_dpio_get_cluster_sdest()
// (drivers/soc/fsl/dpio/dpio-driver.c) uses per SoC family, by the SoC
// compatible that names the family.
var kernelStash = map[string]struct {
	family     string
	base, size int
}{
	"fsl,ls1088a": {"LS1088A", 2, 4},
	"fsl,ls2080a": {"LS2080A", 0, 2},
	"fsl,ls2088a": {"LS2088A", 0, 2},
	"fsl,lx2160a": {"LX2160A", 0, 2},
}

// StashClusters checks the stash destination formula against the clusters.
var StashClusters = &Check{
	Needs: FactCPUs | FactDPAA2 | FactIdentity,
	Code: diag.Code{ID: "BC0303", Name: "dpio-stash-clusters", Severity: diag.Error,
		Doc: "A DPIO stashes the frames it dequeues into the cache of one cluster, destination " +
			"clusterBase + cpu / clusterSize of the CPU it serves. With soc.cpus.clusters, each destination " +
			"must be that of exactly one cluster, and the CPUs of one cluster must share one destination; " +
			"otherwise frames are stashed into another cluster's cache, where the CPU that processes " +
			"them misses. The kernel does not read the description: dpaa2_dpio_get_cluster_sdest() " +
			"(drivers/soc/fsl/dpio/dpio-driver.c) hard-codes clusterBase 2, clusterSize 4 for LS1088A " +
			"(two clusters of four) and 0, 2 for LS2080A, LS2088A and LX2160A (clusters of two), " +
			"matched by soc_device_match() on the SoC family, and sets no stash destination on any " +
			"other SoC (\"unknown SoC version\"). LS2088A's 0, 2 on LS1088A's two clusters of four " +
			"splits each cluster over two destinations."},
	Run: func(p *Pass) {
		d := p.Board.SoC.DPAA2
		if d == nil || d.StashClusterSize <= 0 {
			return
		}
		clusterOf := map[int]int{}
		for i, c := range p.Board.SoC.Clusters {
			for _, cpu := range c.CPUs {
				if _, ok := clusterOf[cpu]; !ok {
					clusterOf[cpu] = i
				}
			}
		}
		// The destinations of each cluster's DPIOs and the clusters of
		// each destination, in DPIO order.
		dests := map[int][]int{}
		clusters := map[int][]int{}
		cpusOf := map[int][]int{} // destination -> CPUs
		var destOrder []int
		for _, io := range d.DPIOs {
			ci, ok := clusterOf[io.CPU]
			if !ok {
				continue // BC0402 reports a CPU out of range
			}
			dest := d.StashDest(io.CPU)
			if !slices.Contains(dests[ci], dest) {
				dests[ci] = append(dests[ci], dest)
			}
			if _, seen := clusters[dest]; !seen {
				destOrder = append(destOrder, dest)
			}
			if !slices.Contains(clusters[dest], ci) {
				clusters[dest] = append(clusters[dest], ci)
			}
			cpusOf[dest] = append(cpusOf[dest], io.CPU)
		}
		kernel := kernelNote(p.Board.SoC.Compatible, d)
		formula := fmt.Sprintf("stash destination: %d + cpu / %d", d.StashClusterBase, d.StashClusterSize)
		for ci, c := range p.Board.SoC.Clusters {
			if len(dests[ci]) < 2 {
				continue
			}
			notes := []diag.Note{Note(c.Pos, "cluster %d: CPUs %s", ci, ir.CPUList(c.CPUs)), Note(d.StashPos, "%s", formula)}
			p.Report(ir.RefDPAA2, d.StashPos,
				fmt.Sprintf("clusterSize %d splits cluster %d (CPUs %s): its DPIOs stash to destinations %s, and CPUs of one cluster must share one",
					d.StashClusterSize, ci, ir.CPUList(c.CPUs), joinInts(dests[ci])),
				append(notes, kernel...)...)
		}
		for _, dest := range destOrder {
			cs := clusters[dest]
			if len(cs) < 2 {
				continue
			}
			var notes []diag.Note
			for _, ci := range cs {
				c := p.Board.SoC.Clusters[ci]
				notes = append(notes, Note(c.Pos, "cluster %d: CPUs %s", ci, ir.CPUList(c.CPUs)))
			}
			notes = append(notes, Note(d.StashPos, "%s", formula))
			p.Report(ir.RefDPAA2, d.StashPos,
				fmt.Sprintf("stash destination %d serves CPUs %s of clusters %s, but a destination is one cluster's cache: the other clusters' CPUs miss the frames stashed for them",
					dest, ir.CPUList(cpusOf[dest]), joinInts(cs)),
				append(notes, kernel...)...)
		}
	},
}

// kernelNote says what the kernel uses on the SoC, when its compatible
// names a family dpaa2_dpio_get_cluster_sdest() knows and the description
// differs from it.
func kernelNote(compatible []string, d *ir.DPAA2) []diag.Note {
	for _, c := range compatible {
		k, ok := kernelStash[c]
		if !ok || (k.base == d.StashClusterBase && k.size == d.StashClusterSize) {
			continue
		}
		return []diag.Note{Note(ir.Pos{}, "on %s, dpaa2_dpio_get_cluster_sdest() (drivers/soc/fsl/dpio/dpio-driver.c) uses clusterBase %d, clusterSize %d", k.family, k.base, k.size)}
	}
	return nil
}

// joinInts formats ns as "a, b and c".
func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
