package ir

import (
	"regexp"
	"strconv"
	"strings"
)

// Ref names one element of a board description by its path in the
// description, spelled as CUE spells a path: soc.masters.crypto,
// soc.buses.internal, soc.cpus.clusters[1], soc.dpaa2.dpios[3],
// policy.irqs[2], policy.net.eth0, policy.sysctls."net.core.netdev_budget".
// Diagnostics, waivers, provenance and explain all name elements by Ref,
// so an element has one spelling everywhere.
type Ref string

// The refs of elements that occur once in a description.
const (
	RefBoard        Ref = "name"
	RefCompatible   Ref = "compatible"
	RefModel        Ref = "model"
	RefDTS          Ref = "dts"
	RefSoC          Ref = "soc"
	RefRoot         Ref = "soc.root"
	RefCPUs         Ref = "soc.cpus"
	RefDPAA2        Ref = "soc.dpaa2"
	RefIsolatedCPUs Ref = "policy.isolatedCPUs"
	RefIrqbalance   Ref = "policy.irqbalanceBan"
)

// identRE matches a CUE identifier, which a path may use unquoted.
var identRE = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

// label spells a field name as a path element: bare when it is an
// identifier, quoted otherwise ("net.core.netdev_budget", "eth0.100").
func label(name string) string {
	if identRE.MatchString(name) {
		return name
	}
	return strconv.Quote(name)
}

// TopRef returns the ref of the top-level field name.
func TopRef(name string) Ref { return Ref(label(name)) }

// Field returns the ref of field name of r.
func (r Ref) Field(name string) Ref { return Ref(string(r) + "." + label(name)) }

// Index returns the ref of element i of the list r.
func (r Ref) Index(i int) Ref { return Ref(string(r) + "[" + strconv.Itoa(i) + "]") }

// String returns the ref as written.
func (r Ref) String() string { return string(r) }

// Contains reports whether other is r or an element below it.
func (r Ref) Contains(other Ref) bool {
	if other == r {
		return true
	}
	rest, ok := strings.CutPrefix(string(other), string(r))
	return ok && (strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, "["))
}

// MasterRef returns the ref of the master with key key.
func MasterRef(key string) Ref { return Ref("soc.masters").Field(key) }

// BusRef returns the ref of the bus with key key.
func BusRef(key string) Ref { return Ref("soc.buses").Field(key) }

// ClusterRef returns the ref of the i-th CPU cluster.
func ClusterRef(i int) Ref { return RefCPUs.Field("clusters").Index(i) }

// DPIORef returns the ref of the i-th DPIO as declared.
func DPIORef(i int) Ref { return RefDPAA2.Field("dpios").Index(i) }

// MemoryRef returns the ref of the i-th RAM region.
func MemoryRef(i int) Ref { return Ref("memory").Index(i) }

// IRQPinRef returns the ref of the i-th IRQ pin of the policy.
func IRQPinRef(i int) Ref { return Ref("policy.irqs").Index(i) }

// NetRef returns the ref of the steering policy of interface ifname.
func NetRef(ifname string) Ref { return Ref("policy.net").Field(ifname) }

// SysctlRef returns the ref of the sysctl key (in dotted form).
func SysctlRef(key string) Ref { return Ref("policy.sysctls").Field(key) }

// WaiverRef returns the ref of the i-th waiver.
func WaiverRef(i int) Ref { return Ref("waivers").Index(i) }

// Refs returns the ref of every element of b, in description order: the
// top-level facts, the SoC's clusters, buses, masters and DPAA2 portals,
// the memory, the policy's pins, interfaces and sysctls, and the waivers.
func (b *Board) Refs() []Ref {
	refs := []Ref{RefBoard, RefModel, RefCompatible, RefSoC, RefRoot, RefCPUs}
	s := &b.SoC
	for _, c := range s.Clusters {
		refs = append(refs, c.Ref)
	}
	for _, x := range s.Buses {
		refs = append(refs, x.Ref)
	}
	for _, m := range s.Masters {
		refs = append(refs, m.Ref)
	}
	if s.DPAA2 != nil {
		refs = append(refs, RefDPAA2)
		for _, d := range s.DPAA2.DPIOs {
			refs = append(refs, d.Ref)
		}
	}
	for _, m := range b.Memory {
		refs = append(refs, m.Ref)
	}
	p := &b.Policy
	for _, x := range p.IRQs {
		refs = append(refs, x.Ref)
	}
	for _, x := range p.Net {
		refs = append(refs, x.Ref)
	}
	for _, x := range p.Sysctls {
		refs = append(refs, x.Ref)
	}
	refs = append(refs, RefIsolatedCPUs, RefIrqbalance)
	for i := range b.Waivers {
		refs = append(refs, WaiverRef(i))
	}
	return refs
}

// AssignRefs sets the Ref of every element of b from its key or its index
// in the description. Lowering calls it; a board built by hand in a test
// calls it once built.
func (b *Board) AssignRefs() {
	s := &b.SoC
	for i := range s.Clusters {
		s.Clusters[i].Ref = ClusterRef(i)
	}
	for _, x := range s.Buses {
		x.Ref = BusRef(x.Key)
	}
	for _, m := range s.Masters {
		m.Ref = MasterRef(m.Key)
	}
	if s.DPAA2 != nil {
		// DPIOs are sorted by ID; lowering gives each the ref of its
		// place in the description first.
		for i := range s.DPAA2.DPIOs {
			if s.DPAA2.DPIOs[i].Ref == "" {
				s.DPAA2.DPIOs[i].Ref = DPIORef(i)
			}
		}
	}
	for i := range b.Memory {
		b.Memory[i].Ref = MemoryRef(i)
	}
	p := &b.Policy
	for i := range p.IRQs {
		p.IRQs[i].Ref = IRQPinRef(i)
	}
	for i := range p.Net {
		p.Net[i].Ref = NetRef(p.Net[i].IfName)
	}
	for i := range p.Sysctls {
		p.Sysctls[i].Ref = SysctlRef(p.Sysctls[i].Key)
	}
}
