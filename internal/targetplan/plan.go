// Command targetplan prints what a running kernel must show once a board's
// outputs are applied: the target test's expectations, derived from the
// lowered description and not from the generated files, so that a test
// comparing the two can catch an emitter that drops or changes a fact.
//
// Usage:
//
//	go run ./internal/targetplan BOARD
//
// One record per line, fields separated by single spaces (no field of a
// valid description holds a blank); lines starting with # are comments:
//
//	board NAME
//	cluster CPULIST                 CPUs sharing a cluster, as the kernel groups them
//	master KEY PATH STATE STREAMING COHERENT SETTER
//	                                STATE: coherent, noncoherent or optout;
//	                                the DMA mask widths (any: not stated, a
//	                                bridge's endpoints'); SETTER: boardc (the
//	                                generated C sets them), driver, or
//	                                children (the bus driver sets them on the
//	                                devices below the master's, and the
//	                                widths are theirs once a driver is bound)
//	limit KEY OWN PCI               the bus DMA limit of the master's device and of
//	                                the PCI devices behind it (0x0: none), as
//	                                printk's %#llx prints it
//	widths KEY DMA COH BDMA BCOH    the mask widths the verifier accepts for the
//	                                master's own device and for the devices
//	                                below it (PCI devices, children), as it
//	                                prints them: "32,64", or "any" (printed
//	                                as information)
//	dpio COUNT                      DPAA2 only: the DPIOs described
//	irq NAME MODE CPUS              the IRQs named NAME, by ascending number:
//	                                MODE one, the k-th is delivered to the
//	                                k-th CPU of the comma-separated CPUS
//	                                (starting over past its end), as
//	                                tune.sh places it; driver, the same, as
//	                                the driver's affinity hint places it;
//	                                set, each is delivered within CPUS
//	netdev IF HOW ARG               the interface the description calls IF:
//	                                HOW node, the netdev whose device or
//	                                nearest parent has the of_node ARG (its
//	                                port's node, else its master's);
//	                                dpni, that of DPAA2 object dpni.ARG;
//	                                name, the netdev called IF (ARG -)
//	channels IF RX TX               the queue counts tune.sh sets with ethtool -L
//	                                (combined RX where RX and TX are equal)
//	ifirq IF NAME                   an IRQ pin (its irq record) of the master
//	                                that owns IF: tune.sh --interface IF places
//	                                the IRQs named NAME
//	rps IF QUEUE MASK               rx-QUEUE/rps_cpus, a hex CPU mask
//	rpsflow IF QUEUE COUNT          rx-QUEUE/rps_flow_cnt, as the kernel rounds it
//	                                (no rps or rpsflow on an SoC with one CPU)
//	xps IF QUEUE MASK               tx-QUEUE/xps_cpus
//	sysctl PATH VALUE               /proc/sys/PATH (VALUE may hold blanks)
//	isolated CPUS                   the CPUs cmdline.txt isolates, as the
//	                                kernel lists them
//	housekeeping CPUS               the others, where IRQs no one pins start
//
// Only enabled masters are listed. An opted-out master is expected to be
// non-coherent.
package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"boardc.dev/boardc"
	"boardc.dev/boardc/compiler/ir"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: targetplan BOARD")
		os.Exit(2)
	}
	c, err := boardc.New()
	if err != nil {
		fmt.Fprintln(os.Stderr, "targetplan:", err)
		os.Exit(1)
	}
	r := c.Compile(os.Args[1], boardc.Options{})
	if r.Board == nil || r.Diagnostics.HasErrors() {
		for _, d := range r.Diagnostics {
			fmt.Fprintln(os.Stderr, d)
		}
		fmt.Fprintln(os.Stderr, "targetplan: the board does not compile")
		os.Exit(1)
	}
	if err := write(os.Stdout, r.Board); err != nil {
		fmt.Fprintln(os.Stderr, "targetplan:", err)
		os.Exit(1)
	}
}

// state names how the kernel must see a master's coherency.
func state(m *ir.Master) string {
	switch {
	case m.Coherent():
		return "coherent"
	case m.Coherence() == ir.OptedOut:
		return "optout"
	}
	return "noncoherent"
}

// write prints the plan of b to w.
func write(w io.Writer, b *ir.Board) error {
	var s strings.Builder
	fmt.Fprintf(&s, "# target plan of board %s, from its description\n", b.Name)
	fmt.Fprintf(&s, "board %s\n", b.Name)
	for _, c := range b.SoC.Clusters {
		fmt.Fprintf(&s, "cluster %s\n", ir.CPUList(c.CPUs))
	}
	for _, m := range b.SoC.Masters {
		if m.Enabled {
			setter, dma, cdma := "boardc", strconv.Itoa(m.DMABits), strconv.Itoa(m.CoherentWidth())
			switch {
			case m.IsBridge():
				// The masks checked are the endpoints', which
				// their own drivers set: the widest the
				// description states, any where it states none.
				setter, dma, cdma = "driver", "any", "any"
				if ws := m.Bridge.Endpoints; len(ws) > 0 {
					dma, cdma = strconv.Itoa(ws[len(ws)-1]), strconv.Itoa(ws[len(ws)-1])
				}
			case m.DMADeviceKey != "":
				// Configured from another master's node: the
				// description states no width, its driver sets
				// the masks if anyone does.
				setter, dma, cdma = "driver", "any", "any"
			case m.DriverSets != nil && m.DriverSets.Children:
				setter = "children"
				d, c := m.ChildWidths()
				dma, cdma = strconv.Itoa(d), strconv.Itoa(c)
			case m.DriverSets != nil:
				setter = "driver"
			}
			fmt.Fprintf(&s, "master %s %s %s %s %s %s\n", m.Key, m.Node.Path, state(m), dma, cdma, setter)
		}
	}
	writeVerify(&s, b)
	for _, p := range b.Policy.IRQs {
		mode := "set"
		switch {
		case p.Placed():
			mode = "driver"
		case b.SoC.OneTarget():
			mode = "one"
		}
		fmt.Fprintf(&s, "irq %s %s %s\n", p.IRQ, mode, ir.CPUOrder(p.CPUs))
	}
	for _, n := range b.Policy.Net {
		switch nd := n.Dev; {
		case nd == nil || n.Master == nil || nd.ByName:
			fmt.Fprintf(&s, "netdev %s name -\n", n.IfName)
		case nd.HasDPNI:
			fmt.Fprintf(&s, "netdev %s dpni %d\n", n.IfName, nd.DPNI)
		case nd.HasPort():
			fmt.Fprintf(&s, "netdev %s node %s\n", n.IfName, nd.Port.Path)
		default:
			fmt.Fprintf(&s, "netdev %s node %s\n", n.IfName, n.Master.Node.Path)
		}
		if nd := n.Dev; nd != nil && nd.Channels {
			fmt.Fprintf(&s, "channels %s %d %d\n", n.IfName, nd.RxQueues, nd.TxQueues)
		}
		for _, p := range b.Policy.IRQs {
			if n.Master != nil && slices.Contains(p.Owners, n.Master) {
				fmt.Fprintf(&s, "ifirq %s %s\n", n.IfName, p.IRQ)
			}
		}
		if n.Steered(&b.SoC) {
			for q, cpus := range n.RPS {
				fmt.Fprintf(&s, "rps %s %d %s\n", n.IfName, q, ir.CPUMask(cpus))
			}
			if n.RPSFlowCount >= 0 {
				for q := range n.FlowQueues() {
					fmt.Fprintf(&s, "rpsflow %s %d %d\n", n.IfName, q, ir.FlowTableSize(uint64(n.RPSFlowCount)))
				}
			}
		}
		for q, cpus := range n.XPS {
			fmt.Fprintf(&s, "xps %s %d %s\n", n.IfName, q, ir.CPUMask(cpus))
		}
	}
	for _, c := range b.Policy.Sysctls {
		fmt.Fprintf(&s, "sysctl %s %s\n", strings.ReplaceAll(c.Key, ".", "/"), c.Value)
	}
	if len(b.Policy.IsolatedCPUs) > 0 {
		fmt.Fprintf(&s, "isolated %s\n", ir.CPUList(b.Policy.IsolatedCPUs))
		fmt.Fprintf(&s, "housekeeping %s\n", ir.CPUList(b.HousekeepingCPUs()))
	}
	_, err := io.WriteString(w, s.String())
	return err
}
