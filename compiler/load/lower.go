package load

import (
	"fmt"
	"slices"
	"sort"

	"cuelang.org/go/cue"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// lowerer turns a validated description into the IR, resolving references
// between its parts (master.bus, bus.parent). A reference to something the
// description does not declare is reported at the reference.
//
// A partial description (see Evaluate) is lowered as far as it goes: an
// element whose fields are missing is lowered with zero values for them,
// and its ref is kept in missing, with the refs of what lowering itself
// cannot resolve, so that the checks that read those facts do not run.
type lowerer struct {
	pos     *positions
	diags   diag.List
	missing []ir.Ref
	// data is the description as written, for a partial one.
	data cue.Value
	// onSoC is the board's SoC lowered already, for a board on a
	// prepared SoC (Loader.loadOnSoC).
	onSoC *ir.SoC
}

// lacks reports whether the element r, or anything below it, lacks a
// fact.
func (lw *lowerer) lacks(r ir.Ref) bool {
	for _, m := range lw.missing {
		if r.Contains(m) {
			return true
		}
	}
	return false
}

// isMissing reports whether the element r itself is missing: an element
// the SoC does not declare, which has no facts to lower.
func (lw *lowerer) isMissing(r ir.Ref) bool {
	return slices.Contains(lw.missing, r)
}

// report records an error of lowering about the element on, which then
// lacks the fact.
func (lw *lowerer) report(d diag.Diagnostic, on ir.Ref) {
	lw.diags = append(lw.diags, d)
	lw.missing = append(lw.missing, on)
}

func (lw *lowerer) errorf(on ir.Ref, pos ir.Pos, format string, args ...any) {
	lw.report(diag.Diagnostic{
		Pos: pos, Severity: diag.Error, Code: diag.Reference.ID,
		Message: fmt.Sprintf(format, args...),
	}, on)
}

func (lw *lowerer) board(n node) *ir.Board {
	b := &ir.Board{
		Name:          n.at("name").str(),
		Pos:           n.at("name").Pos(),
		Compatible:    n.at("compatible").strs(),
		CompatiblePos: n.at("compatible").Pos(),
	}
	if m := n.at("model"); m.exists() {
		b.Model = m.str()
	}
	if d := n.at("dts"); d.exists() {
		b.DTS = d.str()
		b.DTSPos = d.Pos()
	}
	if k := n.at("kernel"); k.exists() {
		b.Kernel, b.KernelPos = k.str(), k.Pos()
	}
	if lw.onSoC != nil {
		b.SoC = *lw.onSoC
	} else {
		b.SoC = lw.soc(n.at("soc"))
		b.SoC.DeriveDPNIs()
	}
	// Memory the description lacks is left out rather than read as the
	// schema's bare element type (a region at 0 of size 0).
	for _, m := range lw.list(n.at("memory"), "memory") {
		b.Memory = append(b.Memory, ir.MemRegion{Base: m.val("base").uint(), Size: m.val("size").uint(), Pos: m.Pos()})
	}
	b.Policy = lw.policy(n.at("policy"))
	if sd := n.at("dpaa2").at("serdes"); sd.exists() {
		b.SerDes, b.HasSerDes, b.SerDesPos = sd.ints(), true, sd.Pos()
		for _, e := range sd.list() {
			b.SerDesPositions = append(b.SerDesPositions, e.Pos())
		}
	}
	ws := n.at("waivers")
	if lw.lacks("waivers") && lw.data.Exists() {
		// A wrong value in a waiver leaves the whole waiver, or the
		// list, unreadable in the unified value: read what the user
		// wrote, so that the waiver still names its check and element.
		ws = node{v: lw.data.LookupPath(cue.MakePath(cue.Str("waivers"))), pos: lw.pos, fallback: ws.Pos()}
	}
	for _, w := range ws.list() {
		on := w.at("on")
		b.Waivers = append(b.Waivers, ir.Waiver{
			Check: w.val("check").str(), On: on.str(),
			Reason: w.val("reason").str(), Pos: w.Pos(), OnPos: on.Pos(),
		})
	}
	b.ResolvePolicy()
	return b
}

func (lw *lowerer) soc(n node) ir.SoC {
	s := ir.SoC{
		Name:             n.at("name").str(),
		Pos:              n.at("name").Pos(),
		Compatible:       n.at("compatible").strs(),
		RootAddressCells: n.at("root").at("#address-cells").int(),
		RootSizeCells:    n.at("root").at("#size-cells").int(),
		RootPos:          n.at("root").Pos(),
	}
	for _, c := range n.at("cpus").at("clusters").list() {
		cl := ir.Cluster{Core: c.val("core").str(), CPUs: c.val("cpus").ints(), Pos: c.Pos()}
		for _, f := range c.at("cores").fields() {
			cl.Cores = append(cl.Cores, ir.CoreCPUs{Core: f.name, CPUs: f.ints(), Pos: f.Pos()})
		}
		s.Clusters = append(s.Clusters, cl)
	}
	byKey := map[string]*ir.Bus{}
	parents := map[*ir.Bus]node{}
	for _, f := range n.at("buses").fields() {
		if lw.isMissing(ir.BusRef(f.name)) {
			// An element the SoC does not declare: nothing to lower.
			continue
		}
		b := lw.bus(f.name, f.node)
		byKey[f.name] = b
		s.Buses = append(s.Buses, b)
		if p := f.at("parent"); p.exists() {
			parents[b] = p
		}
	}
	for _, b := range s.Buses {
		p, ok := parents[b]
		if !ok {
			continue
		}
		b.ParentPos = p.Pos()
		switch b.Parent = byKey[p.str()]; {
		case b.Parent != nil:
		case lw.lacks(b.Ref().Field("parent")) || lw.isMissing(ir.BusRef(p.str())):
			// The parent is missing, or not declared by the SoC, as
			// the loader reported.
			lw.missing = append(lw.missing, b.Ref().Field("parent"))
		default:
			lw.errorf(b.Ref().Field("parent"), p.Pos(), "soc.buses.%s.parent: bus %q is not declared in soc.buses", b.Key, p.str())
		}
	}
	lw.checkCycles(s.Buses)
	fs := slices.DeleteFunc(n.at("masters").fields(), func(f field) bool { return lw.isMissing(ir.MasterRef(f.name)) })
	masters, buses := make([]*ir.Master, len(fs)), make([]string, len(fs))
	problems := make([]*diag.Diagnostic, len(fs))
	for i, f := range fs {
		masters[i], buses[i], problems[i] = lowerMaster(f.name, f.node)
	}
	for _, d := range problems {
		if d != nil {
			lw.report(*d, d.Ref)
		}
	}
	for i, m := range masters {
		if m.Bus = byKey[buses[i]]; m.Bus == nil {
			if lw.lacks(m.Ref().Field("bus")) || lw.isMissing(ir.BusRef(buses[i])) {
				// Its bus is missing, or not declared by the SoC,
				// as the loader reported: the master is left out.
				lw.missing = append(lw.missing, m.Ref().Field("bus"))
				continue
			}
			lw.errorf(m.Ref().Field("bus"), m.BusPos, "soc.masters.%s.bus: bus %q is not declared in soc.buses", m.Key, buses[i])
			continue
		}
		s.Masters = append(s.Masters, m)
	}
	lw.dmaDevices(masters)
	if d := n.at("irqDelivery"); d.exists() {
		s.IRQDelivery = &ir.IRQDelivery{One: d.val("targets").str() == "one", Source: d.val("source").str(), Pos: d.Pos()}
	}
	if d := n.at("dpaa2"); d.exists() {
		s.DPAA2 = lw.dpaa2(d)
	}
	return s
}

// checkCycles reports a bus that is its own ancestor; the IR's parent chain
// must end at the root.
func (lw *lowerer) checkCycles(buses []*ir.Bus) {
	for _, b := range buses {
		slow, fast := b, b
		for fast != nil && fast.Parent != nil {
			slow, fast = slow.Parent, fast.Parent.Parent
			if slow == fast {
				lw.errorf(b.Ref().Field("parent"), b.ParentPos, "soc.buses.%s.parent: the bus is its own ancestor", b.Key)
				b.Parent = nil
				break
			}
		}
	}
}

func (lw *lowerer) bus(key string, n node) *ir.Bus {
	n = n.withPos()
	cells := n.at("#address-cells")
	b := &ir.Bus{
		Key:          key,
		Pos:          n.Pos(),
		Node:         lowerNode(n.at("node")),
		AddressCells: cells.int(),
		SizeCells:    n.val("#size-cells").int(),
		CellsPos:     cells.Pos(),
	}
	if a := n.at("addressBits"); a.exists() {
		b.AddressBits, b.AddressBitsPos = a.int(), a.Pos()
	}
	c := n.at("coherency").withPos()
	b.Coherency = ir.BusCoherency{
		Coherent: c.val("coherent").bool(),
		Source:   c.val("source").str(),
		Masters:  c.val("masters").str(),
		Pos:      c.at("coherent").Pos(),
	}
	if f := c.at("flagAt"); f.exists() {
		b.Coherency.FlagAt, b.Coherency.FlagAtPos = f.str(), f.Pos()
	}
	if r := n.at("dmaRanges"); r.exists() {
		b.HasDMARanges, b.DMARangesPos = true, r.Pos()
		for _, e := range r.list() {
			b.DMARanges = append(b.DMARanges, ir.DMARange{
				Child: e.val("child").uint(), Parent: e.val("parent").uint(),
				Size: e.val("size").uint(), Pos: e.Pos(),
			})
		}
	}
	return b
}

func lowerNode(n node) ir.Node {
	n = n.withPos()
	path := n.at("path")
	out := ir.Node{Path: path.str(), Pos: n.Pos(), PathPos: path.Pos()}
	if l := n.at("label"); l.exists() {
		out.Label, out.LabelPos = l.str(), l.Pos()
	}
	return out
}

// lowerMaster lowers one master and returns the key of its bus, which the
// caller resolves, and what is wrong with its DMA capabilities, if
// anything. Fields are looked up one by one: listing a struct's fields
// sorts them, which costs more than a lookup on a struct this small.
func lowerMaster(key string, n node) (*ir.Master, string, *diag.Diagnostic) {
	n = n.withPos()
	compat, bus := n.at("compatible"), n.at("bus")
	m := &ir.Master{
		Key:           key,
		Pos:           n.Pos(),
		Node:          lowerNode(n.at("node")),
		Compatible:    compat.strs(),
		CompatiblePos: compat.Pos(),
		BusPos:        bus.Pos(),
		Enabled:       true,
	}
	var problem *diag.Diagnostic
	if d := n.at("dmaDevice"); d.exists() {
		m.DMADeviceKey, m.DMADevicePos = d.str(), d.Pos()
		problem = lowerDMADevice(m, n)
	} else if b := n.at("bridge"); b.exists() && b.val("kind").str() == ir.BridgeFSLMC {
		problem = lowerFSLMC(m, n, b)
	} else if b.exists() {
		m.Bridge = &ir.Bridge{Kind: b.val("kind").str(), Source: b.val("source").str(), Pos: b.Pos()}
		if e := b.at("endpoints"); e.exists() {
			w := e.at("widths")
			m.Bridge.Endpoints, m.Bridge.EndpointsPos, m.Bridge.EndpointsSource = w.ints(), w.Pos(), e.val("source").str()
			slices.Sort(m.Bridge.Endpoints)
			m.Bridge.Endpoints = slices.Compact(m.Bridge.Endpoints)
		}
		if r := b.at("dmaRanges"); r.exists() {
			m.Bridge.DMARangesPos = r.Pos()
			for _, e := range r.list() {
				m.Bridge.DMARanges = append(m.Bridge.DMARanges, ir.DMARange{
					Child: e.val("child").uint(), Parent: e.val("parent").uint(),
					Size: e.val("size").uint(), Flags: uint32(e.val("flags").uint()), Pos: e.Pos(),
				})
			}
		}
		problem = lowerBridge(m, n)
	} else {
		problem = lowerDMA(m, n)
	}
	if d := n.at("driverSets"); d.exists() && m.HasOwnWidth() && m.DriverSets == nil {
		m.DriverSets = &ir.DriverSet{Source: d.val("source").str(), Pos: d.Pos()}
		if c := d.val("children"); c.exists() {
			m.DriverSets.Children, m.DriverSets.ChildrenPos = c.bool(), c.Pos()
		}
		if w := d.val("widths"); w.exists() {
			m.DriverSets.Widths, m.DriverSets.WidthsPos = w.ints(), w.Pos()
			slices.Sort(m.DriverSets.Widths)
			m.DriverSets.Widths = slices.Compact(m.DriverSets.Widths)
		}
	}
	if e := n.at("enabled"); e.exists() {
		m.Enabled, m.EnabledPos = e.bool(), e.Pos()
	}
	if c := n.at("coherency"); c.exists() && m.DMADeviceKey == "" {
		m.Coherency = &ir.MasterCoherency{Coherent: c.val("coherent").bool(), Pos: c.Pos()}
		if s := c.val("source"); s.exists() {
			m.Coherency.Source = s.str()
		}
		if r := c.val("reason"); r.exists() {
			m.Coherency.Reason = r.str()
		}
	}
	if i := n.at("iommu"); i.exists() {
		m.IOMMU, m.IOMMUPos = i.str(), i.Pos()
	}
	if d := n.val("driver"); d.exists() {
		m.Driver = d.str()
	}
	var aff *ir.IRQAffinity
	if a := n.at("irqAffinity"); a.exists() {
		aff = &ir.IRQAffinity{Keys: a.val("driver").strs(), Source: a.val("source").str(), Managed: a.val("managed").bool(), Pos: a.Pos()}
	}
	m.IRQAffinity = aff
	counts := n.at("irqCount")
	if counts.exists() {
		m.IRQCountPos = counts.Pos()
		for _, f := range counts.fields() {
			m.IRQCountKeys = append(m.IRQCountKeys, f.name)
		}
	}
	for _, f := range n.at("irqs").fields() {
		q := ir.IRQ{Key: f.name, Name: f.str(), Pos: f.Pos(), Count: 1}
		// Without irqCount, no lookup: it would cost an evaluation
		// context and an error value per IRQ.
		if counts.exists() {
			if c := counts.val(f.name); c.exists() {
				q.Count = c.int()
			}
		}
		if aff != nil && slices.Contains(aff.Keys, f.name) {
			q.Driver = aff
		}
		m.IRQs = append(m.IRQs, q)
	}
	if nd := n.at("netdev"); nd.exists() {
		for _, f := range nd.fields() {
			nd := ir.NetDev{
				Name: f.name, RxQueues: f.val("rxQueues").int(), TxQueues: f.val("txQueues").int(),
				RSS: f.val("rss").bool(), Pos: f.Pos(), ByName: f.val("byName").bool(),
				Channels: f.val("channels").bool(),
			}
			if mac := f.val("dpmac"); mac.exists() {
				nd.DPMAC, nd.DPMACPos = mac.int(), mac.Pos()
			}
			if lt := f.val("dpmacLinkType"); lt.exists() {
				nd.DPMACLinkType, nd.DPMACLinkTypePos = lt.str(), lt.Pos()
			}
			if a := f.val("alias"); a.exists() {
				nd.Alias = a.str()
			}
			if pt := f.at("port"); pt.exists() {
				nd.Port = lowerNode(pt)
			}
			if x := f.at("driverXPS"); x.exists() {
				nd.DriverXPS = &ir.DriverSet{Source: x.val("source").str(), Pos: x.Pos()}
			}
			if d := f.val("dpni"); d.exists() {
				nd.DPNI, nd.HasDPNI, nd.DPNIPos = d.int(), true, d.Pos()
			}
			m.NetDevs = append(m.NetDevs, nd)
		}
	}
	return m, bus.str(), problem
}

// lowerDMA sets m's DMA mask widths from dma (streaming, and coherent
// defaulting to it) or from its old spelling dmaBits, and returns the
// diagnostic of a master that gives neither or both.
func lowerDMA(m *ir.Master, n node) *diag.Diagnostic {
	caps, bits := n.at("dma"), n.at("dmaBits")
	switch {
	case caps.exists() && bits.exists():
		return &diag.Diagnostic{
			Pos: bits.Pos(), Severity: diag.Error, Code: diag.Conflict.ID, Ref: ir.MasterRef(m.Key).Field("dmaBits"),
			Message: fmt.Sprintf("soc.masters.%s: both dma and dmaBits; dmaBits is the old spelling of dma: {streaming: N}: keep one", m.Key),
			Notes:   []diag.Note{{Pos: caps.Pos(), Message: "dma is given here"}},
		}
	case caps.exists():
		s := caps.at("streaming")
		m.DMABits, m.DMABitsPos = s.int(), s.Pos()
		m.CoherentBits, m.CoherentBitsPos = m.DMABits, m.DMABitsPos
		if c := caps.at("coherent"); c.exists() {
			m.CoherentBits, m.CoherentBitsPos = c.int(), c.Pos()
		}
	case bits.exists():
		m.DMABits, m.DMABitsPos = bits.int(), bits.Pos()
		m.CoherentBits, m.CoherentBitsPos = m.DMABits, m.DMABitsPos
	default:
		return &diag.Diagnostic{
			Pos: m.Pos, Severity: diag.Error, Code: diag.Missing.ID, Ref: ir.MasterRef(m.Key).Field("dma"),
			Message: fmt.Sprintf("soc.masters.%s.dma: required field is missing: the master's DMA mask widths, dma: {streaming: N} (or the old dmaBits: N)", m.Key),
		}
	}
	return nil
}

// lowerBridge returns the diagnostic of a bridge that states a DMA
// width or a driver's masks: a bridge has none of its own (its endpoints'
// drivers set theirs, pci_dma_configure() in drivers/pci/pci-driver.c
// configures them from the bridge's node), and a width given would be
// taken for one.
func lowerBridge(m *ir.Master, n node) *diag.Diagnostic {
	f, v, ok := firstGiven(n, "dma", "dmaBits", "driverSets")
	if !ok {
		return nil
	}
	return &diag.Diagnostic{
		Pos: v.Pos(), Severity: diag.Error, Code: diag.Conflict.ID, Ref: ir.MasterRef(m.Key).Field(f),
		Message: fmt.Sprintf("soc.masters.%s: %s with bridge: a %s has no DMA width of its own, its endpoints' drivers set their masks; remove %s (bridge.endpoints states their widths)", m.Key, f, m.Bridge.KindText(), f),
		Notes:   []diag.Note{{Pos: m.Bridge.Pos, Message: "bridge is given here"}},
	}
}

// firstGiven returns the first of fields that n states, with its value;
// ok is false when n states none of them.
func firstGiven(n node, fields ...string) (string, node, bool) {
	for _, f := range fields {
		if v := n.at(f); v.exists() {
			return f, v, true
		}
	}
	return "", node{}, false
}

// lowerDMADevice returns the diagnostic of a master with dmaDevice that
// states what the kernel takes from the DMA device's node instead (a
// width, a driver's masks, a coherency fact) or is a bridge: the driver
// hands of_dma_configure() the DMA device's node, whose facts are the
// ones that apply.
func lowerDMADevice(m *ir.Master, n node) *diag.Diagnostic {
	f, v, ok := firstGiven(n, "dma", "dmaBits", "driverSets", "coherency", "bridge")
	if !ok {
		return nil
	}
	return &diag.Diagnostic{
		Pos: v.Pos(), Severity: diag.Error, Code: diag.Conflict.ID, Ref: ir.MasterRef(m.Key).Field(f),
		Message: fmt.Sprintf("soc.masters.%s: %s with dmaDevice: the kernel configures its DMA from master %s's node, whose facts apply; remove %s (state it on master %s)", m.Key, f, m.DMADeviceKey, f, m.DMADeviceKey),
		Notes:   []diag.Note{{Pos: m.DMADevicePos, Message: "dmaDevice is given here"}},
	}
}

// lowerFSLMC lowers bridge kind "fsl-mc" as the facts it says: the
// fsl-mc bus sets 64-bit masks on the objects it creates below the MC's
// device (fsl_mc_device_add(), drivers/bus/fsl-mc/fsl-mc-bus.c), the
// same as dma: streaming: 64 with driverSets children, which the checks,
// the verifier and the target plan already know. It returns the
// diagnostic of a width, masks, endpoints or dmaRanges given with it:
// the bus decides the objects' masks, and the MC's node is no PCI host
// bridge's.
func lowerFSLMC(m *ir.Master, n, b node) *diag.Diagnostic {
	pos := b.at("kind").Pos()
	m.DMABits, m.DMABitsPos = ir.FSLMCMaskBits, pos
	m.CoherentBits, m.CoherentBitsPos = ir.FSLMCMaskBits, pos
	m.DriverSets = &ir.DriverSet{Source: ir.FSLMCSource, Pos: pos, Children: true, ChildrenPos: pos, MC: b.val("source").str()}
	ref := ir.MasterRef(m.Key)
	if f, v, ok := firstGiven(n, "dma", "dmaBits", "driverSets"); ok {
		return fslMCConflict(m, v, f, ref.Field(f), pos)
	}
	if f, v, ok := firstGiven(b, "endpoints", "dmaRanges"); ok {
		return fslMCConflict(m, v, "bridge."+f, ref.Field("bridge").Field(f), pos)
	}
	return nil
}

// fslMCConflict is the diagnostic of field f, at v (ref), given with
// bridge kind "fsl-mc" at kind.
func fslMCConflict(m *ir.Master, v node, f string, ref ir.Ref, kind ir.Pos) *diag.Diagnostic {
	return &diag.Diagnostic{
		Pos: v.Pos(), Severity: diag.Error, Code: diag.Conflict.ID, Ref: ref,
		Message: fmt.Sprintf("soc.masters.%s: %s with bridge kind \"fsl-mc\": the fsl-mc bus gives its objects 64-bit masks (fsl_mc_device_add()), narrowed to the dma-ranges from the MC's node; remove %s", m.Key, f, f),
		Notes:   []diag.Note{{Pos: kind, Message: "bridge kind \"fsl-mc\" is given here"}},
	}
}

// dmaDevices resolves each master's dmaDevice to the master it names,
// among every master lowered (those left out for their bus included):
// one declared in soc.masters, not itself, and configured from its own
// node (no dmaDevice of its own: the kernel uses the named node as it
// is, so a chain would describe a configuration no driver makes).
func (lw *lowerer) dmaDevices(masters []*ir.Master) {
	byKey := make(map[string]*ir.Master, len(masters))
	keys := make([]string, 0, len(masters))
	for _, m := range masters {
		byKey[m.Key] = m
		keys = append(keys, m.Key)
	}
	for _, m := range masters {
		k := m.DMADeviceKey
		if k == "" {
			continue
		}
		ref := m.Ref().Field("dmaDevice")
		switch d := byKey[k]; {
		case d == nil && lw.isMissing(ir.MasterRef(k)), d != nil && d.Bus == nil:
			// Missing, or left out for its bus, as reported there.
			lw.missing = append(lw.missing, ref)
		case d == nil:
			msg := fmt.Sprintf("soc.masters.%s.dmaDevice: master %q is not declared in soc.masters", m.Key, k)
			if c := diag.Closest(k, keys); c != "" {
				msg += fmt.Sprintf("; did you mean %s?", c)
			}
			lw.errorf(ref, m.DMADevicePos, "%s", msg)
		case d == m:
			lw.errorf(ref, m.DMADevicePos, "soc.masters.%s.dmaDevice: names the master itself; a master configured from its own node needs no dmaDevice", m.Key)
		case d.DMADeviceKey != "":
			lw.errorf(ref, m.DMADevicePos, "soc.masters.%s.dmaDevice: master %s is itself configured from master %s's node; the kernel uses the node it is handed as it is: name the master whose node it is", m.Key, k, d.DMADeviceKey)
		default:
			m.DMADevice = d
		}
	}
}

func (lw *lowerer) dpaa2(n node) *ir.DPAA2 {
	st := n.at("stash")
	d := &ir.DPAA2{
		StashClusterBase: st.at("clusterBase").int(),
		StashClusterSize: st.at("clusterSize").int(),
		StashSource:      st.at("source").str(),
		StashPos:         st.Pos(),
		DPNI:             n.at("dpni").int(),
		DPCON:            n.at("dpcon").int(),
		DPNIPos:          n.at("dpni").Pos(),
		DPCONPos:         n.at("dpcon").Pos(),
		RXStashing:       n.at("rxStashing").bool(),
		RXStashingPos:    n.at("rxStashing").Pos(),
		Pos:              n.Pos(),
	}
	for _, e := range n.at("dpios").list() {
		d.DPIOs = append(d.DPIOs, ir.DPIO{ID: e.val("id").int(), CPU: e.val("cpu").int(), Decl: len(d.DPIOs), Pos: e.Pos()})
	}
	sort.SliceStable(d.DPIOs, func(i, j int) bool { return d.DPIOs[i].ID < d.DPIOs[j].ID })
	if t := n.at("serdesProtocols"); t.exists() {
		d.SerDesSource, d.SerDesTablePos = t.at("source").str(), t.Pos()
		for _, e := range t.at("table").list() {
			d.SerDesTable = append(d.SerDesTable, ir.SerDesProtocol{
				SerDes: e.val("serdes").int(), Protocol: e.val("protocol").int(),
				DPMACs: e.val("dpmacs").ints(), Pos: e.Pos(),
			})
		}
	}
	if c := n.at("dpc"); c.exists() {
		d.HasDPC, d.DPCPos = true, c.Pos()
		d.WQChConversion, d.DPCSource = c.at("wqChConversion").int(), c.at("source").str()
	}
	return d
}

func (lw *lowerer) policy(n node) ir.Policy {
	p := ir.Policy{
		IsolatedCPUs:  n.at("isolatedCPUs").ints(),
		IsolatedPos:   n.at("isolatedCPUs").Pos(),
		IrqbalanceBan: n.at("irqbalanceBan").bool(),
	}
	if irqs := n.at("irqs").list(); len(irqs) > 0 {
		p.IRQs = make([]ir.IRQPin, len(irqs))
		for i, e := range irqs {
			p.IRQs[i] = ir.IRQPin{IRQ: e.val("irq").str(), CPUs: e.val("cpus").ints(), Pos: e.Pos()}
		}
	}
	for _, f := range n.at("net").fields() {
		np := ir.NetPolicy{IfName: f.name, RPSFlowCount: -1, Pos: f.Pos()}
		for _, q := range f.val("rps").list() {
			np.RPS = append(np.RPS, q.ints())
		}
		for _, q := range f.val("xps").list() {
			np.XPS = append(np.XPS, q.ints())
		}
		if c := f.at("rpsFlowCount"); c.exists() {
			np.RPSFlowCount = c.int()
		}
		p.Net = append(p.Net, np)
	}
	for _, f := range n.at("sysctls").fields() {
		p.Sysctls = append(p.Sysctls, ir.Sysctl{Key: f.name, Value: f.scalar(), Pos: f.Pos()})
	}
	return p
}

// list returns the elements of the list n, the element r of the
// description, or none when r lacks a fact: a list the description does
// not give is the schema's type, whose elements are not values.
func (lw *lowerer) list(n node, r ir.Ref) []node {
	if lw.lacks(r) {
		return nil
	}
	return n.list()
}
