package tune

import (
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// PolicyDir is the irqbalance policy-script directory the drop-in passes
// to irqbalance: every board's policy script is installed in it as
// boardc-<board>, and irqbalance asks each script in turn.
const PolicyDir = InstallDir + "/irqbalance.d"

// Output paths of the hotplug and init-system files, relative to the
// board's output directory.
func udevRuleFile(b *ir.Board) string    { return "udev/90-boardc-" + b.Name + ".rules" }
func dropInFile(b *ir.Board) string      { return "irqbalance.service.d/90-boardc-" + b.Name + ".conf" }
func sysvFile(b *ir.Board) string        { return "init.d/S40boardc-tune-" + b.Name }
func openwrtInitFile(b *ir.Board) string { return "openwrt/init.d/boardc-tune-" + b.Name }
func hotplugFile(b *ir.Board) string     { return "openwrt/hotplug.d/net/90-boardc-" + b.Name }

// boardDir is where the board's installed files are: tune.sh and
// irqbalance.env.
func boardDir(b *ir.Board) string { return InstallDir + "/" + b.Name }

// tunePath is where the unit and the init files expect tune.sh.
func tunePath(b *ir.Board) string { return boardDir(b) + "/" + ScriptFile }

// templateUnit is the unit the udev rule starts for each network
// interface: it tunes that interface's queues and places the IRQs of its
// master, new ones after a driver reload, and is stopped with the device
// (BindsTo=), so that the next appearance tunes it again.
func templateUnit(b *ir.Board) outputs.File {
	p := outputs.NewPrinter(outputs.Systemd)
	header(p, b, "Per-interface runtime tuning service")
	p.Comment("", "Started by "+udevRuleFile(b)+" for each network interface that appears,")
	p.Comment("", "whatever its name: tune.sh finds the board's interfaces by hardware and")
	p.Comment("", "leaves the others alone. It tunes the interface's queues and places the")
	p.Comment("", "IRQs of the master that owns it, which a driver reload renumbers.")
	p.P()
	p.P("[Unit]")
	p.P("Description=", outputs.T("boardc runtime tuning of board "+b.Name+": interface "), "%I")
	p.P("DefaultDependencies=no")
	p.P("BindsTo=sys-subsystem-net-devices-%i.device")
	p.P("After=sys-subsystem-net-devices-%i.device " + UnitFile(b))
	p.P("Before=shutdown.target")
	p.P("Conflicts=shutdown.target")
	p.P()
	p.P("[Service]")
	p.P("Type=oneshot")
	p.P("RemainAfterExit=yes")
	p.P("SuccessExitStatus=4")
	p.P("ExecStart=/bin/sh ", outputs.Str(tunePath(b)), " --interface %I")
	return p.File(TemplateUnitFile(b))
}

// udevRule starts the template unit for every network interface that
// appears, under the name it has once renamed: the rule runs after
// 80-net-setup-link.rules, and $name is the name the rules gave it.
func udevRule(b *ir.Board) outputs.File {
	p := outputs.NewPrinter(outputs.Conf)
	header(p, b, "udev rule")
	c := p.Block("")
	c.Line("Install in /etc/udev/rules.d/ (or /usr/lib/udev/rules.d/). Each network")
	c.Line("interface that appears starts ", TemplateUnitFile(b), " for it,")
	c.Line("after 80-net-setup-link.rules renamed it ($name is its final name).")
	p.P(`ACTION=="add", SUBSYSTEM=="net", KERNEL!="lo", TAG+="systemd", ENV{SYSTEMD_WANTS}+="boardc-tune-` + b.Name + `@$name.service"`)
	return p.File(udevRuleFile(b))
}

// irqbalanceDropIn hands irqbalance the policy-script directory and the
// isolated CPUs, and orders it after the boot tuning.
func irqbalanceDropIn(b *ir.Board) outputs.File {
	p := outputs.NewPrinter(outputs.Systemd)
	header(p, b, "irqbalance drop-in")
	p.Comment("", "Install as /etc/systemd/system/"+dropInFile(b)+", and the policy script as")
	p.Comment("", PolicyDir+"/boardc-"+b.Name+" (mode 0755). irqbalance runs each script in")
	p.Comment("", "the directory until one exits 0 (classify.c get_irq_user_policy()); the")
	p.Comment("", "board's bans the IRQs tune.sh places and exits 1 for the others.")
	p.P()
	p.P("[Unit]")
	p.P("After=", UnitFile(b))
	p.P()
	p.P("[Service]")
	if len(b.Policy.IsolatedCPUs) > 0 {
		p.Comment("", "IRQBALANCE_BANNED_CPULIST: the isolated CPUs.")
		p.P("EnvironmentFile=-", outputs.Str(boardDir(b)+"/"+IrqbalanceEnv))
	}
	p.P("ExecStart=")
	p.P("ExecStart=/usr/sbin/irqbalance --foreground $IRQBALANCE_ARGS --policyscript=", outputs.Str(PolicyDir))
	return p.File(dropInFile(b))
}

// sysvInit is the S-script for BusyBox init's rcS and sysvinit: start
// applies everything (status 4, items missing, counts as started), stop
// reverts, status verifies (body/sysv.sh).
func sysvInit(b *ir.Board) outputs.File {
	p := outputs.NewPrinter(outputs.Shell)
	p.P("#!/bin/sh")
	header(p, b, "Init script (BusyBox init rcS, sysvinit)")
	c := p.Block("")
	c.Line("Install as /etc/init.d/S40boardc-tune-", b.Name, ", before the network")
	c.Line("scripts. BOARDC_TUNE overrides where tune.sh is.")
	initBody(p, b, "sysv.sh")
	return p.File(sysvFile(b))
}

// openwrtInit is the procd init script for OpenWrt: START=19 runs it
// before the network (20) (body/openwrt.sh).
func openwrtInit(b *ir.Board) outputs.File {
	p := outputs.NewPrinter(outputs.Shell)
	p.P("#!/bin/sh /etc/rc.common")
	header(p, b, "OpenWrt init script")
	c := p.Block("")
	c.Line("Install as /etc/init.d/boardc-tune-", b.Name, " and enable it; each interface")
	c.Line("is tuned again when it appears by the hotplug.d script. BOARDC_TUNE")
	c.Line("overrides where tune.sh is.")
	initBody(p, b, "openwrt.sh")
	return p.File(openwrtInitFile(b))
}

// openwrtHotplug tunes an interface when OpenWrt's hotplug (procd) sees it
// appear: ACTION and INTERFACE come from the kernel's uevent
// (body/hotplug.sh).
func openwrtHotplug(b *ir.Board) outputs.File {
	p := outputs.NewPrinter(outputs.Shell)
	p.P("#!/bin/sh")
	header(p, b, "OpenWrt hotplug script")
	c := p.Block("")
	c.Line("Install as /etc/hotplug.d/net/90-boardc-", b.Name, ". BOARDC_TUNE overrides")
	c.Line("where tune.sh is.")
	initBody(p, b, "hotplug.sh")
	return p.File(hotplugFile(b))
}
