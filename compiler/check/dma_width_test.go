package check

import (
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// dmaPos is a position in a made-up description file.
func dmaPos(line int) ir.Pos {
	return ir.Pos{File: "boards/t/board.cue", Src: "t/board.cue", Line: line, Col: 2}
}

// dmaBoard returns a board with one 40-bit bus /soc under a bus /top of
// unknown width, a 32-bit master eth at lines 10/11 and a 40-bit master
// dma at lines 20/21 on /soc, and 2 GiB of RAM at line 30.
func dmaBoard() *ir.Board {
	top := &ir.Bus{Key: "top", Pos: dmaPos(1), Node: ir.Node{Path: "/top"}}
	soc := &ir.Bus{Key: "soc", Pos: dmaPos(3), Node: ir.Node{Path: "/top/soc"}, Parent: top,
		AddressBits: 40, AddressBitsPos: dmaPos(4)}
	b := &ir.Board{
		Name: "t",
		SoC: ir.SoC{
			Buses: []*ir.Bus{soc, top},
			Masters: []*ir.Master{
				{Key: "dma", Pos: dmaPos(20), Bus: soc, DMABits: 40, DMABitsPos: dmaPos(21), Enabled: true},
				{Key: "eth", Pos: dmaPos(10), Bus: soc, DMABits: 32, DMABitsPos: dmaPos(11), Enabled: true},
			},
		},
		Memory: []ir.MemRegion{{Base: 0, Size: 0x8000_0000, Pos: dmaPos(30)}},
	}
	finish(b)
	return b
}

// runOne runs a single check over b, without waivers.
func runOne(c *Check, b *ir.Board) diag.List {
	p := &Pass{Board: b, check: c}
	c.Run(p)
	var out diag.List
	for _, f := range p.found {
		out = append(out, f.d)
	}
	return out
}

// wantFinding is one expected diagnostic: where, and the position of its
// first note (the related fact).
type wantFinding struct {
	pos     ir.Pos
	notePos ir.Pos
	msg     string // a substring of the message
}

func checkFindings(t *testing.T, c *Check, sev diag.Severity, got diag.List, want []wantFinding) {
	t.Helper()
	if len(got) != len(want) {
		var b strings.Builder
		_ = got.WriteText(&b)
		t.Fatalf("%d findings, want %d:\n%s", len(got), len(want), b.String())
	}
	for i, w := range want {
		d := got[i]
		if d.Code != c.ID || d.Severity != sev {
			t.Errorf("finding %d: %s %s, want %s %s", i, d.Code, d.Severity, c.Code, sev)
		}
		if d.Pos != w.pos {
			t.Errorf("finding %d at %s, want %s", i, d.Pos, w.pos)
		}
		if !strings.Contains(d.Message, w.msg) {
			t.Errorf("finding %d: message %q lacks %q", i, d.Message, w.msg)
		}
		if len(d.Notes) == 0 || d.Notes[0].Pos != w.notePos {
			t.Errorf("finding %d: notes %v, want the first at %s", i, d.Notes, w.notePos)
		}
	}
}

func TestDMABelowRAM(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(b *ir.Board)
		want []wantFinding
	}{
		{"2 GiB under 32 bits", func(b *ir.Board) {}, nil},
		{"no memory declared", func(b *ir.Board) { b.Memory = nil }, nil},
		{"RAM ends exactly at 4 GiB", func(b *ir.Board) {
			b.Memory = append(b.Memory, ir.MemRegion{Base: 0x8000_0000, Size: 0x8000_0000, Pos: dmaPos(31)})
		}, nil},
		{"one byte above 4 GiB", func(b *ir.Board) {
			b.Memory = append(b.Memory, ir.MemRegion{Base: 0x8000_0000, Size: 0x8000_0001, Pos: dmaPos(31)})
		}, []wantFinding{{dmaPos(11), dmaPos(31), "master eth drives 32 DMA address bits, but RAM reaches 0x100000000 (33 bits)"}}},
		{"LS2088A-style high DRAM", func(b *ir.Board) {
			// fsl-ls2088a-rdb.dts: the second DRAM bank at 0x80_8000_0000.
			b.Memory = append(b.Memory, ir.MemRegion{Base: 0x80_8000_0000, Size: 0x8000_0000, Pos: dmaPos(31)})
		}, []wantFinding{{dmaPos(11), dmaPos(31), "RAM reaches 0x80ffffffff (40 bits)"}}},
		{"the highest region is not the last", func(b *ir.Board) {
			b.Memory = []ir.MemRegion{
				{Base: 0x1_0000_0000, Size: 0x1000, Pos: dmaPos(32)},
				{Base: 0, Size: 0x1000, Pos: dmaPos(33)},
			}
		}, []wantFinding{{dmaPos(11), dmaPos(32), "(33 bits)"}}},
		{"a master behind an IOMMU reaches all RAM", func(b *ir.Board) {
			b.Memory = append(b.Memory, ir.MemRegion{Base: 0x80_8000_0000, Size: 0x8000_0000, Pos: dmaPos(31)})
			b.SoC.Masters[1].IOMMU = "smmu"
		}, nil},
		{"a region that wraps past 2^64", func(b *ir.Board) {
			b.Memory = append(b.Memory, ir.MemRegion{Base: 0xffff_ffff_0000_0000, Size: 0x2_0000_0000, Pos: dmaPos(31)})
		}, []wantFinding{
			{dmaPos(21), dmaPos(31), "master dma drives 40 DMA address bits"},
			{dmaPos(11), dmaPos(31), "master eth drives 32 DMA address bits"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := dmaBoard()
			tc.edit(b)
			finish(b)
			checkFindings(t, DMABelowRAM, diag.Warning, runOne(DMABelowRAM, b), tc.want)
		})
	}
}

// TestDMABelowRAMWaiver silences the finding on the waived master only.
func TestDMABelowRAMWaiver(t *testing.T) {
	b := dmaBoard()
	b.Memory = append(b.Memory, ir.MemRegion{Base: 0x80_8000_0000, Size: 0x8000_0000, Pos: dmaPos(31)})
	b.SoC.Masters[1].DMABits = 32
	b.SoC.Masters[0].DMABits = 36
	b.Waivers = []ir.Waiver{{Check: DMABelowRAM.ID, On: "soc.masters.eth", Reason: "eth buffers come from a CMA pool below 4 GiB", Pos: dmaPos(40)}}
	var got []string
	for _, d := range Run(b) {
		if d.Code == DMABelowRAM.ID {
			got = append(got, d.Pos.String())
		}
	}
	if len(got) != 1 || got[0] != dmaPos(21).String() {
		t.Errorf("BC0201 findings at %v, want only the unwaived master at %s", got, dmaPos(21))
	}
}

func TestDMAAboveBus(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(b *ir.Board)
		want []wantFinding
	}{
		{"widths within the bus", func(b *ir.Board) {}, nil},
		{"bus width unknown", func(b *ir.Board) {
			b.SoC.Buses[0].AddressBits = 0
			b.SoC.Masters[0].DMABits = 64
		}, nil},
		{"master wider than its bus", func(b *ir.Board) { b.SoC.Masters[0].DMABits = 48 }, []wantFinding{
			{dmaPos(21), dmaPos(4), "master dma drives 48 DMA address bits, but bus soc carries 40"},
		}},
		{"master wider than a bus above", func(b *ir.Board) {
			b.SoC.Buses[0].AddressBits = 0
			b.SoC.Buses[1].AddressBits, b.SoC.Buses[1].AddressBitsPos = 36, dmaPos(2)
		}, []wantFinding{
			{dmaPos(21), dmaPos(2), "master dma drives 40 DMA address bits, but bus top carries 36"},
		}},
		{"reported once, at the nearest narrow bus", func(b *ir.Board) {
			b.SoC.Buses[1].AddressBits, b.SoC.Buses[1].AddressBitsPos = 36, dmaPos(2)
			b.SoC.Masters[0].DMABits = 64
		}, []wantFinding{
			{dmaPos(21), dmaPos(4), "bus soc carries 40"},
		}},
		{"two masters too wide", func(b *ir.Board) {
			b.SoC.Buses[0].AddressBits = 24
		}, []wantFinding{
			{dmaPos(21), dmaPos(4), "master dma drives 40"},
			{dmaPos(11), dmaPos(4), "master eth drives 32"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := dmaBoard()
			tc.edit(b)
			finish(b)
			checkFindings(t, DMAAboveBus, diag.Error, runOne(DMAAboveBus, b), tc.want)
		})
	}
}

// TestDMAAboveBusStopsBuild makes sure the error is fatal: a board with a
// master wider than its bus has errors, so no file is emitted for it.
func TestDMAAboveBusStopsBuild(t *testing.T) {
	b := dmaBoard()
	b.SoC.Masters[0].DMABits = 48
	if !Run(b).HasErrors() {
		t.Error("a master wider than its bus does not stop the build")
	}
}
