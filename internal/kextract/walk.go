package kextract

import (
	"fmt"
	"slices"
	"strings"

	"boardc.dev/boardc/compiler/kernel"
)

// maxDepth bounds the call chains followed from a probe function.
const maxDepth = 10

// index is the whole tree's functions, variables and macros.
type index struct {
	files     map[string]*file
	funcs     map[string][]*function // by name, every definition
	fileFuncs map[string]map[string]*function
	fileVars  map[string]map[string]*variable
	visible   map[string][]*function // by name, those other files can see
	vars      map[string][]*variable // by name, those other files can see
	defines   map[string][]string    // by name, the distinct bodies
	reach     map[*function]bool     // memo of reachesMask
}

func newIndex(files []*file) *index {
	ix := &index{files: map[string]*file{}, funcs: map[string][]*function{},
		fileFuncs: map[string]map[string]*function{}, fileVars: map[string]map[string]*variable{},
		visible: map[string][]*function{}, vars: map[string][]*variable{}, defines: map[string][]string{}, reach: map[*function]bool{}}
	for _, f := range files {
		ix.files[f.path] = f
		ff := map[string]*function{}
		for _, fn := range f.funcs {
			if _, dup := ff[fn.name]; !dup {
				ff[fn.name] = fn
			}
			ix.funcs[fn.name] = append(ix.funcs[fn.name], fn)
			if !fn.static || strings.HasSuffix(fn.file, ".h") {
				ix.visible[fn.name] = append(ix.visible[fn.name], fn)
			}
		}
		ix.fileFuncs[f.path] = ff
		fv := map[string]*variable{}
		for _, v := range f.vars {
			fv[v.name] = v
			if !v.static {
				ix.vars[v.name] = append(ix.vars[v.name], v)
			}
		}
		ix.fileVars[f.path] = fv
		for name, body := range f.defines {
			if !slices.Contains(ix.defines[name], body) {
				ix.defines[name] = append(ix.defines[name], body)
			}
		}
	}
	return ix
}

// resolve returns the definitions a call of name from a file can reach:
// the file's own, else every definition other files can see (global
// functions, and static inline ones of headers). More than one is an
// ambiguity the caller must handle.
func (ix *index) resolve(name, from string) []*function {
	if fn := ix.fileFuncs[from][name]; fn != nil {
		return []*function{fn}
	}
	return ix.visible[name]
}

// variable returns the file-scope variable name as a file sees it.
func (ix *index) variable(name, from string) *variable {
	if v := ix.fileVars[from][name]; v != nil {
		return v
	}
	if vs := ix.vars[name]; len(vs) == 1 {
		return vs[0]
	}
	return nil
}

// core reports whether a file belongs to the driver core, the OF and
// ACPI layers or the PCI core: code a driver calls into that acts on
// devices in general. The extractor does not descend into it (see
// docs/kernel-facts.md).
func core(path string) bool {
	for _, p := range []string{"drivers/base/", "drivers/of/", "drivers/acpi/"} {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return strings.HasPrefix(path, "drivers/pci/") && !strings.HasPrefix(path, "drivers/pci/controller/")
}

// reachesMask reports whether any mask event is reachable from fn over
// direct calls and callback references, unbounded.
func (ix *index) reachesMask(fn *function) bool {
	if r, ok := ix.reach[fn]; ok {
		return r
	}
	seen := map[*function]bool{}
	var dfs func(f *function) bool
	dfs = func(f *function) bool {
		if seen[f] || core(f.file) {
			return false
		}
		seen[f] = true
		for _, e := range f.events {
			switch e.k {
			case evMask:
				return true
			case evCall, evRef:
				for _, c := range ix.resolve(e.name, f.file) {
					if dfs(c) {
						return true
					}
				}
			}
		}
		return false
	}
	r := dfs(fn)
	ix.reach[fn] = r
	return r
}

// bridges are the calls that make a device a bridge whose children do
// the DMA (drivers/pci/probe.c, drivers/pci/controller/dwc/,
// drivers/bus/fsl-mc/fsl-mc-bus.c, drivers/gpu/host1x/bus.c).
var bridges = map[string]string{
	"pci_host_probe":             "pci-host",
	"pci_host_common_probe":      "pci-host",
	"dw_pcie_host_init":          "pci-host",
	"devm_pci_alloc_host_bridge": "pci-host",
	"pci_alloc_host_bridge":      "pci-host",
	"fsl_mc_device_add":          "fsl-mc",
	"host1x_register":            "host1x",
}

// matchGetters return the match data of the compatible that matched.
var matchGetters = map[string]bool{
	"of_device_get_match_data": true, "device_get_match_data": true,
	"of_match_device": true, "of_match_node": true, "i2c_get_match_data": true,
	"spi_get_device_match_data": true,
}

// set is one mask set found on a walk.
type set struct {
	ms    kernel.MaskSet
	child bool
	coh   bool // sets the coherent mask only
	// always is set when the call runs whenever the probe does: no
	// condition but, at most, a ternary choosing its argument.
	always bool
	traced alt
}

// walk is what one driver's probe reaches.
type walk struct {
	ix      *index
	seen    map[*function]bool
	seenVar map[*variable]bool
	sets    []set
	unknown []string
	match   bool // the code reads its match data
	// matchVars are the lvalues the reached code assigns the match
	// data to (function.matchVars).
	matchVars map[string]matchVar
	// alias lists the places that point the device's streaming mask at
	// its coherent one (dev->dma_mask = &dev->coherent_dma_mask).
	alias    []kernel.Site
	bridge   string
	irqs     []kernel.IRQ
	affinity []kernel.Site
	xps      []kernel.Site
	setCh    *kernel.Site
	netdev   bool
	queue    []item
}

func newWalk(ix *index) *walk {
	return &walk{ix: ix, seen: map[*function]bool{}, seenVar: map[*variable]bool{}}
}

func joinConds(cs ...string) string {
	var out []string
	for _, c := range cs {
		if c != "" {
			out = append(out, c)
		}
	}
	return strings.Join(out, " && ")
}

// item is a function or an initializer the walk has yet to read.
type item struct {
	fn    *function
	v     *variable
	via   []string
	cond  string
	depth int
	child bool
}

// visit queues fn, reached through via under cond.
func (w *walk) visit(fn *function, via []string, cond string, depth int, child bool) {
	w.queue = append(w.queue, item{fn: fn, via: via, cond: cond, depth: depth, child: child})
}

// visitVar queues the initializer v.
func (w *walk) visitVar(v *variable, via []string, cond string, depth int, child bool) {
	w.queue = append(w.queue, item{v: v, via: via, cond: cond, depth: depth, child: child})
}

// run reads the queue breadth first: each function is read at the
// shallowest depth it is reached, through the shortest chain.
func (w *walk) run() {
	for i := 0; i < len(w.queue); i++ {
		it := w.queue[i]
		if it.fn != nil {
			w.readFunc(it.fn, it.via, it.cond, it.depth, it.child)
		} else {
			w.readVar(it.v, it.via, it.cond, it.depth, it.child)
		}
	}
	w.queue = nil
}

// readFunc walks fn, reached through via under cond.
func (w *walk) readFunc(fn *function, via []string, cond string, depth int, child bool) {
	if w.seen[fn] || core(fn.file) {
		return
	}
	w.seen[fn] = true
	site := func(line int) kernel.Site { return kernel.Site{File: fn.file, Line: line, Func: fn.name} }
	if !child {
		for _, v := range fn.matchVars {
			if w.matchVars == nil {
				w.matchVars = map[string]matchVar{}
			}
			if _, dup := w.matchVars[v.name]; !dup {
				w.matchVars[v.name] = v
			}
		}
	}
	for _, e := range fn.events {
		c := joinConds(cond, e.cond)
		switch e.k {
		case evMask:
			if e.other {
				continue
			}
			if e.alias {
				// Only an unconditional one: "if (!pdev->dev.dma_mask)"
				// never holds for a platform device, whose dma_mask
				// points at its platform_dma_mask
				// (drivers/base/platform.c).
				if !child && !e.child && c == "" {
					w.alias = append(w.alias, site(e.line))
				}
				continue
			}
			for _, a := range w.ix.expand(e.alts, fn.file) {
				ms := kernel.MaskSet{Call: e.name, Arg: a.expr, Width: w.ix.width(a.expr, fn.file, 0),
					Cond: joinConds(c, a.cond), Site: site(e.line), Via: slices.Clone(via)}
				if a.width > 0 {
					ms.Width = a.width
				}
				w.sets = append(w.sets, set{ms: ms, child: child || e.child,
					coh: e.name == "dma_set_coherent_mask" || e.name == "coherent_dma_mask =", traced: a.alt, always: c == ""})
			}
		case evIRQ:
			if !child {
				w.irqs = append(w.irqs, kernel.IRQ{Name: e.arg, Kind: e.irqKind, Site: site(e.line)})
			}
		case evAffinity:
			if !child {
				w.affinity = append(w.affinity, site(e.line))
			}
		case evXPS:
			if !child {
				w.xps = append(w.xps, site(e.line))
			}
		case evCall:
			if matchGetters[e.name] {
				w.match = true
			}
			if strings.HasPrefix(e.name, "alloc_etherdev") || e.name == "register_netdev" || e.name == "devm_register_netdev" {
				w.netdev = true
			}
			if b := bridges[e.name]; b != "" && !child {
				w.bridge = b
			}
			w.call(fn, e.name, via, c, depth, child || e.name == "fsl_mc_device_add", false)
		case evRef:
			if v := w.ix.variable(e.name, fn.file); v != nil && v.typ != "" && len(w.ix.resolve(e.name, fn.file)) == 0 {
				w.visitVar(v, append(slices.Clone(via), "&"+e.name), c, depth+1, child)
				continue
			}
			w.call(fn, e.name, via, c, depth, child, true)
		}
	}
}

// call follows a call of (or a reference to) name from fn.
func (w *walk) call(fn *function, name string, via []string, cond string, depth int, child, callback bool) {
	cands := w.ix.resolve(name, fn.file)
	var live []*function
	for _, c := range cands {
		if !core(c.file) {
			live = append(live, c)
		}
	}
	if len(live) == 0 {
		return
	}
	if len(live) > 1 {
		var files []string
		reach := false
		for _, c := range live {
			files = append(files, c.file)
			if w.ix.reachesMask(c) {
				reach = true
			}
		}
		if reach && !child {
			w.unknown = append(w.unknown, fmt.Sprintf("%s() (called from %s() in %s) is defined in %d files (%s) and one of them can set a DMA mask",
				name, fn.name, fn.file, len(live), strings.Join(firstN(files, 3), ", ")))
		}
		return
	}
	c := live[0]
	if w.seen[c] {
		return
	}
	if depth >= maxDepth {
		if !child && w.reachesUnseen(c) {
			w.unknown = append(w.unknown, fmt.Sprintf("the call chain to %s() (from %s() in %s) is deeper than %d calls and can reach a DMA mask set",
				name, fn.name, fn.file, maxDepth))
		}
		return
	}
	step := name
	if callback {
		step = "&" + name
	}
	w.visit(c, append(slices.Clone(via), step), cond, depth+1, child)
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return append(slices.Clone(s[:n]), "...")
	}
	return s
}

// readVar follows the function names and variables an initializer
// reached from the probe uses as values: the callbacks it registers.
func (w *walk) readVar(v *variable, via []string, cond string, depth int, child bool) {
	if w.seenVar[v] || core(v.file) || depth > maxDepth {
		return
	}
	// A driver structure (this one's or another's), and match tables,
	// register nothing this driver runs at probe.
	if p, _ := first(v, "probe", "probe_new"); p != "" || strings.HasSuffix(v.typ, "_device_id") || v.typ == "amba_id" {
		return
	}
	w.seenVar[v] = true
	if v.typ == "ethtool_ops" {
		w.netdev = true
		if h, _ := v.get("set_channels"); h != "" {
			if fn := w.ix.resolve(h, v.file); len(fn) == 1 {
				s := kernel.Site{File: fn[0].file, Line: fn[0].line, Func: fn[0].name}
				w.setCh = &s
			}
		}
	}
	for _, r := range v.refs {
		if rv := w.ix.variable(r.name, v.file); rv != nil {
			w.visitVar(rv, append(slices.Clone(via), "&"+r.name), cond, depth+1, child)
			continue
		}
		fn := w.ix.resolve(r.name, v.file)
		if len(fn) == 1 && !w.seen[fn[0]] {
			w.visit(fn[0], append(slices.Clone(via), "&"+r.name), cond, depth+1, child)
		}
	}
}

// walt is an alternative of a mask argument as the walk sees it: a call
// of a helper that returns masks is one alternative per return.
type walt struct {
	alt
	width int // the helper's return width, 0 when not a helper's
}

// expand replaces an alternative that calls a helper whose every
// return is a constant mask (caam_get_dma_mask(), drivers/crypto/caam/
// intern.h) by one alternative per return, conditioned on it.
func (ix *index) expand(alts []alt, file string) []walt {
	var out []walt
	for _, a := range alts {
		fn, isCall := callee(strip(a.expr))
		if a.local && len(a.values) > 0 {
			// A local assigned only constants: one alternative per
			// value.
			var rs []walt
			for _, v := range a.values {
				w := ix.width(v, file, 0)
				if a.inBits {
					if w = ix.intval(v, file, 0); w > 64 {
						w = 0
					}
				}
				if w <= 0 {
					rs = nil
					break
				}
				rs = append(rs, walt{alt: alt{expr: a.expr, cond: joinCond(a.cond, a.name+" = "+v)}, width: w})
			}
			if rs != nil {
				out = append(out, rs...)
				continue
			}
		}
		var fns []*function
		if isCall && fn != "DMA_BIT_MASK" {
			fns = ix.resolve(fn, file)
		}
		if len(fns) != 1 || len(fns[0].returns) == 0 {
			out = append(out, walt{alt: a})
			continue
		}
		var rs []walt
		for _, r := range fns[0].returns {
			w := ix.width(r.expr, fns[0].file, 0)
			if w == 0 {
				rs = nil
				break
			}
			c := strip(a.expr) + " returns " + r.expr
			if r.cond != "" {
				c += " if " + r.cond
			}
			rs = append(rs, walt{alt: alt{expr: a.expr, cond: joinCond(a.cond, c)}, width: w})
		}
		if rs == nil {
			out = append(out, walt{alt: a})
			continue
		}
		out = append(out, rs...)
	}
	return out
}

// reachesUnseen reports whether a mask set is reachable from fn in a
// function the walk has not read: past the depth bound, what the walk
// already read (every shallower function, breadth first) is no loss.
func (w *walk) reachesUnseen(fn *function) bool {
	seen := map[*function]bool{}
	var dfs func(f *function) bool
	dfs = func(f *function) bool {
		if seen[f] || w.seen[f] || core(f.file) {
			return false
		}
		seen[f] = true
		for _, e := range f.events {
			switch e.k {
			case evMask:
				return true
			case evCall, evRef:
				for _, c := range w.ix.resolve(e.name, f.file) {
					if dfs(c) {
						return true
					}
				}
			}
		}
		return false
	}
	return dfs(fn)
}
