package ir

import (
	"slices"
	"strconv"
	"strings"
)

// DPAA2 describes the DPAA2 I/O portals of an SoC.
type DPAA2 struct {
	DPIOs []DPIO // sorted by ID
	// StashClusterBase and StashClusterSize give a DPIO serving cpu the
	// stash destination StashClusterBase + cpu/StashClusterSize.
	StashClusterBase  int
	StashClusterSize  int
	StashSource       string
	StashPos          Pos
	DPNI, DPCON       int
	DPNIPos, DPCONPos Pos
	RXStashing        bool
	RXStashingPos     Pos
	Pos               Pos
	// SerDesTable is the SoC's SerDes protocol table, nil when the SoC
	// states none; SerDesSource names where it comes from.
	SerDesTable    []SerDesProtocol
	SerDesSource   string
	SerDesTablePos Pos
	// WQChConversion is the DPC's qbman wq_ch_conversion, HasDPC when the
	// SoC states its DPC settings (DPCSource, DPCPos).
	WQChConversion int
	HasDPC         bool
	DPCSource      string
	DPCPos         Pos
}

// SerDesProtocol is one row of an SoC's SerDes protocol table.
type SerDesProtocol struct {
	SerDes, Protocol int
	DPMACs           []int
	Pos              Pos
}

// Protocol returns the table's row for protocol of SerDes block serdes
// (1-based), and false when the table has none.
func (d *DPAA2) Protocol(serdes, protocol int) (SerDesProtocol, bool) {
	for _, p := range d.SerDesTable {
		if p.SerDes == serdes && p.Protocol == protocol {
			return p, true
		}
	}
	return SerDesProtocol{}, false
}

// StashDest returns the stash destination of a DPIO serving cpu.
func (d *DPAA2) StashDest(cpu int) int {
	return d.StashClusterBase + cpu/d.StashClusterSize
}

// DPIO is one DPAA2 I/O portal and the CPU it serves.
type DPIO struct {
	ID  int
	CPU int
	// Decl is the DPIO's place in the description's list, which its
	// ref names: DPIOs are sorted by ID.
	Decl int
	Pos  Pos
}

// Policy is the runtime tuning of a board.
type Policy struct {
	IRQs          []IRQPin    // in declaration order
	Net           []NetPolicy // sorted by IfName
	Sysctls       []Sysctl    // sorted by Key
	IsolatedCPUs  []int
	IsolatedPos   Pos
	IrqbalanceBan bool
}

// HousekeepingCPUs returns the CPUs of the SoC's clusters that the policy
// does not isolate, in cluster order: those the kernel keeps for IRQs no
// one pins, ticks and RCU callbacks once the isolated ones are set apart.
func (b *Board) HousekeepingCPUs() []int {
	var house []int
	for _, cl := range b.SoC.Clusters {
		for _, cpu := range cl.CPUs {
			if !slices.Contains(b.Policy.IsolatedCPUs, cpu) {
				house = append(house, cpu)
			}
		}
	}
	return house
}

// IRQPin pins the IRQ whose action name is IRQ to CPUs.
type IRQPin struct {
	IRQ  string
	CPUs []int
	Pos  Pos
	// Owners are the masters that declare an IRQ of this name, resolved
	// by lowering; none when the description declares it nowhere.
	Owners []*Master
	// Count is how many IRQs of this name the owners declare (irqCount),
	// 0 when none does.
	Count int
	// Driver is the placement fact when the driver places every declared
	// IRQ of this name itself (an affinity hint): the pin is then what the
	// description expects the hint to be. Nil for an IRQ left to user
	// space.
	Driver *IRQAffinity
}

// Placed reports whether the pin's IRQs are placed by their driver.
func (p *IRQPin) Placed() bool { return p.Driver != nil }

// SpreadOrder documents how tune.sh gives the IRQs sharing a pin's name
// their CPUs on an interrupt controller that delivers to one CPU, and
// which CPU a driver-placed IRQ's hint is expected to name.
const SpreadOrder = "the IRQs of the name, in ascending IRQ number (the order of /proc/interrupts), " +
	"take the pin's CPUs in the order the description lists them, one each, starting over at the first " +
	"CPU when there are more IRQs than CPUs"

// SpreadCPU returns the CPU the k-th IRQ (0-based, by ascending number) of
// the pin's name gets, in SpreadOrder.
func (p *IRQPin) SpreadCPU(k int) int { return p.CPUs[k%len(p.CPUs)] }

// NetPolicy steers one interface's queues.
type NetPolicy struct {
	IfName string
	// Master and Dev are the master and the interface of that name,
	// resolved by lowering; nil when no master declares it.
	Master *Master
	Dev    *NetDev
	// RPS[i] and XPS[i] are the CPUs of rx-i and tx-i.
	RPS          [][]int
	RPSFlowCount int // -1 when not set
	XPS          [][]int
	Pos          Pos
}

// Sysctl is one kernel parameter, its key in dotted form.
type Sysctl struct {
	Key   string
	Value string
	Pos   Pos
}

// Waiver silences one check on one element.
type Waiver struct {
	Check string
	// On is the element as the waiver names it; Target is that element's
	// ref once the name is resolved, empty when it names none.
	On     string
	Target Ref
	Reason string
	Pos    Pos
	OnPos  Pos
}

// ResolvePolicy points each IRQ pin at the masters that declare its IRQ
// and each steering policy at its interface. Lowering calls it; a board
// built by hand in a test calls it once built.
func (b *Board) ResolvePolicy() {
	irqs := map[string][]*Master{}
	count := map[string]int{}
	driver := map[string]*IRQAffinity{}
	user := map[string]bool{}
	devs := map[string]*NetDev{}
	owner := map[string]*Master{}
	for _, m := range b.SoC.Masters {
		for _, q := range m.IRQs {
			if n := irqs[q.Name]; len(n) == 0 || n[len(n)-1] != m {
				irqs[q.Name] = append(n, m)
			}
			c := q.Count
			if c < 1 {
				c = 1
			}
			count[q.Name] += c
			if q.Driver != nil {
				driver[q.Name] = q.Driver
			} else {
				user[q.Name] = true
			}
		}
		for i := range m.NetDevs {
			devs[m.NetDevs[i].Name], owner[m.NetDevs[i].Name] = &m.NetDevs[i], m
		}
	}
	p := &b.Policy
	for i := range p.IRQs {
		name := p.IRQs[i].IRQ
		p.IRQs[i].Owners, p.IRQs[i].Count = irqs[name], count[name]
		p.IRQs[i].Driver = nil
		if !user[name] {
			p.IRQs[i].Driver = driver[name]
		}
	}
	for i := range p.Net {
		p.Net[i].Dev, p.Net[i].Master = devs[p.Net[i].IfName], owner[p.Net[i].IfName]
	}
}

// Steered reports whether the interface's RPS masks and RFS flow counts
// are written on SoC s: not when s has one CPU, where there is no other
// CPU to steer to and they would only send every packet through the
// backlog (get_rps_cpu() and enqueue_to_backlog(), net/core/dev.c). The
// policy keeps them, for BC0415 to warn about.
func (n *NetPolicy) Steered(s *SoC) bool { return s.NumCPUs() != 1 }

// FlowQueues returns the number of receive queues rpsFlowCount is set on:
// those RPS steers or, without RPS, every receive queue of the interface,
// since RFS needs the flow table on each queue that receives.
func (n *NetPolicy) FlowQueues() int {
	if len(n.RPS) > 0 {
		return len(n.RPS)
	}
	if n.Dev != nil && n.Dev.RxQueues > 0 {
		return n.Dev.RxQueues
	}
	return 1
}

// FlowTableSize returns the size the kernel gives an RFS flow table asked
// for n entries: n rounded up to a power of two, 0 staying 0
// (net/core/net-sysfs.c store_rps_dev_flow_table_cnt() for
// rx-N/rps_flow_cnt, net/core/sysctl_net_core.c rps_sock_flow_sysctl() for
// net.core.rps_sock_flow_entries).
func FlowTableSize(n uint64) uint64 {
	if n <= 1 {
		return n
	}
	r := uint64(1)
	for r < n {
		r <<= 1
	}
	return r
}

// CPUOrder returns cpus comma-separated in the order given, unsorted, e.g.
// "1,0": an IRQ pin's CPUs in the description's order, the order its IRQs
// are spread over.
func CPUOrder(cpus []int) string {
	parts := make([]string, len(cpus))
	for i, c := range cpus {
		parts[i] = strconv.Itoa(c)
	}
	return strings.Join(parts, ",")
}
