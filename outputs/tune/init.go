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

// templateUnit is the unit the udev rule starts for each of the board's
// network interfaces that appears or is renamed, and for each master
// whose driver binds: tune.sh --instance %I tunes that interface's queues
// and places the IRQs of its master (new ones after a driver reload), or
// places the IRQs of the master. The instance is an interface name, or
// master:KEY (':' is in no interface name, net/core/dev.c
// dev_valid_name()), escaped by systemd-escape as systemd.unit(5) wants
// it ("br-lan" is br\x2dlan, which %I unescapes back). It binds to no
// device unit and does not remain active after it ran, so every new
// appearance starts it again.
func templateUnit(b *ir.Board) outputs.File {
	p := outputs.NewPrinter(outputs.Systemd)
	header(p, b, "Per-interface and per-master runtime tuning service")
	p.Comment("", "Install as "+SystemdUnitDir+"/"+TemplateUnitFile(b)+";")
	p.Comment("", "local copies go to /etc/systemd/system. "+udevRuleFile(b)+" starts it for each of the board's")
	p.Comment("", "interfaces that appears or is renamed, the instance its name as systemd-escape")
	p.Comment("", "writes it, and as master:KEY for a master whose driver binds: it places the")
	p.Comment("", "IRQs of the master, which a driver reload renumbers, and tunes the")
	p.Comment("", "interface's queues. It waits on no device unit and ends when tune.sh does,")
	p.Comment("", "so the next appearance runs it again.")
	p.P()
	p.P("[Unit]")
	p.P("Description=", outputs.T("boardc runtime tuning of board "+b.Name+": "), "%I")
	p.P("DefaultDependencies=no")
	p.P("After=" + UnitFile(b))
	p.P("Before=shutdown.target")
	p.P("Conflicts=shutdown.target")
	p.P()
	p.P("[Service]")
	p.P("Type=oneshot")
	p.Comment("", "Status 4: applied, with items missing (named in the journal).")
	p.P("SuccessExitStatus=4")
	p.P("ExecStart=/bin/sh ", outputs.Str(tunePath(b)), " --instance %I")
	return p.File(TemplateUnitFile(b))
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
// appear or renamed (add, move): ACTION and INTERFACE come from the
// kernel's uevent (body/hotplug.sh).
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
