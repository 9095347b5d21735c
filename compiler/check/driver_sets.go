package check

import (
	"fmt"
	"slices"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/kernel"
)

// DriverSets finds a master whose driverSets disagrees with what its
// driver does with the DMA masks.
var DriverSets = &Check{
	NeedsKernel: true,
	Needs:       FactMasters,
	Code: diag.Code{ID: "BC0702", Name: "driver-sets", Severity: diag.Warning,
		Doc: "The master's driverSets disagrees with the driver-facts catalogue of the board's kernel. A master " +
			"with driverSets whose driver sets no mask gets no DMA capabilities from boardc and keeps the OF " +
			"default of 32 bits (of_platform_device_create_pdata(), drivers/of/platform.c), whatever its dma " +
			"says; a master without driverSets whose driver sets its masks gets boardc's capabilities, which " +
			"the driver's own call overrides at probe, and the runtime verifier expects the described width " +
			"where the driver's is. children must match a driver that sets the masks of the devices it " +
			"creates (the fsl-mc bus) and only such a driver. Each finding names the catalogue's fact: " +
			"kernel series, file:line and function. PCI host bridges, whose endpoints do the DMA, may carry " +
			"driverSets to say so; a master described as a bridge (bridge), or configured from another " +
			"master's node (dmaDevice), is not checked."},
	Run: func(p *Pass) {
		for _, m := range p.Board.SoC.Masters {
			d, matched := driverOf(p, m)
			if d == nil || !d.DMA.Kind.Known() || !m.HasOwnWidth() {
				// A bridge's own device does no DMA: its driver's
				// masks are nobody's; a master with dmaDevice states
				// no width to compare.
				continue
			}
			ds, k := m.DriverSets, d.DMA.Kind
			// Made only for a report: most masters have none, and
			// formatting the note for each was a third of the checks'
			// CPU in a BSP's build.
			note := func() diag.Note { return driverNote(p.Kernel, d, matched) }
			switch {
			case ds != nil && k == kernel.DMANone && d.Bridge == "":
				p.Report(m.Ref(), ds.Pos, fmt.Sprintf(
					"master %s says its driver sets its DMA masks, but %s sets none (kernel %s, %s): it keeps the 32-bit OF default and boardc writes no DMA capabilities for it",
					m.Key, d.Name, p.Kernel.Series, d.Probe), note())
			case ds == nil && setsMasks(k):
				where := d.Probe.String()
				if len(d.DMA.Sets) > 0 {
					where = SetText(d.DMA.Sets[0])
				}
				what := "its DMA masks"
				then := "boardc's DMA capabilities for it are overridden at probe"
				if k == kernel.DMAChildren {
					what = "the DMA masks of the devices it creates below its own"
					then = "say driverSets: {source: ..., children: true}"
				}
				p.Report(m.Ref(), m.Pos, fmt.Sprintf(
					"master %s has no driverSets, but its driver %s sets %s (kernel %s, %s): %s",
					m.Key, d.Name, what, p.Kernel.Series, where, then), append([]diag.Note{note()}, setNotes(p.Kernel, d)...)...)
			case ds != nil && k == kernel.DMAChildren && !ds.Children:
				p.Report(m.Ref(), ds.Pos, fmt.Sprintf(
					"master %s's driver %s sets the DMA masks of the devices it creates below its own, not its own (kernel %s, %s): say children: true",
					m.Key, d.Name, p.Kernel.Series, d.Probe), append([]diag.Note{note()}, setNotes(p.Kernel, d)...)...)
			case ds != nil && ds.Children && k != kernel.DMAChildren:
				p.Report(m.Ref(), ds.ChildrenPos.Or(ds.Pos), fmt.Sprintf(
					"master %s says its driver sets the masks of devices below its own (children), but %s sets %s (kernel %s, %s)",
					m.Key, d.Name, kindText(k), p.Kernel.Series, d.Probe), note())
			}
		}
	},
}

// DriverWidthsSet finds a master whose driverSets.widths are not the
// widths its driver chooses among.
var DriverWidthsSet = &Check{
	NeedsKernel: true,
	Needs:       FactMasters,
	Code: diag.Code{ID: "BC0703", Name: "driver-widths", Severity: diag.Warning,
		Doc: "The master's driverSets.widths differ from the streaming-mask widths its driver can set, as the " +
			"driver-facts catalogue of the board's kernel reads them from the driver's dma_set_mask*() calls. " +
			"The runtime verifier accepts exactly the widths stated: one the driver can never set is a " +
			"warning, since it hides a mismatch the verifier should find. A width the driver can set but the " +
			"description leaves out is information: the catalogue lists every width a driver's calls give, " +
			"for all its compatibles and whatever the hardware reports (xenon_probe(), " +
			"drivers/mmc/host/sdhci-xenon.c, sets 34 bits on AC5 alone), and the verifier reports it as a " +
			"mismatch on a board where the driver picks it. Only drivers whose widths the catalogue knows (fixed, " +
			"a choice, per compatible) are checked; the message names the calls."},
	Run: func(p *Pass) {
		for _, m := range p.Board.SoC.Masters {
			ds := m.DriverSets
			if ds == nil || !ds.WidthsPos.IsValid() {
				continue
			}
			d, matched := driverOf(p, m)
			if d == nil || d.DMA.Kind == kernel.DMANone {
				continue
			}
			ws := DriverWidths(d, matched)
			if len(ws) == 0 || slices.Equal(ws, ds.Widths) {
				continue
			}
			var never, left []int
			for _, w := range ds.Widths {
				if !slices.Contains(ws, w) {
					never = append(never, w)
				}
			}
			for _, w := range ws {
				if !slices.Contains(ds.Widths, w) {
					left = append(left, w)
				}
			}
			notes := append([]diag.Note{driverNote(p.Kernel, d, matched)}, setNotes(p.Kernel, d)...)
			if len(never) > 0 {
				p.Report(m.Ref(), ds.WidthsPos, fmt.Sprintf(
					"master %s's driverSets.widths are %s, but its driver %s sets %s, never %s (kernel %s, %s)",
					m.Key, widthsText(ds.Widths), d.Name, widthsText(ws), widthsText(never), p.Kernel.Series, d.Probe), notes...)
				continue
			}
			p.ReportSeverity(diag.Info, m.Ref(), ds.WidthsPos, fmt.Sprintf(
				"master %s's driverSets.widths are %s; its driver %s can also set %s (kernel %s, %s), which the verifier would report as a mismatch",
				m.Key, widthsText(ds.Widths), d.Name, widthsText(left), p.Kernel.Series, d.Probe), notes...)
		}
	},
}

// kindText says what a driver of kind k does with the masks.
func kindText(k kernel.DMAKind) string {
	switch k {
	case kernel.DMANone:
		return "no mask"
	case kernel.DMARuntime:
		return "its own device's masks, to a width it computes at probe"
	}
	return "its own device's masks"
}
