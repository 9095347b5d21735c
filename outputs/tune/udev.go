package tune

import (
	"fmt"
	"regexp"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// SystemdUnitDir and UdevRulesDir are where a distribution installs the
// units and rules it ships (systemd.unit(5): the system unit search path
// ends in /usr/lib/systemd/system; udev(7): /usr/lib/udev/rules.d, with
// /etc/udev/rules.d for local rules).
const (
	SystemdUnitDir = "/usr/lib/systemd/system"
	UdevRulesDir   = "/usr/lib/udev/rules.d"
)

// escapeProgram is the udev PROGRAM that prints the instance of the
// template unit for the interface $name: systemd-escape --template
// escapes it as systemd reads instances ("br-lan" becomes
// boardc-tune-BOARD@br\x2dlan.service), and %c is what it printed.
const escapeProgram = "/usr/bin/systemd-escape"

// ifNamePattern and nodePathPattern are the schema's #IfName and
// #NodePath: what a udev rule can hold between double quotes as a match
// value with no glob or alternative ('|') in it. A board built without
// the schema may hold anything: its names are left out of the rule.
var (
	ifNamePattern   = regexp.MustCompile(`^[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,14}$`)
	nodePathPattern = regexp.MustCompile(`^(/[a-zA-Z0-9,._+-]+(@[a-zA-Z0-9,._+-]+)?)+$`)
	keyPattern      = regexp.MustCompile(`^[a-z][a-z0-9_]{0,62}$`)
)

// HasTemplate says whether the board has the per-interface and
// per-master template unit and its udev rule: when it tunes an interface,
// or places the IRQs of a master that has no interface.
func HasTemplate(b *ir.Board) bool { return len(b.Policy.Net) > 0 || len(bindMasters(b)) > 0 }

// bindMasters returns the masters, in key order, that own an IRQ
// the policy pins and have no network interface: their IRQs appear when
// their driver binds (a module loaded after boot, a driver reloaded), and
// the udev rule places them again then. A master with interfaces is
// placed with them, as is an fsl-mc master.
func bindMasters(b *ir.Board) []*ir.Master {
	// The owners as a set: a scan of every pin for every master was
	// quadratic in the masters of a board that pins each one's IRQs.
	owners := map[*ir.Master]bool{}
	for _, pin := range b.Policy.IRQs {
		for _, m := range pin.Owners {
			owners[m] = true
		}
	}
	var out []*ir.Master
	for _, m := range b.SoC.Masters {
		if len(m.NetDevs) > 0 || m.IsMC() || m.Node.Path == "" {
			continue
		}
		if owners[m] {
			out = append(out, m)
		}
	}
	return out
}

// netMatch returns the udev match keys that select the netdevs of an
// interface the policy tunes, with the text that says how, or "" when the
// rule cannot match it:
//
//   - a DPAA2 interface: its DPNI, the fsl-mc device dpni.N above the
//     netdev (fsl_mc_device_add() names it "%s.%d", type and id,
//     drivers/bus/fsl-mc/fsl-mc-bus.c; the bus is "fsl-mc");
//   - an interface found by device-tree node: the netdevs below the
//     master's device, the device whose uevent file has the line
//     OF_FULLNAME=PATH (of_device_uevent(), drivers/of/device.c, adds
//     OF_NAME, OF_FULLNAME, then OF_TYPE or OF_COMPATIBLE_*, to the uevent
//     of every device with an of_node; uevent_show(), drivers/base/core.c,
//     prints them one a line). ATTRS{} searches the netdev and the devices
//     above it; udev matches with fnmatch(), whose '*' and '?' match a
//     newline: "?OF_" after the path keeps /soc/eth@1 from matching
//     /soc/eth@10. The port, where there are several, is tune.sh's to
//     find;
//   - an interface found by name, or that no master declares: the netdev
//     of that name (KERNEL, the name of the event: on "add" the kernel's,
//     on "move" the new one).
func netMatch(n ir.NetPolicy) (string, outputs.Text) {
	switch nd, m := n.Dev, n.Master; {
	case nd == nil || m == nil || nd.ByName:
		if !ifNamePattern.MatchString(n.IfName) {
			return "", nil
		}
		return `KERNEL=="` + n.IfName + `"`, outputs.T("the netdev named ", n.IfName)
	case nd.HasDPNI:
		return `SUBSYSTEMS=="fsl-mc", KERNELS=="dpni.` + fmt.Sprint(nd.DPNI) + `"`,
			outputs.T("the netdev of DPAA2 object dpni.", fmt.Sprint(nd.DPNI), " (master ", m.Key, ")")
	default:
		if !nodePathPattern.MatchString(m.Node.Path) {
			return "", nil
		}
		return `ATTRS{uevent}=="*OF_FULLNAME=` + m.Node.Path + `?OF_*"`,
			outputs.T("the netdevs below the device of node ", m.Node.Path, " (master ", m.Key, ")")
	}
}

// udevRule starts the template unit for the board's own interfaces when
// they appear ("add") or are renamed ("move"), under the name they have
// then: the rule runs after 80-net-setup-link.rules, so $name is the name
// the rules gave; and for the masters of bindMasters when their driver
// binds ("bind", on the master's device or one below it, such as the
// virtio device whose driver requests a virtio-mmio master's IRQs, matched
// as an interface's master is). Systemd starts the units a device's SYSTEMD_WANTS names when
// its device unit becomes active (systemd.device(5)): a new netdev, a
// netdev under a new name, a device tagged again at bind after the
// "unbind" event untagged it.
func udevRule(b *ir.Board) outputs.File {
	p := outputs.NewPrinter(outputs.Conf)
	header(p, b, "udev rule")
	c := p.Block("")
	c.Line("Install as ", UdevRulesDir, "/", udevRuleFile(b)[len("udev/"):], ";")
	c.Line("local copies go to /etc/udev/rules.d. It starts ", TemplateUnitFile(b), " for each of the")
	c.Line("board's interfaces that appears or is renamed, after 80-net-setup-link.rules")
	c.Line("named it ($name is its final name), the instance escaped by systemd-escape;")
	c.Line("and for each master whose IRQs tune.sh places and that has no interface,")
	c.Line("when its driver binds. Other devices are left alone.")
	tmpl := TemplateUnitFile(b)
	wants := `PROGRAM="` + escapeProgram + ` --template=` + tmpl + ` $name", TAG+="systemd", ENV{SYSTEMD_WANTS}+="%c"`
	seen := map[string]bool{}
	for _, n := range b.Policy.Net {
		o := outputs.From(n.Ref(), n.Pos)
		match, how := netMatch(n)
		p.P()
		if match == "" {
			p.Comment("", o, outputs.T(n.Pos, ": interface ", n.IfName, ": no udev match can name it; the boot run tunes it"))
			continue
		}
		if seen[match] {
			p.Comment("", o, outputs.T(n.Pos, ": interface ", n.IfName, ": ", how, ", matched above"))
			continue
		}
		seen[match] = true
		p.Comment("", o, outputs.T(n.Pos, ": interface ", n.IfName, ": ", how))
		p.P(o.Named(n.IfName), `ACTION=="add|move", SUBSYSTEM=="net", `, match, ", ", wants)
	}
	for _, m := range bindMasters(b) {
		o := outputs.From(m.Ref(), m.Pos)
		p.P()
		if !nodePathPattern.MatchString(m.Node.Path) || !keyPattern.MatchString(m.Key) {
			p.Comment("", o, outputs.T(m.Pos, ": master ", m.Key, ": no udev match can name it; the boot run places its IRQs"))
			continue
		}
		inst := outputs.SystemdEscape("master:" + m.Key)
		p.Comment("", o, outputs.T(m.Pos, ": master ", m.Key, ": its IRQs, placed again when a driver binds to the device of node ", m.Node.Path, " or to one below it"))
		p.P(o.Named(m.Key), `ACTION=="bind", ATTRS{uevent}=="*OF_FULLNAME=`, m.Node.Path, `?OF_*", TAG+="systemd", ENV{SYSTEMD_WANTS}+="`,
			"boardc-tune-"+b.Name+"@"+inst+".service", `"`)
	}
	return p.File(udevRuleFile(b))
}
