package basetree

import (
	"sort"
	"strings"
)

// CPU is one CPU node under /cpus.
type CPU struct {
	// Index is the logical CPU number Linux gives it: CPU nodes are
	// numbered in tree order (arch/arm64/kernel/smp.c,
	// of_parse_and_init_cpus(), with the boot CPU first, which on every
	// tree here is the first node).
	Index int
	Node  *Node
	// Core is the node's first compatible ("arm,cortex-a72").
	Core string
}

// CPUs returns the CPU nodes (device_type "cpu") under /cpus, in tree
// order, numbered as Linux numbers them.
func (t *Tree) CPUs() []CPU {
	cpus := t.Node("/cpus")
	if cpus == nil {
		return nil
	}
	var out []CPU
	for _, c := range cpus.Children {
		if dt, _ := c.String("device_type"); dt != "cpu" {
			continue
		}
		core, _ := c.String("compatible")
		out = append(out, CPU{Index: len(out), Node: c, Core: core})
	}
	return out
}

// Topology is how the tree groups its CPUs into clusters, and where it
// says so.
type Topology struct {
	// Clusters lists the logical CPU numbers of each cluster, in the
	// order the tree gives them, each sorted.
	Clusters [][]int
	// From says what the grouping comes from: "cpu-map" (the leaf
	// clusters of /cpus/cpu-map, as drivers/base/arch_topology.c
	// parse_dt_topology() reads them), "next-level-cache" (CPUs sharing
	// an L2 cache node, on a tree without cpu-map), or "" (neither: one
	// cluster).
	From string
}

// Topology returns the tree's CPU clusters.
func (t *Tree) Topology() Topology {
	cpus := t.CPUs()
	index := map[*Node]int{}
	for _, c := range cpus {
		index[c.Node] = c.Index
	}
	if cm := t.Node("/cpus/cpu-map"); cm != nil {
		var clusters [][]int
		var walk func(n *Node)
		walk = func(n *Node) {
			var here []int
			for _, c := range n.Children {
				if strings.HasPrefix(c.Name, "core") {
					here = append(here, t.coreCPUs(c, index)...)
				}
			}
			if len(here) > 0 {
				sort.Ints(here)
				clusters = append(clusters, here)
			}
			for _, c := range n.Children {
				if !strings.HasPrefix(c.Name, "core") {
					walk(c)
				}
			}
		}
		walk(cm)
		if len(clusters) > 0 {
			return Topology{Clusters: clusters, From: "cpu-map"}
		}
	}
	var order []uint32
	byCache := map[uint32][]int{}
	for _, c := range cpus {
		ph, ok := c.Node.U32("next-level-cache")
		if !ok {
			order = nil
			break
		}
		if _, seen := byCache[ph]; !seen {
			order = append(order, ph)
		}
		byCache[ph] = append(byCache[ph], c.Index)
	}
	if len(order) > 0 {
		out := Topology{From: "next-level-cache"}
		for _, ph := range order {
			out.Clusters = append(out.Clusters, byCache[ph])
		}
		return out
	}
	all := make([]int, len(cpus))
	for i := range all {
		all[i] = i
	}
	if len(all) == 0 {
		return Topology{}
	}
	return Topology{Clusters: [][]int{all}}
}

// coreCPUs returns the CPUs a cpu-map core node names: its cpu phandle,
// or those of its thread nodes.
func (t *Tree) coreCPUs(core *Node, index map[*Node]int) []int {
	var out []int
	if ph, ok := core.U32("cpu"); ok {
		if n := t.ByPhandle(ph); n != nil {
			if i, ok := index[n]; ok {
				out = append(out, i)
			}
		}
	}
	for _, th := range core.Children {
		out = append(out, t.coreCPUs(th, index)...)
	}
	return out
}
