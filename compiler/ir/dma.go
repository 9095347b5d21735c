package ir

import "math/bits"

// Bus is an interconnect as the device tree describes it.
type Bus struct {
	Key  string
	Pos  Pos
	Node Node
	// Parent is the enclosing bus: nil for a bus directly under the root,
	// and for a bus on the root node itself (Node.Path "/"), which check
	// BC0503 (root-bus) keeps without one.
	Parent *Bus
	// ParentPos is the position of the parent reference, if any.
	ParentPos    Pos
	AddressCells int
	SizeCells    int
	CellsPos     Pos
	// AddressBits is the interconnect's DMA address width, 0 when unknown.
	AddressBits    int
	AddressBitsPos Pos
	Coherency      BusCoherency
	// DMARanges holds the bus's translations; HasDMARanges distinguishes an
	// empty (identity) dma-ranges from none at all.
	DMARanges    []DMARange
	HasDMARanges bool
	DMARangesPos Pos
}

// ParentCells returns the #address-cells and #size-cells of the bus's
// parent node: the root's for a bus directly under the root.
func (s *SoC) ParentCells(b *Bus) (addr, size int) {
	if b.Parent == nil {
		return s.RootAddressCells, s.RootSizeCells
	}
	return b.Parent.AddressCells, b.Parent.SizeCells
}

// Ancestors returns the bus's parents, nearest first.
func (b *Bus) Ancestors() []*Bus {
	var out []*Bus
	for p := b.Parent; p != nil; p = p.Parent {
		out = append(out, p)
	}
	return out
}

// BusPath returns the master's bus and the buses above it, nearest first:
// its DT parents in the order of_dma_get_range() walks them.
func (m *Master) BusPath() []*Bus {
	return append([]*Bus{m.Bus}, m.Bus.Ancestors()...)
}

// Coherency scope values of BusCoherency.Masters.
const (
	ScopeAll      = "all"
	ScopeVerified = "verified"
)

// BusCoherency is the interconnect-level coherency fact.
type BusCoherency struct {
	Coherent bool
	Source   string
	// Masters is ScopeAll or ScopeVerified.
	Masters string
	Pos     Pos
	// FlagAt is the path of the node whose dma-coherent makes the masters
	// of an "all" bus coherent, where upstream states it (the bus's node
	// or an ancestor); "" for none: the fragment marks each master.
	FlagAt    string
	FlagAtPos Pos
}

// DMARange is one dma-ranges triplet.
type DMARange struct {
	Child, Parent, Size uint64
	// Flags is the flags cell (phys.hi) of a PCI child address, for a
	// window of a PCI host bridge's dma-ranges (Bridge.DMARanges); 0 on a
	// bus's.
	Flags uint32
	Pos   Pos
}

// Master is a DMA-capable device.
type Master struct {
	Key           string
	Pos           Pos
	Node          Node
	Compatible    []string
	CompatiblePos Pos
	Bus           *Bus
	BusPos        Pos
	// DMABits is the width of the streaming DMA mask, CoherentBits that
	// of the coherent mask (the same unless the description splits them).
	DMABits         int
	DMABitsPos      Pos
	CoherentBits    int
	CoherentBitsPos Pos
	// DriverSets is set when the master's driver sets its masks itself:
	// the C output has nothing for it.
	DriverSets *DriverSet
	// Bridge is set when the master is a bridge whose endpoints do the
	// DMA: DMABits and CoherentBits are then 0 and DriverSets nil.
	Bridge *Bridge
	// DMADeviceKey names the master from whose node the kernel configures
	// this one's DMA (dmaDevice), at DMADevicePos; DMADevice is that
	// master once resolved (nil while the key names none). Such a master
	// has no width (DMABits 0), no DriverSets, Bridge or Coherency.
	DMADeviceKey string
	DMADevicePos Pos
	DMADevice    *Master
	// Coherency is the master's own fact, nil when it has none.
	Coherency *MasterCoherency
	IOMMU     string
	// IOMMUPos is the position of iommu, if given.
	IOMMUPos Pos
	Driver   string
	Enabled  bool
	// EnabledPos is the position of enabled, where the description
	// states it.
	EnabledPos Pos
	IRQs       []IRQ // sorted by Key
	// IRQAffinity is the master's irqAffinity fact, nil when it has none;
	// IRQCountKeys and IRQCountPos are the keys and position of its
	// irqCount.
	IRQAffinity  *IRQAffinity
	IRQCountKeys []string
	IRQCountPos  Pos
	NetDevs      []NetDev // sorted by Name
}

// DriverSet is the fact that a driver sets a master's DMA masks itself.
type DriverSet struct {
	Source string
	Pos    Pos
	// Children says the masks are set on the devices created below the
	// master's device, when they are created (fsl_mc_device_add()), not
	// on the device bound to its node; ChildrenPos is where it is said.
	Children    bool
	ChildrenPos Pos
	// Widths are the streaming-mask widths the driver can set, one of
	// which it picks at probe, sorted; nil when the description does not
	// say. WidthsPos is where it says them.
	Widths    []int
	WidthsPos Pos
	// MC is the source of bridge kind "fsl-mc" where the description
	// says the fact that way (ir.BridgeFSLMC): the masks are then the
	// bus's (fsl_mc_device_add()), Children is true and the widths 64.
	MC string
}

// BridgePCIe is the kind of a PCI(e) host bridge.
const BridgePCIe = "pcie"

// BridgeFSLMC is the kind of the DPAA2 Management Complex's node, lowered
// as the master whose masks the fsl-mc bus sets on the objects below it
// (DriverSet.Children, DriverSet.MC), not as a Bridge.
const BridgeFSLMC = "fsl-mc"

// FSLMCMaskBits is the width of both masks fsl_mc_device_add()
// (drivers/bus/fsl-mc/fsl-mc-bus.c) gives every DPAA2 object but a
// container: FSL_MC_DEFAULT_DMA_MASK, ~0ULL.
const FSLMCMaskBits = 64

// FSLMCSource names where the fsl-mc bus sets its objects' masks.
const FSLMCSource = "drivers/bus/fsl-mc/fsl-mc-bus.c fsl_mc_device_add(): FSL_MC_DEFAULT_DMA_MASK, 64-bit streaming and coherent masks on every object but a DPRC"

// Bridge is the fact that a master is a bridge: the devices behind it
// master DMA with masks their own drivers set, and take their DMA
// configuration from the bridge's node (for a PCI host bridge,
// pci_dma_configure(), drivers/pci/pci-driver.c, hands
// of_dma_configure() the bridge's node).
type Bridge struct {
	Kind   string
	Source string
	Pos    Pos
	// Endpoints are the streaming-mask widths the endpoints' drivers
	// set, sorted; nil when the description does not say. EndpointsPos
	// is where it says them, EndpointsSource the functions it names.
	Endpoints       []int
	EndpointsPos    Pos
	EndpointsSource string
	// DMARanges are the bridge node's own dma-ranges as the description
	// states them, at DMARangesPos: its inbound windows, whose child
	// addresses are PCI bus addresses with their flags (Flags). The
	// schema states one window at least, or none.
	DMARanges    []DMARange
	DMARangesPos Pos
}

// HasDMARanges reports whether the description states the bridge node's
// own dma-ranges.
func (b *Bridge) HasDMARanges() bool { return len(b.DMARanges) > 0 }

// PCIAddressCells and PCISizeCells are a PCI host bridge node's cell
// counts, as the PCI bus binding fixes them and of_bus_pci_count_cells()
// (drivers/of/address.c, Linux 6.12) assumes them: a child address is the
// flags cell and a 64-bit bus address.
const (
	PCIAddressCells = 3
	PCISizeCells    = 2
)

// PCISpace returns the space code of a PCI address's flags cell (phys.hi
// bits 24-25: 0 configuration, 1 I/O, 2 32-bit memory, 3 64-bit memory;
// of_bus_pci_get_flags(), drivers/of/address.c).
func PCISpace(flags uint32) uint32 { return flags >> 24 & 3 }

// KindText names the bridge's kind in prose: "PCIe host bridge".
func (b *Bridge) KindText() string {
	if b.Kind == BridgePCIe {
		return "PCIe host bridge"
	}
	return b.Kind + " bridge"
}

// IsBridge reports whether the master is a bridge whose endpoints do the
// DMA, with no DMA width of its own.
func (m *Master) IsBridge() bool { return m.Bridge != nil }

// HasOwnWidth reports whether the description gives the master a DMA
// width of its own: not a bridge (its endpoints' drivers set theirs), and
// not a master whose DMA is configured from another master's node
// (dmaDevice).
func (m *Master) HasOwnWidth() bool { return m.Bridge == nil && m.DMADeviceKey == "" }

// CoherentWidth returns the width of the master's coherent DMA mask: its
// streaming width unless the description splits them (or, for a board
// built by hand, CoherentBits is not set).
func (m *Master) CoherentWidth() int {
	if m.CoherentBits == 0 {
		return m.DMABits
	}
	return m.CoherentBits
}

// ChildWidths returns the widths of the streaming and coherent masks of a
// device below the master's whose masks were set as it was created
// (DriverSet.Children: fsl_mc_device_add()), once a driver is bound to
// it: of_dma_configure_id() (drivers/of/device.c), called at bind with the
// master's node (fsl_mc_dma_configure(), drivers/bus/fsl-mc/fsl-mc-bus.c),
// ands both with DMA_BIT_MASK(ilog2(end) + 1), end the top of the
// dma-ranges the walk from that node finds (EndpointDMALimit); with none it
// returns before (force_dma false) and narrows nothing.
func (m *Master) ChildWidths() (streaming, coherent int) {
	limit, _ := m.EndpointDMALimit()
	return NarrowedWidth(m.DMABits, limit), NarrowedWidth(m.CoherentWidth(), limit)
}

// NarrowedWidth returns width anded with DMA_BIT_MASK(ilog2(limit) + 1),
// as of_dma_configure_id() narrows a mask, or width for no limit (0).
func NarrowedWidth(width int, limit uint64) int {
	if limit == 0 {
		return width
	}
	return min(width, bits.Len64(limit))
}

// WidestBits returns the wider of the master's two DMA masks.
func (m *Master) WidestBits() int { return max(m.DMABits, m.CoherentWidth()) }

// MasterCoherency is a master-level coherency fact.
type MasterCoherency struct {
	Coherent bool
	Source   string
	Reason   string
	Pos      Pos
}

// Coherence says how a master's effective coherency was decided.
type Coherence int

// The ways a master's coherency is decided.
const (
	// NonCoherentBus: the bus cannot snoop; the master is not coherent.
	NonCoherentBus Coherence = iota
	// Inherited: a coherent bus whose fact covers all masters.
	Inherited
	// Verified: the master's own fact on a coherent bus says coherent.
	Verified
	// OptedOut: the master's own fact on a coherent bus says non-coherent.
	OptedOut
	// Unverified: a coherent bus that covers only verified masters, and the
	// master has no fact of its own.
	Unverified
)

// Coherence returns how the master's coherency is decided.
func (m *Master) Coherence() Coherence {
	if d := m.DMADevice; d != nil {
		// of_dma_configure_id() takes the coherency of the node it is
		// handed (of_dma_is_coherent(np)), the DMA device's.
		return d.Coherence()
	}
	switch {
	case !m.Bus.Coherency.Coherent:
		return NonCoherentBus
	case m.Coherency != nil && m.Coherency.Coherent:
		return Verified
	case m.Coherency != nil:
		return OptedOut
	case m.Bus.Coherency.Masters == ScopeAll:
		return Inherited
	default:
		return Unverified
	}
}

// Coherent reports whether the master's DMA is cache-coherent. A master is
// never coherent on a bus that cannot snoop, whatever its own fact says.
func (m *Master) Coherent() bool {
	c := m.Coherence()
	return c == Inherited || c == Verified
}

// DeletesCoherent reports whether the fragment must delete the master's
// dma-coherent: its own fact says it is not coherent, and a dma-coherent
// the upstream tree may carry would otherwise win, since
// of_dma_is_coherent() (drivers/of/address.c) answers true on it before it
// looks at dma-noncoherent.
func (m *Master) DeletesCoherent() bool {
	return m.Coherency != nil && !m.Coherency.Coherent
}

// OverlayDeletes returns the masters whose opt-out needs a property
// deleted, which a device-tree overlay cannot do: of_overlay_fdt_apply()
// and fdtoverlay only add and change properties.
func (s *SoC) OverlayDeletes() []*Master {
	var out []*Master
	for _, m := range s.Masters {
		if m.DeletesCoherent() {
			out = append(out, m)
		}
	}
	return out
}

// IRQ is an IRQ of a master, by its action name in /proc/interrupts.
type IRQ struct {
	Key  string
	Name string
	Pos  Pos
	// Count is how many IRQs carry Name (irqCount.KEY, 1 by default).
	Count int
	// Driver is non-nil when the master's driver places this IRQ itself
	// with an affinity hint.
	Driver *IRQAffinity
}

// IRQAffinity is the fact that a driver places some of its master's IRQs
// with an affinity hint.
type IRQAffinity struct {
	Keys    []string // the keys of the IRQs it places
	Source  string
	Managed bool
	Pos     Pos
}

// IRQDelivery is the interrupt controller's delivery fact: whether it
// delivers each IRQ to one CPU of its mask.
type IRQDelivery struct {
	One    bool
	Source string
	Pos    Pos
}

// NetDev is a network interface of a master.
type NetDev struct {
	Name     string
	RxQueues int
	TxQueues int
	RSS      bool
	Pos      Pos
	// DPMAC is the DPMAC the interface's DPNI connects to, 0 for none
	// (DPAA2 only).
	DPMAC    int
	DPMACPos Pos
	// DPMACLinkType is the link type the DPC gives the DPMAC, "phy" or
	// "backplane", "" for the MC's default.
	DPMACLinkType    string
	DPMACLinkTypePos Pos
	// Alias is the interface's DT alias, empty when it has none; DPNI is
	// the DPAA2 DPNI object id behind it when HasDPNI, DPNIPos where the
	// description states it (zero when DeriveDPNIs took it from the
	// data-path layout's numbering); ByName finds it by Name instead of
	// by hardware.
	Alias   string
	DPNI    int
	HasDPNI bool
	DPNIPos Pos
	ByName  bool
	// Port is the interface's own device-tree node, below its master's
	// (mvpp2's ethernet-port@N); its Path is empty when the description
	// names none and the interface is found by its master's node.
	Port Node
	// DriverXPS is non-nil when the driver sets the XPS masks itself.
	DriverXPS *DriverSet
	// Channels sets RxQueues and TxQueues with ethtool -L.
	Channels bool
}

// HasPort says whether the description names the interface's own
// device-tree node.
func (n *NetDev) HasPort() bool { return n.Port.Path != "" }

// FoundByNode says whether tune.sh finds the interface by a device-tree
// node (its port's, else its master's): not by name, not by DPAA2 object.
func (n *NetDev) FoundByNode() bool { return !n.ByName && !n.HasDPNI }

// MemRegion is a RAM region.
type MemRegion struct {
	Base, Size uint64
	Pos        Pos
}

// BusDMALimit returns what the kernel sets as the master's
// dev->bus_dma_limit from the description's dma-ranges, and the bus whose
// dma-ranges gives it: 0 and nil when the kernel sets none.
//
// of_dma_configure_id() (drivers/of/device.c) takes the ranges of
// of_dma_get_range() (drivers/of/address.c) from the master's parent bus
// and sets bus_dma_limit to the highest DMA address they reach
// (dma_range_map_max(): the largest child address + size - 1). The walk
// goes up from the bus: an empty dma-ranges is an identity and the walk
// goes on; a missing one on the first node is passed over, and on any
// later node ends the walk with none (-ENODEV); the first non-empty one
// ends it. The described buses are taken to be the master's DT parents
// in order, and the master's own node to carry no dma-ranges.
//
// For a master whose DMA is configured from another master's node
// (dmaDevice), the walk starts on that node itself (of_dma_configure_id()
// walks from the node it is handed when it is not the device's own), as
// for the devices behind a bridge: the DMA device's EndpointDMALimit.
func (m *Master) BusDMALimit() (uint64, *Bus) {
	if d := m.DMADevice; d != nil {
		return d.EndpointDMALimit()
	}
	return dmaLimit(m.BusPath(), true)
}

// EndpointDMALimit is BusDMALimit for the PCI devices behind the master,
// when it is a PCI host bridge: pci_dma_configure()
// (drivers/pci/pci-driver.c) hands of_dma_configure() the bridge's own
// node, so the walk starts there and the master's bus is the second node
// of the walk. The bridge's own non-empty dma-ranges (Bridge.DMARanges)
// end the walk on the bridge's node: the limit is then their highest bus
// address + size - 1 (of_pci_range_parser_one(), drivers/of/address.c,
// reads the bus address after the flags cell) and the bus is nil. An
// empty one, or none, passes the walk on to the bus.
func (m *Master) EndpointDMALimit() (uint64, *Bus) {
	if top, ok := m.BridgeDMALimit(); ok {
		return top, nil
	}
	return dmaLimit(m.BusPath(), false)
}

// BridgeDMALimit returns the highest DMA address of the bridge's own
// non-empty dma-ranges, bus address + size - 1 over its windows
// (dma_range_map_max(), include/linux/dma-direct.h); ok is false for a
// master that is no bridge or whose description states no such ranges.
func (m *Master) BridgeDMALimit() (top uint64, ok bool) {
	if m.Bridge == nil || !m.Bridge.HasDMARanges() {
		return 0, false
	}
	for _, r := range m.Bridge.DMARanges {
		top = max(top, r.Child+(r.Size-1))
	}
	return top, true
}

// dmaLimit walks chain as of_dma_get_range() does; firstMayLack says
// whether chain[0] is the walk's first node (whose missing dma-ranges is
// passed over) or comes after it.
func dmaLimit(chain []*Bus, firstMayLack bool) (uint64, *Bus) {
	for i, b := range chain {
		switch {
		case !b.HasDMARanges && i == 0 && firstMayLack:
			continue
		case !b.HasDMARanges:
			return 0, nil
		case len(b.DMARanges) == 0:
			continue
		}
		var top uint64
		for _, r := range b.DMARanges {
			top = max(top, r.Child+(r.Size-1))
		}
		return top, b
	}
	return 0, nil
}

// AddressLimit returns the narrowest addressBits on the master's bus path
// and the bus that declares it, or 0 and nil when none declares one.
func (m *Master) AddressLimit() (int, *Bus) {
	bits, at := 0, (*Bus)(nil)
	for _, b := range m.BusPath() {
		if b.AddressBits != 0 && (bits == 0 || b.AddressBits < bits) {
			bits, at = b.AddressBits, b
		}
	}
	return bits, at
}
