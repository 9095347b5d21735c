// Package tune emits the runtime tuning of a board: a POSIX shell script
// (tune.sh) that pins IRQs by action name, sets RPS/XPS masks and sysctls,
// verifies and reverts them; a sysctl.d file; a systemd unit that applies
// the script at boot and reverts it on stop; and, for irqbalance, a
// --policyscript that bans the pinned IRQs and an environment file that
// keeps IRQs off the isolated CPUs.
//
// Runtime facts the outputs rely on: IRQ numbers are not stable, so IRQs
// are found by their action name in /proc/interrupts (several IRQs may
// share one, like the EIP97 rings); /proc/irq/N/smp_affinity_list reads
// back as a CPU list ("0-1"); rx-N/rps_cpus and tx-N/xps_cpus read back as
// hex masks zero-padded to the CPU count and comma-grouped in 32-bit words;
// rx-N/rps_flow_cnt and net.core.rps_sock_flow_entries are rounded up to a
// power of two by the kernel; irqbalance ignores affinity hints and moves
// any IRQ it is not told to leave alone.
package tune

import (
	"fmt"
	"strings"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// Emitter is the runtime tuning emitter.
var Emitter = outputs.Emitter{Name: "tune", Emit: Emit}

// InstallDir is where the systemd unit expects the board's files:
// <InstallDir>/<board>/tune.sh and irqbalance.env, and the policy script
// in PolicyDir.
const InstallDir = "/usr/libexec/boardc"

// Output file names, relative to the board's output directory.
const (
	ScriptFile    = "tune.sh"
	PolicyFile    = "irqbalance-policy.sh"
	IrqbalanceEnv = "irqbalance.env"
)

// SysctlFile returns the path of the board's sysctl.d file.
func SysctlFile(b *ir.Board) string { return "sysctl.d/90-boardc-" + b.Name + ".conf" }

// UnitFile returns the name of the board's systemd unit.
func UnitFile(b *ir.Board) string { return "boardc-tune-" + b.Name + ".service" }

// TemplateUnitFile returns the name of the board's per-interface template
// unit.
func TemplateUnitFile(b *ir.Board) string { return "boardc-tune-" + b.Name + "@.service" }

// Exit statuses of tune.sh.
const (
	ExitOK      = 0 // everything applied; --verify found no drift
	ExitDrift   = 1 // --verify found drift
	ExitUsage   = 2 // bad arguments
	ExitRefused = 3 // nothing changed: not this board, or --strict with an item missing
	ExitPartial = 4 // applied, but an IRQ, interface or queue was missing, or a managed IRQ refused a write
	ExitFailed  = 5 // a read or write failed; what came before it is applied
)

// Emit returns the board's tuning files. A board without IRQ pins, network
// steering or sysctls gets no script and no unit; each other file is
// emitted only when the board has what it is for.
func Emit(b *ir.Board) []outputs.File {
	var fs []outputs.File
	p := &b.Policy
	if len(p.IRQs) > 0 || len(p.Net) > 0 || len(p.Sysctls) > 0 {
		fs = append(fs, script(b), unit(b), sysvInit(b), openwrtInit(b))
	}
	if HasTemplate(b) {
		fs = append(fs, templateUnit(b), udevRule(b))
	}
	if len(p.Net) > 0 {
		fs = append(fs, openwrtHotplug(b))
	}
	if len(p.IRQs) > 0 && p.IrqbalanceBan {
		fs = append(fs, irqbalanceDropIn(b))
	}
	if len(p.Sysctls) > 0 {
		fs = append(fs, sysctlConf(b))
	}
	if len(p.IRQs) > 0 && p.IrqbalanceBan {
		fs = append(fs, policyScript(b))
	}
	if len(p.IsolatedCPUs) > 0 {
		fs = append(fs, irqbalanceEnv(b), cmdline(b))
	}
	outputs.SortFiles(fs)
	return fs
}

// SysctlPath returns the /proc/sys path of a dotted sysctl key.
func SysctlPath(key string) string {
	return "/proc/sys/" + strings.ReplaceAll(key, ".", "/")
}

// roundedSysctls are the sysctls the kernel rounds up to a power of two.
var roundedSysctls = map[string]bool{"net.core.rps_sock_flow_entries": true}

// SysctlValue returns the value a sysctl reads back as after it was set
// from the description: the value itself, or, for a sysctl the kernel
// rounds up to a power of two, the rounded number.
func SysctlValue(s ir.Sysctl) string {
	if roundedSysctls[s.Key] {
		var n int64
		if _, err := fmt.Sscan(s.Value, &n); err == nil && fmt.Sprint(n) == s.Value && n > 0 {
			return fmt.Sprint(ir.FlowTableSize(uint64(n)))
		}
	}
	return s.Value
}

// guardCompatibles returns the compatible strings that identify the board
// itself: its own compatibles without those of its SoC, which every board
// built on the SoC shares. If all of them are SoC compatibles, all count.
func guardCompatibles(b *ir.Board) []string {
	soc := map[string]bool{}
	for _, c := range b.SoC.Compatible {
		soc[c] = true
	}
	var out []string
	for _, c := range b.Compatible {
		if !soc[c] {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return b.Compatible
	}
	return out
}

// header writes the common header of a '#'-commented file.
func header(p *outputs.Printer, b *ir.Board, what string) {
	c := p.Block("")
	c.Line("SPDX-License-Identifier: (GPL-2.0-or-later OR MIT)")
	c.Line(outputs.GeneratedNotice)
	c.Line()
	desc := outputs.T(outputs.From(ir.RefBoard, b.Pos), "board ", b.Name)
	if b.Model != "" {
		desc = append(desc, outputs.From(ir.RefModel), " (", b.Model, ")")
	}
	c.Line(what, " of ", desc, outputs.From(ir.RefSoC, b.SoC.Pos), ", SoC ", b.SoC.Name, ".")
}

// Unit returns the systemd unit that applies tune.sh's IRQs and sysctls
// once at boot and reverts the tuning when stopped. It waits on no device
// unit: an IRQ or interface that is not there yet is a warning, not a
// failure (status 4 counts as success), and each interface is tuned by
// the templated unit the udev rule starts when it appears.
func Unit(b *ir.Board) string { return string(unit(b).Data) }

func unit(b *ir.Board) outputs.File {
	p := outputs.NewPrinter(outputs.Systemd)
	header(p, b, "Runtime tuning service")
	p.Comment("", "Install as "+SystemdUnitDir+"/"+UnitFile(b)+";")
	p.Comment("", "local copies go to /etc/systemd/system. Install "+ScriptFile+" as "+tunePath(b)+".")
	if HasTemplate(b) {
		p.Comment("", "It places the IRQs and sets the sysctls; "+TemplateUnitFile(b))
		p.Comment("", "tunes each interface, and places a master's IRQs, when udev sees them.")
		p.Comment("", "Stopping this service reverts the tuning.")
	} else {
		p.Comment("", "It places the IRQs and sets the sysctls. Stopping this service reverts")
		p.Comment("", "the tuning.")
	}
	p.P()
	p.P("[Unit]")
	p.P("Description=", outputs.T("boardc runtime tuning of board "+b.Name+": IRQs and sysctls"))
	p.P("DefaultDependencies=no")
	p.P("Wants=network-pre.target")
	p.P("After=local-fs.target systemd-sysctl.service systemd-modules-load.service")
	p.P("Before=network-pre.target shutdown.target")
	p.P("Conflicts=shutdown.target")
	script := outputs.Str(tunePath(b))
	p.P()
	p.P("[Service]")
	p.P("Type=oneshot")
	p.P("RemainAfterExit=yes")
	p.Comment("", "Status 4: applied, with items missing (named in the journal).")
	p.P("SuccessExitStatus=4")
	p.P("ExecStart=/bin/sh ", script, " --only irq,sysctl")
	p.P("ExecReload=/bin/sh ", script, " --only irq,sysctl")
	p.P("ExecStop=/bin/sh ", script, " --revert")
	p.P()
	p.P("[Install]")
	p.P("WantedBy=multi-user.target")
	return p.File(UnitFile(b))
}

// SysctlConf returns the board's sysctl.d file.
func SysctlConf(b *ir.Board) string { return string(sysctlConf(b).Data) }

func sysctlConf(b *ir.Board) outputs.File {
	p := outputs.NewPrinter(outputs.Conf)
	header(p, b, "Sysctls")
	c := p.Block("")
	c.Line("For systemd-sysctl or sysctl --system. tune.sh sets the same values and")
	c.Line("can revert them; install this file where they should be set at every")
	c.Line("boot without the tuning service.")
	for _, s := range b.Policy.Sysctls {
		o := outputs.From(s.Ref(), s.Pos)
		p.P()
		p.Comment("", o, outputs.T(s.Pos))
		v := SysctlValue(s)
		if v != s.Value {
			p.Comment("", o, s.Value+" rounded up to a power of two, as the kernel stores it")
		}
		// A key or value a conf file cannot hold as it is is left out,
		// with the reason; tune.sh still sets it.
		if err := outputs.Conf.Check(s.Key); err != nil {
			p.Comment("", o, "skipped the key: "+err.Error())
			continue
		}
		if err := outputs.Conf.Check(v); err != nil {
			p.Comment("", o, "skipped "+s.Key+": "+err.Error())
			continue
		}
		p.P(o.Named(s.Key, SysctlPath(s.Key)), outputs.Str(s.Key), " = ", outputs.Str(v))
	}
	return p.File(SysctlFile(b))
}

// IrqbalanceEnvFile returns the environment file that keeps irqbalance
// from placing IRQs on the board's isolated CPUs.
func IrqbalanceEnvFile(b *ir.Board) string { return string(irqbalanceEnv(b).Data) }

func irqbalanceEnv(b *ir.Board) outputs.File {
	p := outputs.NewPrinter(outputs.Conf)
	header(p, b, "irqbalance environment")
	c := p.Block("")
	c.Line("Keeps irqbalance off the isolated CPUs. Read it from irqbalance's")
	c.Line("EnvironmentFile= (e.g. append it to /etc/default/irqbalance).")
	o := outputs.From(ir.RefIsolatedCPUs, b.Policy.IsolatedPos)
	p.P()
	p.Comment("", o, outputs.T(b.Policy.IsolatedPos, ": isolated CPUs"))
	p.P(o.Named("IRQBALANCE_BANNED_CPULIST"), "IRQBALANCE_BANNED_CPULIST=", ir.CPUList(b.Policy.IsolatedCPUs))
	return p.File(IrqbalanceEnv)
}
