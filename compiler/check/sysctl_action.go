package check

import (
	"fmt"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// sysctlAction is a sysctl that is an action: writing it does something
// once, and it holds no value to read back.
type sysctlAction struct {
	Does   string // what a write does
	Source string
}

// sysctlActions are the sysctls that are one-shot triggers rather than
// settings, each with where the kernel documents or implements it.
// kernel.sysrq is not one (it is the mask of allowed SysRq functions), and
// /proc/sysrq-trigger is not a sysctl: no key names it.
var sysctlActions = map[string]sysctlAction{
	"vm.drop_caches": {"drops the clean page cache and reclaimable slab objects",
		"Documentation/admin-guide/sysctl/vm.rst, drop_caches; write-only (mode 0200; drop_caches_sysctl_handler(), fs/drop_caches.c)"},
	"vm.compact_memory": {"compacts every memory zone",
		"Documentation/admin-guide/sysctl/vm.rst, compact_memory: \"When 1 is written to the file, all zones are compacted\"; write-only (mode 0200, mm/compaction.c)"},
	"vm.stat_refresh": {"flushes the per-CPU VM statistics into the global counters",
		"Documentation/admin-guide/sysctl/vm.rst, stat_refresh: \"Any read or write (by root only) flushes all the per-cpu vm statistics\"; it reads back empty (mm/vmstat.c vmstat_refresh())"},
	"net.ipv4.route.flush": {"flushes the IPv4 routing cache",
		"net/ipv4/route.c: ipv4_sysctl_rtcache_flush(), write-only (mode 0200)"},
	"net.ipv6.route.flush": {"runs IPv6 route garbage collection",
		"net/ipv6/route.c: ipv6_sysctl_rtcache_flush(), write-only (mode 0200)"},
}

// SysctlAction refuses one-shot triggers in the persistent sysctls.
var SysctlAction = &Check{
	Needs: FactPolicy,
	Code: diag.Code{ID: "BC0412", Name: "sysctl-action", Severity: diag.Error,
		Doc: "policy.sysctls holds settings, written to a sysctl.d file that systemd-sysctl applies at " +
			"every boot and that tune.sh reads back to verify. A few sysctls are actions instead: " +
			"vm.drop_caches, vm.compact_memory and vm.stat_refresh (Documentation/admin-guide/sysctl/vm.rst), " +
			"net.ipv4.route.flush and net.ipv6.route.flush. Writing one does something once and leaves no " +
			"value: the sysctl.d file would do it at every boot, and tune.sh cannot read back what it " +
			"wrote (write-only, mode 0200, or empty), so it fails. Run such an action from a script when " +
			"it is wanted."},
	Run: func(p *Pass) {
		for _, s := range p.Board.Policy.Sysctls {
			a, ok := sysctlActions[s.Key]
			if !ok {
				continue
			}
			p.Report(s.Ref(), s.Pos,
				fmt.Sprintf("%s is an action, not a setting: writing it %s, which the sysctl.d file would do at every boot, and tune.sh cannot read it back", s.Key, a.Does),
				Note(ir.Pos{}, "%s", a.Source))
		}
	},
}
