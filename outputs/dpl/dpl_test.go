package dpl_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/fdt"
	"boardc.dev/boardc/internal/intree"
	"boardc.dev/boardc/internal/testtool"
	"boardc.dev/boardc/outputs/dpl"
)

// ls2088a returns the in-tree LS2088A-RDB board.
func ls2088a(t *testing.T) *ir.Board {
	t.Helper()
	for _, b := range intree.Boards(t, "../../boards") {
		if b.Name == "ls2088a-rdb" {
			return b
		}
	}
	t.Fatal("no in-tree ls2088a-rdb")
	return nil
}

// TestPlanLS2088A: one DPIO per CPU, eight DPNIs of eight queues, a DPCON
// for each of their 64 channels, a DPBP per DPNI, DPMACs 1-8.
func TestPlanLS2088A(t *testing.T) {
	l := dpl.Plan(ls2088a(t))
	if len(l.DPIOs) != 8 || len(l.DPNIs) != 8 || l.DPBPs() != 8 {
		t.Errorf("DPIOs %d, DPNIs %d, DPBPs %d, want 8 each", len(l.DPIOs), len(l.DPNIs), l.DPBPs())
	}
	for i, io := range l.DPIOs {
		if io.ID != i || io.CPU != i {
			t.Errorf("DPIO %d: id %d CPU %d", i, io.ID, io.CPU)
		}
	}
	for i, p := range l.DPNIs {
		if p.ID != i || p.Queues != 8 || p.Dev == nil || p.Dev.Name != fmt.Sprintf("eth%d", p.ID) || p.Dev.DPMAC != p.ID+1 || p.DPMAC != p.ID+1 {
			t.Errorf("DPNI %d: %+v", p.ID, p)
		}
	}
	if l.Channels != 64 || l.DPCONs != 64 {
		t.Errorf("channels %d, DPCONs %d, want 64 and 64 (dpaa2_eth_setup_dpcon(): one per channel per DPNI)", l.Channels, l.DPCONs)
	}
	if want := []int{1, 2, 3, 4, 5, 6, 7, 8}; !reflect.DeepEqual(l.DPMACs, want) {
		t.Errorf("DPMACs %v, want %v", l.DPMACs, want)
	}
	// A DPMCP per DPIO, per DPNI and per DPRTC, and one for a second
	// restool session; the DPMACs use their DPNI's.
	if l.DPRTCs != 1 || l.DPMCPs != 8+8+1+1 {
		t.Errorf("DPRTCs %d, DPMCPs %d, want 1 and 18", l.DPRTCs, l.DPMCPs)
	}
}

// TestDTC compiles the LS2088A-RDB layout with dtc and reads the dtb back:
// the container's object sets, the objects and the connections are what
// the plan says. dtc is run with unit_address_vs_reg off: the DPL names
// objects dpni@0, obj_set@dpio, which have no reg (mc-utils builds its
// layouts with dtc -q); any other warning fails.
func TestDTC(t *testing.T) {
	bin := testtool.Look(t, "dtc", "device-tree-compiler")
	b := ls2088a(t)
	fs := dpl.Emit(b)
	if len(fs) != 2 || fs[0].Path != "ls2088a-rdb-dpl.dts" || fs[1].Path != "ls2088a-rdb-dpc.dts" {
		t.Fatalf("Emit: %d files, want ls2088a-rdb-dpl.dts and ls2088a-rdb-dpc.dts", len(fs))
	}
	tree := compile(t, bin, fs[0].Data)
	if got := tree.Cells("/", "dpl-version"); !reflect.DeepEqual(got, []uint32{10}) {
		t.Errorf("dpl-version %v", got)
	}
	set := "/containers/dprc@1/objects/obj_set@"
	for typ, n := range map[string]int{"dpni": 8, "dpio": 8, "dpbp": 8, "dpcon": 64, "dpmac": 8, "dpmcp": 18, "dprtc": 1} {
		ids := tree.Cells(set+typ, "ids")
		if len(ids) != n {
			t.Errorf("obj_set@%s: %d ids, want %d", typ, len(ids), n)
		}
		if string(tree[set+typ]["type"]) != typ+"\x00" {
			t.Errorf("obj_set@%s: type %q", typ, tree[set+typ]["type"])
		}
		count := 0
		for path := range tree {
			if strings.HasPrefix(path, "/objects/"+typ+"@") {
				count++
			}
		}
		if count != n {
			t.Errorf("%d /objects/%s@ nodes, want %d", count, typ, n)
		}
	}
	for i := 0; i < 8; i++ {
		if got := tree.Cells(fmt.Sprintf("/objects/dpni@%d", i), "num_queues"); !reflect.DeepEqual(got, []uint32{8}) {
			t.Errorf("dpni@%d num_queues %v, want 8", i, got)
		}
		c := fmt.Sprintf("/connections/connection@%d", i+1)
		e1, e2 := string(tree[c]["endpoint1"]), string(tree[c]["endpoint2"])
		if e1 != fmt.Sprintf("dpni@%d\x00", i) || e2 != fmt.Sprintf("dpmac@%d\x00", i+1) {
			t.Errorf("%s: %q - %q", c, e1, e2)
		}
	}
}

// TestEdges: a DPNI without an interface has a queue per CPU with a DPIO
// and no connection; a board without DPAA2 has no layout.
func TestEdges(t *testing.T) {
	b := ls2088a(t)
	if fs := dpl.Emit(&ir.Board{Name: "none"}); len(fs) != 0 {
		t.Errorf("a board without DPAA2 got %d files", len(fs))
	}
	d := *b.SoC.DPAA2
	d.DPNI = 9
	d.DPIOs = d.DPIOs[:4] // CPUs 0-3 have a DPIO
	soc := b.SoC
	soc.DPAA2 = &d
	e := *b
	e.SoC = soc
	l := dpl.Plan(&e)
	last := l.DPNIs[8]
	if last.Dev != nil || last.Queues != 4 {
		t.Errorf("DPNI 8: %+v, want no interface and 4 queues", last)
	}
	if l.Channels != 9*4 {
		t.Errorf("channels %d, want 36", l.Channels)
	}
	src := string(dpl.Emit(&e)[0].Data)
	if !strings.Contains(src, "dpni@8 {\t/* no interface described: a queue per CPU with a DPIO */") {
		t.Errorf("DPNI 8 is not described as such:\n%s", src)
	}
	if strings.Count(src, "connection@") != 8 {
		t.Errorf("want 8 connections:\n%s", src)
	}
}

// TestDPMCPs: a 16-CPU board with two interfaces gets a DPMCP per DPIO,
// per DPNI and for the DPRTC, and one for a second restool session (20),
// not DPNIs + DPMACs + 1 + 10 (15), which would leave DPIOs or DPNIs
// deferring their probe on an empty pool.
func TestDPMCPs(t *testing.T) {
	b := ls2088a(t)
	d := *b.SoC.DPAA2
	d.DPNI = 2
	d.DPIOs = nil
	for i := 0; i < 16; i++ {
		d.DPIOs = append(d.DPIOs, ir.DPIO{ID: i, CPU: i})
	}
	soc := b.SoC
	soc.DPAA2 = &d
	e := *b
	e.SoC = soc
	l := dpl.Plan(&e)
	if l.DPMCPs != 16+2+1+1 {
		t.Errorf("DPMCPs %d, want 20", l.DPMCPs)
	}
	sum := 0
	for _, term := range l.DPMCPTerms() {
		sum += term.N
		if !strings.Contains(term.Source, ".c:") || !strings.Contains(term.Source, "()") {
			t.Errorf("term %q cites no file:line function(): %q", term.What, term.Source)
		}
	}
	if sum != l.DPMCPs {
		t.Errorf("terms sum to %d, DPMCPs %d", sum, l.DPMCPs)
	}
}

// compile compiles src with dtc and parses the dtb. dtc is run with
// unit_address_vs_reg off: the DPL and DPC name nodes dpni@0,
// obj_set@dpio, mac@5, which have no reg (mc-utils builds its layouts
// with dtc -q); any other warning fails.
func compile(t *testing.T, bin string, src []byte) fdt.Tree {
	t.Helper()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.dts"), filepath.Join(dir, "out.dtb")
	if err := os.WriteFile(in, src, 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "-W", "no-unit_address_vs_reg", "-I", "dts", "-O", "dtb", "-o", out, in)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("dtc: %v\n%s", err, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := fdt.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// TestDPC compiles the LS2088A-RDB DPC with dtc: qbman wq_ch_conversion
// 32, as NXP's DPC for the board, for the layout's 64 two-priority
// DPCONs; MAC_LINK_TYPE_PHY on DPMACs 5-8, whose interfaces state it,
// and no node for DPMACs 1-4. Without the SoC's DPC facts the DPC says
// so and sets no qbman node.
func TestDPC(t *testing.T) {
	bin := testtool.Look(t, "dtc", "device-tree-compiler")
	b := ls2088a(t)
	tree := compile(t, bin, dpl.Emit(b)[1].Data)
	if got := tree.Cells("/controllers/qbman", "wq_ch_conversion"); !reflect.DeepEqual(got, []uint32{32}) {
		t.Errorf("wq_ch_conversion %v, want 32", got)
	}
	for m := 1; m <= 8; m++ {
		node := fmt.Sprintf("/board_info/ports/mac@%d", m)
		lt, ok := tree[node]["link_type"]
		switch {
		case m >= 5 && string(lt) != "MAC_LINK_TYPE_PHY\x00":
			t.Errorf("%s link_type %q, want MAC_LINK_TYPE_PHY", node, lt)
		case m < 5 && ok:
			t.Errorf("%s has link_type %q, want none", node, lt)
		}
	}
	d := *b.SoC.DPAA2
	d.HasDPC = false
	soc := b.SoC
	soc.DPAA2 = &d
	e := *b
	e.SoC = soc
	src := dpl.Emit(&e)[1].Data
	if _, ok := compile(t, bin, src)["/controllers/qbman"]; ok || !strings.Contains(string(src), "the SoC states no qbman wq_ch_conversion") {
		t.Errorf("a DPC without the SoC's settings:\n%s", src)
	}
}
