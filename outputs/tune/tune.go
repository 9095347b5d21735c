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

// InstallDir is where the systemd unit expects the board's scripts:
// <InstallDir>/<board>/tune.sh and irqbalance-policy.sh.
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

// Exit statuses of tune.sh.
const (
	ExitOK       = 0 // done; --verify found no drift
	ExitDrift    = 1 // --verify found drift, or a read or write failed
	ExitUsage    = 2 // bad arguments
	ExitNotBoard = 3 // /proc/device-tree/compatible names another board
	ExitNoIRQ    = 4 // no IRQ of a pinned name in /proc/interrupts
	ExitMissing  = 5 // a file to tune is missing
)

// Emit returns the board's tuning files. A board without IRQ pins, network
// steering or sysctls gets no script and no unit; each other file is
// emitted only when the board has what it is for.
func Emit(b *ir.Board) []outputs.File {
	var fs []outputs.File
	p := &b.Policy
	if len(p.IRQs) > 0 || len(p.Net) > 0 || len(p.Sysctls) > 0 {
		fs = append(fs,
			outputs.File{Path: ScriptFile, Data: []byte(Script(b))},
			outputs.File{Path: UnitFile(b), Data: []byte(Unit(b))})
	}
	if len(p.Sysctls) > 0 {
		fs = append(fs, outputs.File{Path: SysctlFile(b), Data: []byte(SysctlConf(b))})
	}
	if len(p.IRQs) > 0 && p.IrqbalanceBan {
		fs = append(fs, outputs.File{Path: PolicyFile, Data: []byte(PolicyScript(b))})
	}
	if len(p.IsolatedCPUs) > 0 {
		fs = append(fs, outputs.File{Path: IrqbalanceEnv, Data: []byte(IrqbalanceEnvFile(b))})
	}
	outputs.SortFiles(fs)
	return fs
}

// Quote returns s as one single-quoted shell word: nothing in it is
// expanded, whatever it contains.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Comment returns s fit for a one-line comment in any generated file:
// control characters, which could end the comment, become '?'.
func Comment(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}

// where returns the provenance of a generated line: the CUE position p,
// fit for a comment.
func where(p ir.Pos) string { return Comment(p.Short()) }

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
			return fmt.Sprint(roundPow2(n))
		}
	}
	return s.Value
}

// roundPow2 rounds n up to a power of two, as the kernel's
// roundup_pow_of_two(); 0 stays 0.
func roundPow2(n int64) int64 {
	if n <= 0 {
		return n
	}
	p := int64(1)
	for p < n {
		p <<= 1
	}
	return p
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
func header(w *strings.Builder, b *ir.Board, what string) {
	w.WriteString("# SPDX-License-Identifier: (GPL-2.0-or-later OR MIT)\n")
	w.WriteString("# " + outputs.GeneratedNotice + "\n#\n")
	desc := "board " + b.Name
	if b.Model != "" {
		desc += " (" + b.Model + ")"
	}
	fmt.Fprintf(w, "# %s of %s, SoC %s.\n", what, Comment(desc), Comment(b.SoC.Name))
}

// Unit returns the systemd unit that applies tune.sh once at boot, before
// the network is configured and after the board's network devices exist,
// and reverts it when stopped.
func Unit(b *ir.Board) string {
	var w strings.Builder
	header(&w, b, "Runtime tuning service")
	dir := InstallDir + "/" + b.Name
	fmt.Fprintf(&w, "# Install %s as %s/%s. Stopping the service reverts the tuning.\n",
		ScriptFile, Comment(dir), ScriptFile)
	w.WriteString("\n[Unit]\n")
	fmt.Fprintf(&w, "Description=%s\n", unitText("boardc runtime tuning of board "+b.Name))
	w.WriteString("DefaultDependencies=no\n")
	w.WriteString("Wants=network-pre.target\n")
	w.WriteString("Before=network-pre.target shutdown.target\n")
	w.WriteString("Conflicts=shutdown.target\n")
	w.WriteString("After=local-fs.target systemd-sysctl.service\n")
	for _, n := range b.Policy.Net {
		dev := "sys-subsystem-net-devices-" + SystemdEscape(n.IfName) + ".device"
		fmt.Fprintf(&w, "# %s: interface %s\n", where(n.Pos), Comment(n.IfName))
		fmt.Fprintf(&w, "Wants=%s\nAfter=%s\n", dev, dev)
	}
	script := execArg(dir + "/" + ScriptFile)
	w.WriteString("\n[Service]\nType=oneshot\nRemainAfterExit=yes\n")
	fmt.Fprintf(&w, "ExecStart=/bin/sh %s\n", script)
	fmt.Fprintf(&w, "ExecReload=/bin/sh %s\n", script)
	fmt.Fprintf(&w, "ExecStop=/bin/sh %s --revert\n", script)
	w.WriteString("\n[Install]\nWantedBy=multi-user.target\n")
	return w.String()
}

// SystemdEscape escapes s for use in a unit name as systemd-escape does:
// every byte outside [a-zA-Z0-9:_.] (and a leading '.') becomes \xNN, so
// "br-lan" is "br\x2dlan".
func SystemdEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == ':' || c == '_' || c == '.' && i > 0
		if ok {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, `\x%02x`, c)
		}
	}
	return b.String()
}

// unitText makes s safe as a unit setting's free text: one line, with
// '%' (a specifier) doubled.
func unitText(s string) string {
	return strings.ReplaceAll(Comment(s), "%", "%%")
}

// execArg makes s one argument of an Exec*= line: specifiers and variable
// references escaped, and quoted when it holds blanks, quotes or escapes.
func execArg(s string) string {
	s = unitEscapes.Replace(Comment(s))
	if strings.ContainsAny(s, " \t\"'\\;") {
		s = `"` + quoteEscapes.Replace(s) + `"`
	}
	return s
}

// The replacers of execArg, built once (a Replacer is safe for concurrent
// use).
var (
	unitEscapes  = strings.NewReplacer("%", "%%", "$", "$$")
	quoteEscapes = strings.NewReplacer(`\`, `\\`, `"`, `\"`)
)

// SysctlConf returns the board's sysctl.d file.
func SysctlConf(b *ir.Board) string {
	var w strings.Builder
	header(&w, b, "Sysctls")
	w.WriteString("# For systemd-sysctl or sysctl --system. tune.sh sets the same values and\n")
	w.WriteString("# can revert them; install this file where they should be set at every\n")
	w.WriteString("# boot without the tuning service.\n")
	for _, s := range b.Policy.Sysctls {
		fmt.Fprintf(&w, "\n# %s\n", where(s.Pos))
		v := SysctlValue(s)
		if v != s.Value {
			fmt.Fprintf(&w, "# %s rounded up to a power of two, as the kernel stores it\n", Comment(s.Value))
		}
		if Comment(s.Key) != s.Key || Comment(v) != v {
			fmt.Fprintf(&w, "# skipped %s: a control character in the key or value\n", Comment(s.Key))
			continue
		}
		fmt.Fprintf(&w, "%s = %s\n", s.Key, v)
	}
	return w.String()
}

// IrqbalanceEnvFile returns the environment file that keeps irqbalance
// from placing IRQs on the board's isolated CPUs.
func IrqbalanceEnvFile(b *ir.Board) string {
	var w strings.Builder
	header(&w, b, "irqbalance environment")
	w.WriteString("# Keeps irqbalance off the isolated CPUs. Read it from irqbalance's\n")
	w.WriteString("# EnvironmentFile= (e.g. append it to /etc/default/irqbalance).\n")
	fmt.Fprintf(&w, "\n# %s: isolated CPUs\n", where(b.Policy.IsolatedPos))
	fmt.Fprintf(&w, "IRQBALANCE_BANNED_CPULIST=%s\n", ir.CPUList(b.Policy.IsolatedCPUs))
	return w.String()
}
