package kextract

import (
	"fmt"
	"slices"
	"strings"

	"boardc.dev/boardc/compiler/kernel"
)

// classify turns what a probe reaches into the driver's DMA fact. The
// rules, in order (docs/kernel-facts.md):
//   - a call the extractor cannot follow that can reach a mask set
//     (an ambiguous global, a chain deeper than maxDepth): unknown;
//   - no mask set on the device itself: children when the driver's own
//     code (or the fsl-mc bus) sets constant masks on devices it
//     creates, none otherwise;
//   - every streaming-mask width a constant: fixed when one width is
//     set unconditionally, choice otherwise (a width set only under a
//     condition leaves the OF default of 32 bits when it fails);
//   - widths read from one member of the match data, every compatible's
//     data giving a constant: match-data;
//   - otherwise runtime.
func (ix *index) classify(w *walk, entries []entry, file string) kernel.DMA {
	var own, kids []set
	for _, s := range w.sets {
		if s.child {
			// A child given its parent's masks (mfd_add_device(),
			// drivers/mfd/mfd-core.c) is no width of the driver's, nor
			// is a device a subsystem creates for it (an nvmem layout,
			// drivers/nvmem/layouts.c): only the driver's own code
			// and the fsl-mc bus's count. A DPAA2 object driver that
			// scans for its endpoint (fsl_mc_get_endpoint()) adds
			// objects through the bus, which sets their masks: that
			// is the bus's doing, not the driver's.
			if s.ms.Width > 0 && (s.ms.Site.File == file || fslMC(file) && slices.Contains(s.ms.Via, "fsl_mc_device_add")) {
				kids = append(kids, s)
			}
		} else {
			own = append(own, s)
		}
	}
	var d kernel.DMA
	for _, s := range own {
		d.Sets = append(d.Sets, s.ms)
	}
	if len(w.unknown) > 0 {
		d.Kind = kernel.DMAUnknown
		d.Reason = strings.Join(w.unknown, "; ")
		return d
	}
	var streaming []set
	for _, s := range own {
		if !s.coh {
			streaming = append(streaming, s)
		}
	}
	if len(streaming) == 0 {
		if len(kids) > 0 && len(own) == 0 {
			d.Kind = kernel.DMAChildren
			for _, s := range kids {
				d.Sets = append(d.Sets, s.ms)
				if s.ms.Width > 0 && !s.coh && !slices.Contains(d.Widths, s.ms.Width) {
					d.Widths = append(d.Widths, s.ms.Width)
				}
			}
			slices.Sort(d.Widths)
			d.Reason = "the masks are set on the devices the driver creates, not on its own"
			return d
		}
		d.Kind = kernel.DMANone
		if len(own) > 0 {
			d.Reason = "only the coherent mask is set; the streaming mask keeps its default"
		}
		return d
	}
	var runtime []set
	uncond := map[int]bool{}
	always := false
	var widths []int
	for _, s := range streaming {
		if s.ms.Width == 0 {
			runtime = append(runtime, s)
			continue
		}
		if !slices.Contains(widths, s.ms.Width) {
			widths = append(widths, s.ms.Width)
		}
		if s.ms.Cond == "" {
			uncond[s.ms.Width] = true
		}
		always = always || s.always
	}
	if len(runtime) == 0 {
		if len(widths) == 1 && uncond[widths[0]] {
			d.Kind, d.Widths = kernel.DMAFixed, widths
			return d
		}
		var why []string
		for _, s := range streaming {
			if s.ms.Cond != "" {
				why = append(why, fmt.Sprintf("%d if %s", s.ms.Width, s.ms.Cond))
			}
		}
		if !always && !slices.Contains(widths, 32) {
			widths = append(widths, 32)
			why = append(why, "else the default of 32")
		}
		slices.Sort(widths)
		d.Kind, d.Widths = kernel.DMAChoice, widths
		if len(widths) == 1 {
			d.Kind = kernel.DMAFixed
		}
		d.Reason = strings.Join(why, "; ")
		return d
	}
	if len(widths) == 0 {
		if per, ok := ix.perCompatible(w, runtime, entries, file); ok {
			d.Kind, d.PerCompatible = kernel.DMAMatchData, per
			for _, v := range per {
				if !slices.Contains(d.Widths, v) {
					d.Widths = append(d.Widths, v)
				}
			}
			slices.Sort(d.Widths)
			return d
		}
	}
	d.Kind = kernel.DMARuntime
	var ex []string
	conditional := true // every set is under a condition: the default may stand
	for _, s := range runtime {
		e := s.ms.Arg
		if s.traced.traced != "" {
			inner := strip(s.ms.Arg)
			if m := reBitMsk.FindStringSubmatch(inner); m != nil {
				inner = strip(m[1])
			}
			e += " where " + inner + " = " + s.traced.traced
		}
		if s.ms.Cond != "" {
			e += " if " + s.ms.Cond
		}
		conditional = conditional && s.ms.Cond != "" && !s.always
		if !slices.Contains(ex, e) {
			ex = append(ex, e)
		}
	}
	for _, s := range streaming {
		if s.ms.Width != 0 && s.ms.Cond == "" || s.always {
			conditional = false
		}
	}
	d.Reason = "the width is computed at probe: " + strings.Join(ex, "; ")
	if conditional {
		// stmmac_dvr_probe() sets DMA_BIT_MASK(host_dma_width) only when
		// the core or the platform data gives a width: a device whose
		// core gives none keeps the default.
		d.Reason += "; else the default of 32"
	}
	return d
}

// perCompatible reads a runtime width from the match data: every
// runtime set reads one member, and each compatible's .data initializer
// gives it a constant.
func (ix *index) perCompatible(w *walk, runtime []set, entries []entry, file string) (map[string]int, bool) {
	if !w.match {
		return nil, false
	}
	member, inBits := "", false
	for _, s := range runtime {
		m, b := fieldOf(s.traced)
		if m == "" || member != "" && (m != member || b != inBits) {
			return nil, false
		}
		member, inBits = m, b
	}
	per := map[string]int{}
	for _, e := range entries {
		if strings.HasPrefix(e.key, "amba:") || strings.HasPrefix(e.key, "fsl-mc:") {
			return nil, false
		}
		val, vfile := ix.memberOf(e.data, file, member, 0)
		if val == "" {
			return nil, false
		}
		n := ix.width(val, vfile, 0)
		if inBits {
			n = ix.intval(val, vfile, 0)
		}
		if n < 1 || n > 64 {
			return nil, false
		}
		per[e.key] = n
	}
	return per, len(per) > 0
}

// memberOf finds the value of member in the initializer that a .data
// value points to, or in one it points to in turn.
func (ix *index) memberOf(data, file, member string, depth int) (string, string) {
	if depth > 2 {
		return "", ""
	}
	for _, id := range identifiers(data) {
		v := ix.variable(id, file)
		if v == nil {
			continue
		}
		for _, f := range v.fields {
			if f.path == member || strings.HasSuffix(f.path, "."+member) {
				return f.value, v.file
			}
		}
		for _, f := range v.fields {
			if val, vf := ix.memberOf(f.value, v.file, member, depth+1); val != "" {
				return val, vf
			}
		}
	}
	return "", ""
}

// fslMC reports whether a file is the fsl-mc bus's own
// (drivers/bus/fsl-mc/: the MC platform driver and the DPRC driver).
func fslMC(file string) bool { return strings.HasPrefix(file, "drivers/bus/fsl-mc/") }
