package tune

import (
	"fmt"
	"strings"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// Script returns tune.sh: a POSIX shell script that applies, shows
// (--dry-run), checks (--verify) and reverts (--revert) the board's runtime
// tuning. Every value from the description is a single-quoted word, so no
// name can inject a command; every action is preceded by a comment naming
// the description line it comes from.
func Script(b *ir.Board) string { return string(script(b).Data) }

func script(b *ir.Board) outputs.File {
	p := outputs.NewPrinter(outputs.Shell)
	p.P("#!/bin/sh")
	header(p, b, "Runtime tuning")
	c := p.Block("")
	c.Line("Pins IRQs by their action name in /proc/interrupts, sets RPS/XPS masks")
	c.Line("and sysctls. Each action names the description line it comes from.")
	c.Line("Run with --help for the options and exit statuses.")
	p.P("set -eu")
	p.P()
	p.P(outputs.From(ir.RefBoard, b.Pos), "board=", outputs.Str(b.Name))
	pins := 0
	if len(b.Policy.IRQs) > 0 {
		pins = 1
	}
	p.P("pins_irqs=", pins)
	// Where the irqbalance drop-in has irqbalance find this board's
	// policy script (init.go, policy.go).
	p.P("policy_script=", outputs.Str(PolicyDir+"/boardc-"+b.Name))
	if iso := b.Policy.IsolatedCPUs; len(iso) > 0 {
		o := outputs.From(ir.RefIsolatedCPUs, b.Policy.IsolatedPos)
		p.Comment("", o, outputs.T(b.Policy.IsolatedPos, ": isolated CPUs, where no driver hint is followed"))
		p.P(o, "isolated_cpus=", outputs.Str(ir.CPUList(iso)))
	} else {
		p.P("isolated_cpus=")
	}
	p.P()

	o := outputs.From(ir.RefCompatible, b.CompatiblePos)
	c = p.Block("")
	c.Line("board_matches COMPATIBLE succeeds when a root compatible string names")
	c.Line(o, "this board (", b.CompatiblePos, ").")
	p.P("board_matches() {")
	p.P("\tcase $1 in")
	for _, compat := range guardCompatibles(b) {
		p.P(o.Named(compat), "\t", outputs.Str(compat), ") return 0 ;;")
	}
	p.P("\tesac")
	p.P("\treturn 1")
	p.P("}")
	p.P()

	p.Comment("", "actions lists every value the board tunes; see pin_irq and act.")
	p.P("actions() {")
	writeActions(p, b)
	p.P("\t:")
	p.P("}")
	p.P()
	p.Raw(library)
	return p.File(ScriptFile)
}

// writeActions writes the body of the script's actions function: the
// interfaces, then the IRQs, then the sysctls. An interface's queue count
// comes before the IRQs because a driver re-places its queue IRQs when
// the count changes: virtnet_set_channels() (drivers/net/virtio_net.c)
// calls virtnet_set_affinity(), which gives every queue pair in use a new
// affinity hint, so an IRQ that follows its hint must read it after.
func writeActions(p *outputs.Printer, b *ir.Board) {
	for _, n := range b.Policy.Net {
		o := outputs.From(n.Ref(), n.Pos)
		dir := "/sys/class/net/" + n.IfName + "/queues/"
		writeIface(p, o, n)
		if nd := n.Dev; nd != nil && nd.Channels {
			p.Comment("\t", o, outputs.T(nd.Pos, ": ", n.IfName, fmt.Sprintf(" channels: %d receive, %d transmit, with ethtool -L", nd.RxQueues, nd.TxQueues)))
			p.P(o.Named(n.IfName), fmt.Sprintf("\tchannels %d %d ", nd.RxQueues, nd.TxQueues), outputs.Quoted{nd.Pos})
		}
		steered := n.Steered(&b.SoC)
		if !steered && (len(n.RPS) > 0 || n.RPSFlowCount >= 0) {
			p.Comment("\t", o, outputs.T(n.Pos, ": no RPS or RFS on ", n.IfName, ": the SoC has one CPU, so they would only send every packet through the backlog (BC0415)"))
		}
		if steered {
			for i, cpus := range n.RPS {
				p.Comment("\t", o, outputs.T(n.Pos, ": ", n.IfName, fmt.Sprintf(" rx-%d RPS on ", i), ir.CPUText(cpus)))
				act(p, o, "net", "mask", fmt.Sprintf("%srx-%d/rps_cpus", dir, i), ir.CPUMask(cpus), n.Pos)
			}
			if n.RPSFlowCount >= 0 {
				v := int64(ir.FlowTableSize(uint64(n.RPSFlowCount)))
				// Every receive queue gets the flow count: RFS needs it on
				// each queue that receives.
				queues := n.FlowQueues()
				for i := 0; i < queues; i++ {
					text := outputs.T(n.Pos, ": ", n.IfName, fmt.Sprintf(" rx-%d rps_flow_cnt %d", i, n.RPSFlowCount))
					if v != int64(n.RPSFlowCount) {
						text = append(text, ", rounded up to a power of two as the kernel stores it")
					}
					p.Comment("\t", o, text)
					act(p, o, "net", "text", fmt.Sprintf("%srx-%d/rps_flow_cnt", dir, i), fmt.Sprint(v), n.Pos)
				}
			}
		}
		if nd := n.Dev; nd != nil && nd.DriverXPS != nil && len(n.XPS) > 0 {
			d := nd.DriverXPS
			p.Comment("\t", o, outputs.T(d.Pos, ": ", n.IfName, "'s driver sets XPS itself: checked, not written: ", d.Source))
		}
		for i, cpus := range n.XPS {
			p.Comment("\t", o, outputs.T(n.Pos, ": ", n.IfName, fmt.Sprintf(" tx-%d XPS on ", i), ir.CPUText(cpus)))
			path := fmt.Sprintf("%stx-%d/xps_cpus", dir, i)
			if n.Dev != nil && n.Dev.DriverXPS != nil {
				p.P(o.Named(path), "\texpect net mask ", outputs.Str(path), " ", outputs.Str(ir.CPUMask(cpus)), " ", outputs.Quoted{n.Pos})
				continue
			}
			act(p, o, "net", "mask", path, ir.CPUMask(cpus), n.Pos)
		}
	}
	for i, pin := range b.Policy.IRQs {
		writePin(p, b, ir.IRQPinRef(i), pin)
	}
	for _, s := range b.Policy.Sysctls {
		o := outputs.From(s.Ref(), s.Pos)
		v := SysctlValue(s)
		text := outputs.T(s.Pos, ": sysctl ", s.Key, " = ", s.Value)
		if v != s.Value {
			text = append(text, ", rounded up to a power of two as the kernel stores it")
		}
		p.Comment("\t", o, text)
		act(p, o.Named(s.Key), "sysctl", "text", SysctlPath(s.Key), v, s.Pos)
	}
}

// writeIface writes the iface line that starts an interface's values: how
// tune.sh finds the netdev on the target (by its port's node where the
// description names one, else by its master's node, by DPAA2 object or by
// name), and the key of the master that owns it, whose IRQ pins tune.sh
// --interface places with its queues.
func writeIface(p *outputs.Printer, o outputs.Origin, n ir.NetPolicy) {
	how, arg, alias, master := "name", "", "", ""
	if n.Master != nil {
		master = n.Master.Key
	}
	text := outputs.T(n.Pos, ": interface ", n.IfName)
	switch nd, m := n.Dev, n.Master; {
	case nd == nil || m == nil:
		text = append(text, ", by name: no master declares it")
	case nd.ByName:
		text = append(text, ", by name (", nd.Pos, ": byName; master ", m.Key, ")")
	case nd.HasDPNI && nd.DPNIPos.IsValid():
		how, arg = "dpni", fmt.Sprint(nd.DPNI)
		text = append(text, ", the netdev of DPAA2 object dpni.", arg, " (", nd.DPNIPos, "; master ", m.Key, ")")
	case nd.HasDPNI:
		how, arg = "dpni", fmt.Sprint(nd.DPNI)
		text = append(text, ", the netdev of DPAA2 object dpni.", arg, ", DPNI ", arg, " of the data-path layout (", nd.Pos, "; master ", m.Key, ")")
	case nd.HasPort():
		how, arg, alias = "node", nd.Port.Path, nd.Alias
		text = append(text, ", the netdev whose own of_node, or nearest parent device's, is its port node ", arg, " (", nd.Port.Pos, ": port; master ", m.Key, ")")
	default:
		how, arg, alias = "node", m.Node.Path, nd.Alias
		text = append(text, ", the netdev whose device or nearest parent has the of_node ", arg, " (master ", m.Key, ")")
		if alias != "" {
			text = append(text, ", or that of alias ", alias)
		}
	}
	p.Comment("\t", o, text)
	p.P(o.Named(n.IfName), "\tiface ", outputs.Str(n.IfName), " ", how, " ", outputs.Str(arg), " ", outputs.Str(alias), " ", outputs.Str(master), " ", outputs.Quoted{n.Pos})
}

// writePin writes the action of one IRQ pin: follow_irq for IRQs their
// driver places (the pin is what its hint is expected to be), pin_irq with
// "one" where the interrupt controller delivers each IRQ to one CPU (the
// IRQs of the name take the pin's CPUs one each, in ir.SpreadOrder), and
// pin_irq with "set" where it is known to deliver to a set, or unknown.
func writePin(p *outputs.Printer, b *ir.Board, ref ir.Ref, pin ir.IRQPin) {
	o := outputs.From(ref, pin.Pos)
	order := ir.CPUOrder(pin.CPUs)
	owners := outputs.Str(ownerKeys(pin))
	switch {
	case pin.Placed():
		d := pin.Driver
		p.Comment("\t", o, outputs.T(pin.Pos, ": IRQs named ", pin.IRQ, ownerText(pin), " are placed by their driver; the description expects ", spreadText(pin)))
		p.Comment("\t", outputs.From(ref, d.Pos), outputs.T(d.Pos, ": ", d.Source))
		how := "hint"
		if d.Managed {
			// The kernel refuses user-space affinity for a managed
			// vector (EIO): checked, never written.
			how = "managed"
		}
		p.P(o.Named(pin.IRQ), "\tfollow_irq ", outputs.Str(pin.IRQ), " ", outputs.Str(order), " ", how, " ", owners, " ", outputs.Quoted{pin.Pos})
	case b.SoC.OneTarget():
		d := b.SoC.IRQDelivery
		p.Comment("\t", o, outputs.T(pin.Pos, ": IRQs named ", pin.IRQ, ownerText(pin), " on ", spreadText(pin)))
		p.Comment("\t", outputs.From(ir.RefSoC, d.Pos), outputs.T(d.Pos, ": one CPU per IRQ: ", d.Source))
		p.P(o.Named(pin.IRQ), "\tpin_irq ", outputs.Str(pin.IRQ), " ", outputs.Str(order), " one ", owners, " ", outputs.Quoted{pin.Pos})
	default:
		p.Comment("\t", o, outputs.T(pin.Pos, ": IRQs named ", pin.IRQ, ownerText(pin), " on ", ir.CPUText(pin.CPUs)))
		p.P(o.Named(pin.IRQ), "\tpin_irq ", outputs.Str(pin.IRQ), " ", outputs.Str(ir.CPUList(pin.CPUs)), " set ", owners, " ", outputs.Quoted{pin.Pos})
	}
}

// ownerKeys returns the keys of the masters that declare a pin's IRQ,
// blank-separated: tune.sh --interface places the pin when the
// interface's master is one of them.
func ownerKeys(pin ir.IRQPin) string {
	keys := make([]string, len(pin.Owners))
	for i, m := range pin.Owners {
		keys[i] = m.Key
	}
	return strings.Join(keys, " ")
}

// ownerText names the masters that declare a pin's IRQ, for the comment
// above its action.
func ownerText(pin ir.IRQPin) string {
	switch len(pin.Owners) {
	case 0:
		return " (declared by no master)"
	case 1:
		return " (master " + pin.Owners[0].Key + ")"
	}
	return " (masters " + strings.ReplaceAll(ownerKeys(pin), " ", ", ") + ")"
}

// spreadText says which CPU each IRQ of a pin's name gets.
func spreadText(pin ir.IRQPin) string {
	if len(pin.CPUs) == 1 {
		return fmt.Sprintf("CPU %d", pin.CPUs[0])
	}
	return "CPUs " + ir.CPUOrder(pin.CPUs) + ", one per IRQ in ascending IRQ number"
}

// act writes one act line of the actions function, which sets path to
// value; pos names the description line in the script's messages.
func act(p *outputs.Printer, o outputs.Origin, part, kind, path, value string, pos ir.Pos) {
	p.P(o.Named(path), "\tact ", part, " ", kind, " ", outputs.Str(path), " ", outputs.Str(value), " ", outputs.Quoted{pos})
}
