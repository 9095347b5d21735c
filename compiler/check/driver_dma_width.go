package check

import (
	"fmt"
	"math/bits"
	"slices"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/compiler/kernel"
)

// DriverDMAWidth finds a master whose described streaming width is none
// its driver can give it.
var DriverDMAWidth = &Check{
	NeedsKernel: true,
	Needs:       FactBuses | FactMasters | FactDMA,
	Code: diag.Code{ID: "BC0701", Name: "driver-dma-width", Severity: diag.Warning,
		Doc: "The master's streaming DMA width is none of those its driver sets, as the driver-facts catalogue " +
			"of the board's kernel reads them from the driver's dma_set_mask*() calls (the message names the " +
			"call: kernel series, file:line and function). A master whose driver sets its masks (driverSets) " +
			"states what the driver sets: the runtime verifier expects that width and finds another. A driver " +
			"that sets no mask leaves the OF default of 32 bits (of_platform_device_create_pdata(), " +
			"drivers/of/platform.c), narrowed to the top of the dma-ranges on its path (of_dma_configure_id(), " +
			"drivers/of/device.c); another width there takes effect only where a driver applies boardc's DMA " +
			"capabilities, so it is reported as information when driverSets is absent. Masters whose " +
			"compatible no driver of the catalogue lists, drivers whose width the catalogue cannot tell " +
			"(computed at probe, set on child devices, unknown) and PCI host bridges (their endpoints do the " +
			"DMA) are not checked."},
	Run: func(p *Pass) {
		for _, m := range p.Board.SoC.Masters {
			d, matched := driverOf(p, m)
			if d == nil || d.Bridge == "pci-host" || !m.HasOwnWidth() || m.DMABits == 0 {
				continue
			}
			if d.DMA.Kind == kernel.DMANone {
				noMaskWidth(p, m, d, matched)
				continue
			}
			ws := DriverWidths(d, matched)
			if len(ws) == 0 || slices.Contains(ws, m.DMABits) {
				continue
			}
			notes := append([]diag.Note{driverNote(p.Kernel, d, matched)}, setNotes(p.Kernel, d)...)
			site := d.Probe.String()
			if s, ok := firstSet(d, ws[len(ws)-1]); ok {
				site = SetText(s)
			}
			sev := diag.Warning
			if m.DriverSets == nil {
				sev = diag.Info
				notes = append(notes, Note(ir.Pos{}, "without driverSets, boardc's DMA capabilities set %d bits where a driver applies them; the driver's own call overrides them", m.DMABits))
			}
			p.ReportSeverity(sev, m.Ref(), m.DMABitsPos, fmt.Sprintf(
				"master %s is described with a %d-bit streaming DMA mask, but its driver %s sets %s (kernel %s, %s)",
				m.Key, m.DMABits, d.Name, widthsText(ws), p.Kernel.Series, site), notes...)
		}
	},
}

// noMaskWidth reports a master whose driver sets no mask and whose width
// is not the one the kernel leaves it: 32 bits, narrowed by the
// dma-ranges on its path.
func noMaskWidth(p *Pass, m *ir.Master, d *kernel.Driver, matched string) {
	want, why := 32, "the OF default (of_platform_device_create_pdata(), drivers/of/platform.c)"
	if limit, from := m.BusDMALimit(); from != nil && bits.Len64(limit) < want {
		want = bits.Len64(limit)
		why = fmt.Sprintf("the OF default of 32 bits narrowed by the dma-ranges of bus %s (of_dma_configure_id(), drivers/of/device.c)", from.Key)
	}
	if m.DMABits == want {
		return
	}
	sev := diag.Info
	if m.DriverSets != nil {
		sev = diag.Warning
	}
	p.ReportSeverity(sev, m.Ref(), m.DMABitsPos, fmt.Sprintf(
		"master %s is described with a %d-bit streaming DMA mask, but its driver %s sets none (kernel %s, %s): the kernel gives it %d bits, %s",
		m.Key, m.DMABits, d.Name, p.Kernel.Series, d.Probe, want, why),
		driverNote(p.Kernel, d, matched),
		Note(ir.Pos{}, "the described width takes effect only where a driver applies boardc's DMA capabilities (boardc_dma_caps_apply())"))
}
