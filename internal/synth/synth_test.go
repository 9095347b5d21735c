package synth_test

import (
	"testing"

	"boardc.dev/boardc"
	"boardc.dev/boardc/internal/synth"
)

// TestCompiles compiles small synthetic boards with boardc: no diagnostic
// at all, every master, bus and CPU lowered, and files generated.
func TestCompiles(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	c, err := boardc.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []synth.Params{
		synth.Default(40),
		{Masters: 7, Buses: 9, CPUs: 4, ClusterSize: 4, NetEvery: 3},
		{Masters: 1, Buses: 1, CPUs: 1, ClusterSize: 1},
	} {
		dir, err := synth.Write(t.TempDir(), p)
		if err != nil {
			t.Fatal(err)
		}
		r := c.Compile(dir, boardc.Options{WarningsAsErrors: true})
		for _, d := range r.Diagnostics {
			t.Errorf("%+v: %s", p, d)
		}
		if r.Board == nil {
			continue
		}
		s := r.Board.SoC
		if len(s.Masters) != p.Masters || len(s.Buses) != p.Buses || s.NumCPUs() != p.CPUs {
			t.Errorf("%+v: lowered %d masters, %d buses, %d CPUs", p, len(s.Masters), len(s.Buses), s.NumCPUs())
		}
		if r.Board.Name != p.Name() {
			t.Errorf("board name %q, want %q", r.Board.Name, p.Name())
		}
		if len(r.Files) == 0 {
			t.Errorf("%+v: no files", p)
		}
	}
}

// TestShape checks the properties the benchmarks rely on: a bus tree at
// least two levels deep, dma-ranges on some buses, one DPIO per CPU.
func TestShape(t *testing.T) {
	t.Setenv("CUE_REGISTRY", "none")
	c, err := boardc.New()
	if err != nil {
		t.Fatal(err)
	}
	p := synth.Default(100)
	dir, err := synth.Write(t.TempDir(), p)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Compile(dir, boardc.Options{})
	if r.Board == nil {
		t.Fatalf("not loaded: %v", r.Diagnostics)
	}
	depth, ranges := 0, 0
	for _, b := range r.Board.SoC.Buses {
		depth = max(depth, len(b.Ancestors()))
		if b.HasDMARanges {
			ranges++
		}
	}
	if depth < 2 {
		t.Errorf("bus tree depth %d, want at least 2", depth)
	}
	if ranges == 0 || ranges == len(r.Board.SoC.Buses) {
		t.Errorf("%d of %d buses have dma-ranges, want some", ranges, len(r.Board.SoC.Buses))
	}
	if d := r.Board.SoC.DPAA2; d == nil || len(d.DPIOs) != p.CPUs {
		t.Errorf("DPAA2 %+v, want %d DPIOs", d, p.CPUs)
	}
	if len(r.Board.Policy.Net) == 0 || len(r.Board.Policy.IRQs) != p.Masters+p.CPUs {
		t.Errorf("policy: %d interfaces, %d IRQ pins", len(r.Board.Policy.Net), len(r.Board.Policy.IRQs))
	}
}

func TestValidate(t *testing.T) {
	for _, p := range []synth.Params{
		{Masters: 0, Buses: 1, CPUs: 1, ClusterSize: 1},
		{Masters: 1, Buses: 0, CPUs: 1, ClusterSize: 1},
		{Masters: 1, Buses: 1, CPUs: 257, ClusterSize: 1},
		{Masters: 1, Buses: 1, CPUs: 6, ClusterSize: 4},
	} {
		if _, err := synth.Files(p); err == nil {
			t.Errorf("%+v: no error", p)
		}
	}
}
