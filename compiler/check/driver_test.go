package check

import (
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/compiler/kernel"
)

// testCatalog is a catalogue of one driver per DMA behaviour.
const testCatalog = `{"series": "6.12", "kernel": "6.12.57",
 "source": {"tarball": "linux-source-6.12.tar.xz", "sha256": "00", "extractor": 1},
 "drivers": [
  {"name": "none-eth", "bus": "platform", "site": {"file": "drivers/net/none.c", "line": 90},
   "probe": {"file": "drivers/net/none.c", "line": 40, "func": "none_probe"},
   "compatibles": ["v,none"], "dma": {"kind": "none"},
   "irqs": [{"name": "none-eth", "kind": "literal", "site": {"file": "drivers/net/none.c", "line": 55, "func": "none_probe"}},
            {"name": "none-err", "kind": "literal", "site": {"file": "drivers/net/none.c", "line": 58, "func": "none_probe"}}]},
  {"name": "fixed", "bus": "platform", "site": {"file": "drivers/dma/fixed.c", "line": 300},
   "probe": {"file": "drivers/dma/fixed.c", "line": 200, "func": "fixed_probe"},
   "compatibles": ["v,fixed"],
   "dma": {"kind": "fixed", "widths": [40], "sets": [{"call": "dma_set_mask_and_coherent", "arg": "DMA_BIT_MASK(40)", "width": 40,
     "site": {"file": "drivers/dma/fixed.c", "line": 220, "func": "fixed_probe"}}]},
   "irqs": [{"name": "%s-ch%d", "kind": "format", "site": {"file": "drivers/dma/fixed.c", "line": 230, "func": "fixed_probe"}}]},
  {"name": "ahci", "bus": "platform", "site": {"file": "drivers/ata/ahci_platform.c", "line": 90},
   "probe": {"file": "drivers/ata/ahci_platform.c", "line": 40, "func": "ahci_probe"},
   "compatibles": ["v,choice"],
   "dma": {"kind": "choice", "widths": [32, 64], "reason": "HOST_CAP_64",
     "sets": [{"call": "dma_coerce_mask_and_coherent", "arg": "DMA_BIT_MASK(64)", "width": 64, "cond": "hpriv->cap & HOST_CAP_64",
       "site": {"file": "drivers/ata/libahci_platform.c", "line": 650, "func": "ahci_platform_init_host"}, "via": ["ahci_platform_init_host"]}]}},
  {"name": "fsl_mc", "bus": "platform", "site": {"file": "drivers/bus/fsl-mc/fsl-mc-bus.c", "line": 1200},
   "probe": {"file": "drivers/bus/fsl-mc/fsl-mc-bus.c", "line": 1000, "func": "fsl_mc_bus_probe"},
   "compatibles": ["v,kids"], "dma": {"kind": "children"}, "bridge": "fsl-mc"},
  {"name": "host", "bus": "platform", "site": {"file": "drivers/pci/host.c", "line": 9},
   "probe": {"file": "drivers/pci/host.c", "line": 5, "func": "host_probe"},
   "compatibles": ["v,pcie"], "dma": {"kind": "none"}, "bridge": "pci-host"}
 ]}`

func testKernel(t *testing.T) *kernel.Catalog {
	t.Helper()
	c, err := kernel.Decode(strings.NewReader(testCatalog))
	if err != nil {
		t.Fatal(err)
	}
	c.Lookup(nil) // index before any concurrent use
	return c
}

// driverDiags runs the checks over b against the test catalogue and
// returns the driver checks' findings, one line each with their first
// note.
func driverDiags(t *testing.T, b *ir.Board) []string {
	t.Helper()
	var out []string
	for _, d := range RunEnv(b, Env{Kernel: testKernel(t)}).Diagnostics {
		if strings.HasPrefix(d.Code, "BC07") {
			out = append(out, d.String())
		}
	}
	return out
}

func TestDriverChecks(t *testing.T) {
	ds := func(src string) *ir.DriverSet { return &ir.DriverSet{Source: src, Pos: pos(60)} }
	for _, c := range []struct {
		name string
		edit func(eth, dma *ir.Master)
		want []string
	}{
		{"clean: none at 32, fixed 40 with driverSets", func(eth, dma *ir.Master) {
			eth.Compatible, dma.Compatible = []string{"v,none"}, []string{"v,fixed"}
			dma.DriverSets = ds("fixed_probe()")
		}, nil},
		{"no catalogue entry", func(eth, dma *ir.Master) {
			eth.Compatible, dma.Compatible = []string{"v,unknown"}, []string{"v,other"}
			eth.DMABits = 48
		}, nil},
		{"fixed: another width", func(eth, dma *ir.Master) {
			dma.Compatible, dma.DMABits, dma.DriverSets = []string{"v,fixed"}, 48, ds("fixed_probe()")
		}, []string{"board.cue:22:1: warning: master dma is described with a 48-bit streaming DMA mask, but its driver fixed sets 40 " +
			"(kernel 6.12, drivers/dma/fixed.c:220 fixed_probe(): dma_set_mask_and_coherent(DMA_BIT_MASK(40))) [BC0701]"}},
		{"fixed: another width, no driverSets", func(eth, dma *ir.Master) {
			dma.Compatible, dma.DMABits = []string{"v,fixed"}, 48
		}, []string{
			"board.cue:20:1: warning: master dma has no driverSets, but its driver fixed sets its DMA masks (kernel 6.12, " +
				"drivers/dma/fixed.c:220 fixed_probe(): dma_set_mask_and_coherent(DMA_BIT_MASK(40))): boardc's DMA capabilities for it are overridden at probe [BC0702]",
			"board.cue:22:1: info: master dma is described with a 48-bit streaming DMA mask, but its driver fixed sets 40 " +
				"(kernel 6.12, drivers/dma/fixed.c:220 fixed_probe(): dma_set_mask_and_coherent(DMA_BIT_MASK(40))) [BC0701]"}},
		{"choice: 48 of 32 or 64", func(eth, dma *ir.Master) {
			dma.Compatible, dma.DMABits, dma.DriverSets = []string{"v,choice"}, 48, ds("ahci")
		}, []string{"board.cue:22:1: warning: master dma is described with a 48-bit streaming DMA mask, but its driver ahci sets 32 or 64 " +
			"(kernel 6.12, drivers/ata/libahci_platform.c:650 ahci_platform_init_host(): dma_coerce_mask_and_coherent(DMA_BIT_MASK(64)) " +
			"if hpriv->cap & HOST_CAP_64, via ahci_platform_init_host) [BC0701]"}},
		{"choice: widths differ", func(eth, dma *ir.Master) {
			dma.Compatible, dma.DMABits, dma.DriverSets = []string{"v,choice"}, 64, ds("ahci")
			dma.DriverSets.Widths, dma.DriverSets.WidthsPos = []int{40, 64}, pos(61)
		}, []string{"board.cue:61:1: warning: master dma's driverSets.widths are 40 or 64, but its driver ahci sets 32 or 64, never 40 " +
			"(kernel 6.12, drivers/ata/ahci_platform.c:40 ahci_probe()) [BC0703]"}},
		{"choice: widths a subset", func(eth, dma *ir.Master) {
			dma.Compatible, dma.DMABits, dma.DriverSets = []string{"v,choice"}, 64, ds("ahci")
			dma.DriverSets.Widths, dma.DriverSets.WidthsPos = []int{64}, pos(61)
		}, []string{"board.cue:61:1: info: master dma's driverSets.widths are 64; its driver ahci can also set 32 " +
			"(kernel 6.12, drivers/ata/ahci_platform.c:40 ahci_probe()), which the verifier would report as a mismatch [BC0703]"}},
		{"choice: widths the same", func(eth, dma *ir.Master) {
			dma.Compatible, dma.DMABits, dma.DriverSets = []string{"v,choice"}, 64, ds("ahci")
			dma.DriverSets.Widths, dma.DriverSets.WidthsPos = []int{32, 64}, pos(61)
		}, nil},
		{"none: driverSets and 40 bits", func(eth, dma *ir.Master) {
			eth.Compatible, eth.DMABits, eth.DriverSets = []string{"v,none"}, 40, ds("none_probe()")
		}, []string{
			"board.cue:12:1: warning: master eth0 is described with a 40-bit streaming DMA mask, but its driver none-eth sets none " +
				"(kernel 6.12, drivers/net/none.c:40 none_probe()): the kernel gives it 32 bits, the OF default (of_platform_device_create_pdata(), drivers/of/platform.c) [BC0701]",
			"board.cue:60:1: warning: master eth0 says its driver sets its DMA masks, but none-eth sets none (kernel 6.12, drivers/net/none.c:40 none_probe()): " +
				"it keeps the 32-bit OF default and boardc writes no DMA capabilities for it [BC0702]"}},
		{"none: narrowed by dma-ranges", func(eth, dma *ir.Master) {
			eth.Compatible = []string{"v,none"}
			eth.Bus.HasDMARanges, eth.Bus.DMARangesPos = true, pos(5)
			eth.Bus.DMARanges = []ir.DMARange{{Child: 0, Parent: 0, Size: 1 << 30, Pos: pos(5)}}
		}, []string{"board.cue:12:1: info: master eth0 is described with a 32-bit streaming DMA mask, but its driver none-eth sets none " +
			"(kernel 6.12, drivers/net/none.c:40 none_probe()): the kernel gives it 30 bits, the OF default of 32 bits narrowed by the dma-ranges of bus soc " +
			"(of_dma_configure_id(), drivers/of/device.c) [BC0701]"}},
		{"children", func(eth, dma *ir.Master) {
			dma.Compatible, dma.DMABits, dma.DriverSets = []string{"v,kids"}, 64, ds("fsl_mc_device_add()")
		}, []string{"board.cue:60:1: warning: master dma's driver fsl_mc sets the DMA masks of the devices it creates below its own, not its own " +
			"(kernel 6.12, drivers/bus/fsl-mc/fsl-mc-bus.c:1000 fsl_mc_bus_probe()): say children: true [BC0702]"}},
		{"children, no driverSets", func(eth, dma *ir.Master) {
			dma.Compatible, dma.DMABits = []string{"v,kids"}, 64
		}, []string{"board.cue:20:1: warning: master dma has no driverSets, but its driver fsl_mc sets the DMA masks of the devices it creates below its own " +
			"(kernel 6.12, drivers/bus/fsl-mc/fsl-mc-bus.c:1000 fsl_mc_bus_probe()): say driverSets: {source: ..., children: true} [BC0702]"}},
		{"pci host bridge with driverSets at 48", func(eth, dma *ir.Master) {
			dma.Compatible, dma.DMABits, dma.DriverSets = []string{"v,pcie"}, 48, ds("endpoints")
		}, nil},
		{"irq name", func(eth, dma *ir.Master) {
			eth.Compatible = []string{"v,none"}
		}, []string{`board.cue:13:1: info: master eth0's IRQ port is named "eth0", but its driver none-eth requests IRQs only as "none-eth" or "none-err" (kernel 6.12) [BC0704]`}},
		{"irq name from a format: not checked", func(eth, dma *ir.Master) {
			dma.Compatible, dma.DriverSets = []string{"v,fixed"}, ds("fixed")
			dma.IRQs = []ir.IRQ{{Key: "ch", Name: "dma-ch0", Pos: pos(23)}}
		}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := board()
			eth, dma := b.SoC.Masters[0], b.SoC.Masters[1]
			if c.name != "irq name" {
				eth.IRQs = nil
				b.Policy = ir.Policy{}
			}
			c.edit(eth, dma)
			got := driverDiags(t, b)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// Without a catalogue the driver checks do not run; with one they do,
// and a finding carries the catalogue's facts as notes.
func TestDriverChecksNeedCatalogue(t *testing.T) {
	b := board()
	b.SoC.Masters[1].Compatible, b.SoC.Masters[1].DMABits = []string{"v,fixed"}, 48
	r := RunEnv(b, Env{})
	for _, c := range r.Ran {
		if c.NeedsKernel {
			t.Errorf("%s ran without a catalogue", c.ID)
		}
	}
	for _, d := range RunEnv(b, Env{Kernel: testKernel(t)}).Diagnostics {
		if d.Code != "BC0701" {
			continue
		}
		var notes []string
		for _, n := range d.Notes {
			notes = append(notes, n.Message)
		}
		want := []string{
			`kernel 6.12 (6.12.57): fixed binds "v,fixed", probe drivers/dma/fixed.c:200 fixed_probe()`,
			"kernel 6.12: drivers/dma/fixed.c:220 fixed_probe(): dma_set_mask_and_coherent(DMA_BIT_MASK(40))",
			"without driverSets, boardc's DMA capabilities set 48 bits where a driver applies them; the driver's own call overrides them",
		}
		if strings.Join(notes, "\n") != strings.Join(want, "\n") {
			t.Errorf("notes:\n%s\nwant\n%s", strings.Join(notes, "\n"), strings.Join(want, "\n"))
		}
		return
	}
	t.Fatal("no BC0701")
}

// A board's kernel picks its catalogue; one with none is a BC0700
// warning at the kernel's position that lists the series there are.
func TestCatalogsFor(t *testing.T) {
	c612 := testKernel(t)
	c61, err := kernel.Decode(strings.NewReader(strings.NewReplacer(`"6.12"`, `"6.1"`, `"6.12.57"`, `"6.1.158"`).Replace(testCatalog)))
	if err != nil {
		t.Fatal(err)
	}
	cs := Fixed(c61, c612)
	b := board()
	if got, ds := cs.For(b); got != c612 || ds != nil {
		t.Errorf("no kernel: %v, %v; want the newest, 6.12", got, ds)
	}
	b.Kernel, b.KernelPos = "6.1", pos(3)
	if got, ds := cs.For(b); got != c61 || ds != nil {
		t.Errorf("kernel 6.1: %v, %v", got, ds)
	}
	b.Kernel = "6.6"
	got, ds := cs.For(b)
	want := "board.cue:3:1: warning: kernel 6.6: boardc has no driver-facts catalogue for it (boardc has 6.1, 6.12); the driver checks do not run [BC0700]"
	if got != nil || len(ds) != 1 || ds[0].String() != want || ds[0].Ref != ir.RefKernel {
		t.Errorf("kernel 6.6: %v, %v; want %s", got, ds, want)
	}
	if _, ds := Fixed().For(b); len(ds) != 1 || !strings.Contains(ds[0].Message, "(boardc has none)") {
		t.Errorf("no catalogues: %v", ds)
	}
	b.Kernel = ""
	if got, ds := Fixed().For(b); got != nil || ds != nil {
		t.Errorf("no kernel, no catalogues: %v, %v", got, ds)
	}
	if _, ok := Lookup("kernel-series"); !ok {
		t.Error("BC0700 is not among Codes")
	}
}
