package check

import (
	"strings"

	"boardc.dev/boardc/compiler/ir"
)

// Fact is a set of the kinds of fact a description gives, which a check
// reads. A check declares the facts it needs (Check.Needs); on a partial
// board, one lowered from a description with errors confined to some
// elements (load.Partial), a check runs only when none of the facts it
// needs is missing anywhere on the board. A missing memory then skips
// the checks of DMA widths against RAM, and nothing else.
type Fact uint16

// The kinds of fact.
const (
	// FactIdentity is the board's name, compatible, model and dts.
	FactIdentity Fact = 1 << iota
	// FactRoot is the cell counts of the tree's root (soc.root).
	FactRoot
	// FactCPUs is the CPU topology (soc.cpus).
	FactCPUs
	// FactBuses is every bus and its facts but those of its masters.
	FactBuses
	// FactMasters is every master and its facts but its DMA widths:
	// its node, compatible, bus, coherency, IRQs, network devices.
	FactMasters
	// FactDMA is the DMA mask widths of every master (dma, dmaBits).
	FactDMA
	// FactIRQDelivery is how the interrupt controller delivers an IRQ
	// (soc.irqDelivery).
	FactIRQDelivery
	// FactDPAA2 is the DPAA2 resources (soc.dpaa2).
	FactDPAA2
	// FactMemory is the board's RAM regions.
	FactMemory
	// FactPolicy is the runtime policy: IRQ pins, steering, sysctls,
	// isolated CPUs.
	FactPolicy
	// FactWaivers is the waivers.
	FactWaivers

	// AllFacts is every kind of fact.
	AllFacts = FactWaivers<<1 - 1
)

// factNames spell each kind of fact for messages and tests.
var factNames = []string{"identity", "root", "cpus", "buses", "masters", "dma", "irqDelivery", "dpaa2", "memory", "policy", "waivers"}

// String lists the kinds of fact in f, separated by "+".
func (f Fact) String() string {
	var out []string
	for i, n := range factNames {
		if f&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, "+")
}

// factOf returns the kind of fact the element r gives: a ref as a
// diagnostic of the loader spells it (soc.masters.eth0.dma,
// memory[0].size, policy.irqs[2]). A ref it does not know, or one above
// every kind (soc, the description itself), is every fact.
func factOf(r ir.Ref) Fact {
	s := string(r)
	under := func(prefix string) bool { return ir.Ref(prefix).Contains(r) }
	switch {
	case under("soc.masters"):
		// soc.masters.KEY.FIELD...: the DMA widths are a fact of
		// their own, the rest of a master is FactMasters.
		rest := strings.TrimPrefix(s, "soc.masters")
		if key := masterKeyLen(rest); key > 0 {
			field := strings.TrimPrefix(rest[key:], ".")
			if field == "dma" || field == "dmaBits" || strings.HasPrefix(field, "dma.") {
				return FactDMA
			}
		}
		if s == "soc.masters" {
			return FactMasters | FactDMA
		}
		return FactMasters
	case under("soc.buses"):
		return FactBuses
	case under("soc.cpus"):
		return FactCPUs
	case under("soc.root"):
		return FactRoot
	case under("soc.dpaa2"):
		return FactDPAA2
	case under("soc.irqDelivery"):
		return FactIRQDelivery
	case under("soc.name"), under("soc.compatible"), under("name"), under("compatible"), under("model"), under("dts"):
		return FactIdentity
	case under("memory"):
		return FactMemory
	case under("policy"):
		return FactPolicy
	case under("waivers"):
		return FactWaivers
	}
	return AllFacts
}

// masterKeyLen returns the length of ".KEY" at the start of rest, the
// key bare or quoted, or 0 when rest does not start with one.
func masterKeyLen(rest string) int {
	if !strings.HasPrefix(rest, ".") {
		return 0
	}
	if strings.HasPrefix(rest, `."`) {
		for i := 2; i < len(rest); i++ {
			switch rest[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return 0
	}
	if i := strings.IndexAny(rest[1:], ".["); i >= 0 {
		return i + 1
	}
	return len(rest)
}

// missingFacts returns the kinds of fact the elements missing lack.
func missingFacts(missing []ir.Ref) Fact {
	var f Fact
	for _, r := range missing {
		f |= factOf(r)
	}
	return f
}
