package load_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/compiler/load"
)

// A description whose errors are confined to some elements is lowered as
// far as it goes: every error at once, the elements lacking a fact named,
// what they lack left out or zero, and the rest as written.
func TestLoadPartial(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "bad", "missing-several-fields.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		if f.Name == "board.cue" {
			if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	l, err := load.New()
	if err != nil {
		t.Fatal(err)
	}
	p := l.LoadPartial(dir)
	if p.Board == nil {
		t.Fatalf("no partial board:\n%s", text(p.Diagnostics))
	}
	want := []ir.Ref{
		"memory[0].size",
		"policy.irqs[0].cpus[0]",
		"soc.masters.dma0.compatible[0]",
		"soc.masters.eth0.bus",
		"soc.masters.eth0.dma",
		"soc.masters.usb0.dma",
		"soc.masters.usb0.node.path",
		`soc.root."#size-cells"`,
		"waivers[0].reason",
	}
	if !slices.Equal(p.Missing, want) {
		t.Errorf("missing %q, want %q", p.Missing, want)
	}
	if n := len(p.Diagnostics); n != len(want) {
		t.Errorf("%d diagnostics, want one per missing fact (%d):\n%s", n, len(want), text(p.Diagnostics))
	}
	b := p.Board
	var keys []string
	for _, m := range b.SoC.Masters {
		keys = append(keys, m.Key)
	}
	// eth0 names a bus the SoC does not declare: it is left out.
	if !slices.Equal(keys, []string{"dma0", "usb0"}) {
		t.Errorf("masters %v, want [dma0 usb0]", keys)
	}
	if b.Memory != nil {
		t.Errorf("memory %v, want none: it lacks its size", b.Memory)
	}
	if m := b.SoC.Masters[0]; m.DMABits != 32 || m.Node.Label != "dma0" {
		t.Errorf("dma0: %d DMA bits, label %q; want 32 and dma0, as written", m.DMABits, m.Node.Label)
	}
	if b.Name != "tiny" || len(b.Waivers) != 1 || b.Waivers[0].Reason != "" {
		t.Errorf("name %q, waivers %+v", b.Name, b.Waivers)
	}

	// Load keeps its contract: no board when there is an error.
	if b, ds := l.Load(dir); b != nil || !ds.HasErrors() {
		t.Errorf("Load: board %v, diagnostics:\n%s", b != nil, text(ds))
	}
}

// Facts a board adds to an element its SoC does not declare are not
// lowered: no error of lowering about the element's missing bus.
func TestLoadPartialNotInSoC(t *testing.T) {
	dir := write(t, map[string]string{"board.cue": "package tiny\n" + tiny + `
waivers: []
soc: masters: dma1: irqs: done: "dma1"
`})
	l, err := load.New()
	if err != nil {
		t.Fatal(err)
	}
	p := l.LoadPartial(dir)
	if p.Board == nil || len(p.Board.SoC.Masters) != 1 || len(p.Diagnostics) != 1 {
		t.Fatalf("board %v, diagnostics:\n%s", p.Board != nil, text(p.Diagnostics))
	}
	if want := []ir.Ref{"soc.masters.dma1"}; !slices.Equal(p.Missing, want) {
		t.Errorf("missing %q, want %q", p.Missing, want)
	}
}
