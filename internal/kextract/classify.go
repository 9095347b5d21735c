package kextract

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
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
func (ix *index) classify(w *walk, entries []entry, file string) (d kernel.DMA) {
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
			// is the bus's doing, not the driver's. The CDX controller
			// adds the devices it scans through cdx_device_add()
			// (drivers/cdx/cdx.c), which sets their masks.
			if s.ms.Width > 0 && (s.ms.Site.File == file || fslMC(file) && slices.Contains(s.ms.Via, "fsl_mc_device_add") ||
				strings.HasPrefix(file, "drivers/cdx/") && s.ms.Site.Func == "cdx_device_add") {
				kids = append(kids, s)
			}
		} else {
			own = append(own, s)
		}
	}
	own = ix.memberWidths(w, own)
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
		if !s.coh || len(w.alias) > 0 {
			streaming = append(streaming, s)
		}
	}
	// The coherent mask, when the driver sets it apart from the
	// streaming one (mvpp2_probe(): 40-bit streaming, 32-bit coherent).
	note := ""
	if len(w.alias) > 0 {
		note = fmt.Sprintf("dma_mask points at coherent_dma_mask (%s): the coherent mask's sets set both", w.alias[0])
	} else if len(streaming) > 0 {
		var coh []string
		for _, s := range own {
			if s.coh && s.ms.Width > 0 && !slices.ContainsFunc(streaming, func(t set) bool { return t.ms.Width == s.ms.Width }) {
				c := fmt.Sprintf("%d (%s)", s.ms.Width, s.ms.Site)
				if s.ms.Cond != "" {
					c = fmt.Sprintf("%d if %s (%s)", s.ms.Width, s.ms.Cond, s.ms.Site)
				}
				coh = append(coh, c)
			}
		}
		if len(coh) > 0 {
			note = "the coherent mask is set apart: " + strings.Join(coh, "; ")
		}
	}
	defer func() {
		if note != "" && d.Kind != kernel.DMAUnknown {
			d.Reason = joinReason(d.Reason, note)
		}
	}()
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
		if per, why, ok := ix.byMatchData(w, streaming, entries, file); ok {
			vals := map[int]bool{}
			for _, v := range per {
				vals[v] = true
			}
			switch {
			case len(vals) > 1:
				d.Kind, d.PerCompatible = kernel.DMAMatchData, per
				for v := range vals {
					d.Widths = append(d.Widths, v)
				}
				slices.Sort(d.Widths)
			case !slices.ContainsFunc(why, func(s string) bool { return strings.Contains(s, "no set runs") }):
				d.Kind = kernel.DMAFixed
				for v := range vals {
					d.Widths = []int{v}
				}
			default:
				d.Kind = kernel.DMANone
			}
			d.Reason = "the compatible that matched decides: " + strings.Join(why, "; ")
			return d
		}
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
	if fw, why, ok := ix.calleeWidths(w, runtime, file); ok && len(fw) == 0 && under(streaming, runtime) {
		// Every value is 0: the sets under it do not run.
		d.Kind = kernel.DMANone
		d.Reason = strings.Join(why, "; ") + "; so no set runs: the default of 32 stands"
		return d
	} else if ok && len(fw) > 0 {
		for _, s := range streaming {
			if s.ms.Width > 0 && !slices.Contains(fw, s.ms.Width) {
				fw = append(fw, s.ms.Width)
			}
		}
		if !slices.Contains(fw, 32) {
			fw = append(fw, 32)
		}
		slices.Sort(fw)
		d.Kind, d.Widths = kernel.DMAChoice, fw
		d.Reason = strings.Join(why, "; ") + "; else the default of 32"
		return d
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
	if parentOnly(runtime) {
		// vic_probe() copies its parent's mask (drivers/gpu/drm/tegra/
		// vic.c): the width is what the parent's driver set.
		d.Reason = "the width is the parent device's mask, set by the parent's driver: " + strings.Join(ex, "; ")
	}
	if conditional {
		// stmmac_dvr_probe() sets DMA_BIT_MASK(host_dma_width) only when
		// the core or the platform data gives a width: a device whose
		// core gives none keeps the default.
		d.Reason += "; else the default of 32"
	}
	return d
}

// memberWidths replaces a set whose width is a structure member by one
// set per constant the set's function assigns it, when that function
// assigns it only under that spelling and no other function or
// initializer the walk read assigns a member of that name:
// xhci_gen_setup() sets xhci->dma_mask_bits = 64 before its
// DMA_BIT_MASK(xhci->dma_mask_bits) (drivers/usb/host/xhci.c), and only
// xhci-pci's quirks, which a platform driver does not reach, set 36.
func (ix *index) memberWidths(w *walk, sets []set) []set {
	var out []set
	for _, s := range sets {
		a := s.traced
		if s.ms.Width != 0 || !a.member || len(a.values) == 0 || w.assignsElsewhere(lastMember(a.name), s.ms.Site) {
			out = append(out, s)
			continue
		}
		var rs []set
		for _, v := range a.values {
			n := ix.width(v, s.ms.Site.File, 0)
			if a.inBits {
				if n = ix.intval(v, s.ms.Site.File, 0); n > 64 {
					n = 0
				}
			}
			if n <= 0 {
				rs = nil
				break
			}
			r := s
			r.ms.Width = n
			r.ms.Cond = joinCond(s.ms.Cond, a.name+" = "+v)
			r.always = false
			rs = append(rs, r)
		}
		if rs == nil {
			out = append(out, s)
			continue
		}
		if len(rs) == 1 {
			rs[0].ms.Cond, rs[0].always = s.ms.Cond, s.always
		}
		out = append(out, rs...)
	}
	return out
}

// assignsElsewhere reports whether a function the walk read, other than
// the one at site, or an initializer it read, assigns a member named m.
func (w *walk) assignsElsewhere(m string, site kernel.Site) bool {
	for f := range w.seen {
		if f.file == site.File && f.name == site.Func {
			continue
		}
		if _, found := slices.BinarySearch(f.members, m); found {
			return true
		}
	}
	for v := range w.seenVar {
		for _, f := range v.fields {
			if f.path == m || strings.HasSuffix(f.path, "."+m) {
				return true
			}
		}
	}
	return false
}

// parentOnly reports whether every runtime width reads the parent
// device's mask ("*dev->parent->dma_mask").
func parentOnly(runtime []set) bool {
	for _, s := range runtime {
		if !strings.Contains(s.ms.Arg, "parent") || !strings.Contains(s.ms.Arg, "dma_mask") {
			return false
		}
	}
	return len(runtime) > 0
}

// joinReason joins two parts of a reason.
func joinReason(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
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

// calleeWidths resolves runtime widths read from members that no code
// the probe reaches assigns, other than the function of the set: such a
// member is 0 (the set's condition fails and the default stands) or
// what the code of the set's directory, outside other drivers' files,
// assigns it through callbacks the probe does not follow. Every one of
// those assignments must be a width constant. stmmac_dvr_probe() sets
// DMA_BIT_MASK(priv->dma_cap.host_dma_width) when host_dma_width =
// plat->host_dma_width (which only the imx, intel, mediatek and
// qcom-ethqos glues set) or dma_cap.addr64 (32, 40 or 48 from the
// feature register, decoded by dwmac4_get_hw_feature() and
// dwxgmac2_get_hw_feature(), reached through the core's DMA ops) is
// non-zero (drivers/net/ethernet/stmicro/stmmac/stmmac_main.c). It
// returns the widths and what gives each.
func (ix *index) calleeWidths(w *walk, runtime []set, file string) ([]int, []string, bool) {
	var widths []int
	var why []string
	add := func(n int) {
		if !slices.Contains(widths, n) {
			widths = append(widths, n)
		}
	}
	for _, s := range runtime {
		a := s.traced
		// The values must be all the traced name's: a local whose
		// address is never taken, or a member no other reached code
		// assigns.
		if !a.inBits || len(a.values) == 0 || !a.local && !a.member ||
			a.member && w.assignsElsewhere(lastMember(a.name), s.ms.Site) {
			return nil, nil, false
		}
		e := s.ms.Arg + " where " + a.name + " = " + a.traced
		if s.ms.Cond != "" {
			e += " if " + s.ms.Cond
		}
		why = append(why, e)
		dir := path.Dir(s.ms.Site.File)
		for k, v := range a.values {
			if k < len(a.lines) && a.lines[k] > s.ms.Site.Line {
				continue // assigned after the set
			}
			if n := ix.intval(v, s.ms.Site.File, 0); n >= 1 && n <= 64 {
				add(n)
				continue
			}
			m := lastMember(v)
			if m == "" || !reMemberPath.MatchString(v) || w.assignsElsewhere(m, s.ms.Site) {
				return nil, nil, false
			}
			var vals []int
			var by, left []string
			for p, f := range ix.files {
				if path.Dir(p) != dir || drives(f) {
					continue
				}
				for _, fn := range f.funcs {
					if fn.file == s.ms.Site.File && fn.name == s.ms.Site.Func {
						continue
					}
					if _, found := slices.BinarySearch(fn.members, m); !found {
						continue
					}
					i := slices.IndexFunc(fn.consts, func(c memberConst) bool { return c.name == m })
					if i < 0 || fn.consts[i].other {
						return nil, nil, false
					}
					if t := ix.ownTableWithout(w, fn, dir, file); t != "" {
						left = append(left, fmt.Sprintf("%s:%d %s() (%s)", fn.file, fn.line, fn.name, t))
						continue
					}
					for _, n := range fn.consts[i].vals {
						if !slices.Contains(vals, n) {
							vals = append(vals, n)
						}
					}
					by = append(by, fmt.Sprintf("%s:%d %s()", fn.file, fn.line, fn.name))
				}
			}
			if len(vals) == 0 {
				// Left 0, the set does not run: only a set under a
				// condition may read it.
				if s.ms.Cond == "" {
					return nil, nil, false
				}
				slices.Sort(left)
				if len(left) > 0 {
					why = append(why, v+" is assigned only by "+strings.Join(left, ", ")+": 0")
				} else {
					why = append(why, v+" is assigned by no code the probe reaches (0)")
				}
				continue
			}
			slices.Sort(vals)
			slices.Sort(by)
			for _, n := range vals {
				add(n)
			}
			why = append(why, fmt.Sprintf("%s is %s as %s assign it, through callbacks the probe does not follow (the hardware decides)", v, ints(vals), strings.Join(by, ", ")))
		}
	}
	return widths, why, true
}

// reMemberPath matches a member access: "priv->dma_cap.addr64".
var reMemberPath = regexp.MustCompile(`^[A-Za-z_]\w*((->|\.)[A-Za-z_]\w*)+$`)

// drives reports whether a file defines a driver structure: its code
// runs for its own devices, not another driver's.
func drives(f *file) bool {
	for _, v := range f.vars {
		if strings.HasSuffix(v.typ, "_driver") && v.typ != "device_driver" {
			return true
		}
	}
	return false
}

// ints writes widths as "32, 40 or 48".
func ints(ns []int) string {
	var s []string
	for _, n := range ns {
		s = append(s, strconv.Itoa(n))
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// ownTableWithout returns, when the driver's own file (file) defines a
// table the walk reached of the type of every table of dir that holds
// callback fn, and none of the driver's tables of that type has fn's
// operation, "the driver's own T name (file:line) has no .op": the
// driver's table stands in for the core's, which a core fills in only
// where the driver's leaves a gap (stmmac_hwif_init(), mac->dma =
// mac->dma ?: entry->dma, drivers/net/ethernet/stmicro/stmmac/hwif.c;
// dwmac-sun8i's sun8i_dwmac_dma_ops has no .get_hw_feature).
func (ix *index) ownTableWithout(w *walk, fn *function, dir, file string) string {
	type op struct{ typ, path string }
	var ops []op
	for p, f := range ix.files {
		if path.Dir(p) != dir {
			continue
		}
		for _, v := range f.vars {
			for _, fl := range v.fields {
				if strings.TrimPrefix(fl.value, "&") == fn.name && v.typ != "" {
					ops = append(ops, op{v.typ, fl.path})
				}
			}
		}
	}
	if len(ops) == 0 {
		return ""
	}
	var own []*variable
	for v := range w.seenVar {
		if v.file == file && v.typ == ops[0].typ {
			own = append(own, v)
		}
	}
	if len(own) == 0 {
		return ""
	}
	for _, o := range ops {
		if o.typ != ops[0].typ || o.path != ops[0].path {
			return ""
		}
	}
	slices.SortFunc(own, func(a, b *variable) int { return a.line - b.line })
	for _, v := range own {
		if val, _ := v.get(ops[0].path); val != "" {
			return ""
		}
	}
	return fmt.Sprintf("the driver's own struct %s %s (%s:%d) has no .%s", own[0].typ, own[0].name, own[0].file, own[0].line, ops[0].path)
}

// under reports whether every constant-width set is under the
// condition of a runtime set (the fallback inside "if (width)"), and
// every runtime set has a condition.
func under(streaming, runtime []set) bool {
	for _, r := range runtime {
		if r.ms.Cond == "" {
			return false
		}
	}
	for _, s := range streaming {
		if s.ms.Width == 0 {
			continue
		}
		if !slices.ContainsFunc(runtime, func(r set) bool { return strings.HasPrefix(s.ms.Cond, r.ms.Cond) }) {
			return false
		}
	}
	return true
}
