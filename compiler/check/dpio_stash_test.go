package check

import (
	"testing"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// only returns the findings of one code.
func only(l diag.List, code string) diag.List {
	var out diag.List
	for _, d := range l {
		if d.Code == code {
			out = append(out, d)
		}
	}
	return out
}

// eightCPUs gives the clean board two clusters of four CPUs, one DPIO per
// CPU, and the stash formula base/size, declared at line 28.
func eightCPUs(b *ir.Board, base, size int) {
	b.SoC.Clusters = []ir.Cluster{{CPUs: []int{0, 1, 2, 3}, Pos: pos(4)}, {CPUs: []int{4, 5, 6, 7}, Pos: pos(5)}}
	b.SoC.DPAA2.DPIOs = nil
	for c := range 8 {
		b.SoC.DPAA2.DPIOs = append(b.SoC.DPAA2.DPIOs, ir.DPIO{ID: c, CPU: c, Pos: pos(30 + c)})
	}
	b.SoC.DPAA2.StashClusterBase, b.SoC.DPAA2.StashClusterSize, b.SoC.DPAA2.StashPos = base, size, pos(28)
}

func TestStashClusters(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(b *ir.Board)
		want []string // messages, in order
		note string   // a note one finding must carry
	}{
		{"LS1088A's own values", func(b *ir.Board) {
			b.SoC.Compatible = []string{"fsl,ls1088a"}
			eightCPUs(b, 2, 4)
		}, nil, ""},
		{"LS2088A's values on LS1088A's clusters", func(b *ir.Board) {
			b.SoC.Compatible = []string{"fsl,ls1088a"}
			eightCPUs(b, 0, 2)
		}, []string{
			"clusterSize 2 splits cluster 0 (CPUs 0-3): its DPIOs stash to destinations 0 and 1, and CPUs of one cluster must share one",
			"clusterSize 2 splits cluster 1 (CPUs 4-7): its DPIOs stash to destinations 2 and 3, and CPUs of one cluster must share one",
		}, "on LS1088A, dpaa2_dpio_get_cluster_sdest() (drivers/soc/fsl/dpio/dpio-driver.c) uses clusterBase 2, clusterSize 4"},
		{"one destination for two clusters", func(b *ir.Board) {
			eightCPUs(b, 0, 8)
		}, []string{
			"stash destination 0 serves CPUs 0-7 of clusters 0 and 1, but a destination is one cluster's cache: the other clusters' CPUs miss the frames stashed for them",
		}, "cluster 1: CPUs 4-7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := board()
			tc.edit(b)
			finish(b)
			got := only(Run(b), "BC0303")
			if len(got) != len(tc.want) {
				t.Fatalf("got %d BC0303 findings, want %d: %v", len(got), len(tc.want), got)
			}
			noted := tc.note == ""
			for i, d := range got {
				if d.Message != tc.want[i] {
					t.Errorf("finding %d:\n got %q\nwant %q", i, d.Message, tc.want[i])
				}
				if d.Pos.Line != 28 || d.Severity != diag.Error || d.Ref != ir.RefDPAA2 {
					t.Errorf("finding %d at line %d, %s, on %s; want line 28, error, on %s", i, d.Pos.Line, d.Severity, d.Ref, ir.RefDPAA2)
				}
				for _, n := range d.Notes {
					noted = noted || n.Message == tc.note
				}
			}
			if !noted {
				t.Errorf("no finding carries the note %q", tc.note)
			}
		})
	}
}
