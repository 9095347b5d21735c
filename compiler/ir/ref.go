package ir

import (
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
	RefKernel       Ref = "kernel"
	RefSoC          Ref = "soc"
	RefRoot         Ref = "soc.root"
	RefCPUs         Ref = "soc.cpus"
	RefDPAA2        Ref = "soc.dpaa2"
	RefIsolatedCPUs Ref = "policy.isolatedCPUs"
	RefIrqbalance   Ref = "policy.irqbalanceBan"
	RefSerDes       Ref = "dpaa2.serdes"
)

// isIdent reports whether name is a CUE identifier, [a-zA-Z_][a-zA-Z0-9_]*,
// which a path may use unquoted.
func isIdent(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return name != ""
}

// label spells a field name as a path element: bare when it is an
// identifier, quoted otherwise ("net.core.netdev_budget", "eth0.100").
func label(name string) string {
	if isIdent(name) {
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

// Refs returns the ref of every element of b, in the order All yields
// them.
func (b *Board) Refs() []Ref {
	var refs []Ref
	b.walk(func(e Element) bool {
		refs = append(refs, e.Ref)
		return true
	}, true)
	return refs
}

// Ref returns the master's ref, from its key.
func (m *Master) Ref() Ref { return MasterRef(m.Key) }

// Ref returns the bus's ref, from its key.
func (x *Bus) Ref() Ref { return BusRef(x.Key) }

// Ref returns the DPIO's ref, from its place in the description.
func (d *DPIO) Ref() Ref { return DPIORef(d.Decl) }

// Ref returns the steering policy's ref, from its interface.
func (n *NetPolicy) Ref() Ref { return NetRef(n.IfName) }

// Ref returns the sysctl's ref, from its key.
func (s *Sysctl) Ref() Ref { return SysctlRef(s.Key) }
