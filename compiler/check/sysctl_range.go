package check

import (
	"fmt"
	"math/big"
	"strings"

	"boardc.dev/boardc/compiler/diag"
	"boardc.dev/boardc/compiler/ir"
)

// SysctlRange finds sysctl values the kernel rejects.
var SysctlRange = &Check{
	Needs: FactPolicy,
	Code: diag.Code{ID: "BC0411", Name: "sysctl-range", Severity: diag.Error,
		Doc: "A sysctl value the kernel rejects with EINVAL: systemd-sysctl logs the failure at every " +
			"boot and tune.sh stops at it. For the sysctls whose handler boardc knows (the table in " +
			"compiler/check/sysctl_bounds.go, each bound with the kernel source that enforces it: " +
			"net.core.netdev_budget and netdev_max_backlog are ints, busy_poll, busy_read and " +
			"netdev_budget_usecs at least 0, dev_weight and its biases at least 1, " +
			"rps_sock_flow_entries at most 1<<29), the value must be one integer in that range; for " +
			"any other sysctl, an integer must fit an unsigned long, the widest a sysctl parses " +
			"(proc_get_long(), kernel/sysctl.c). Integers are read as the kernel reads them (0x hex, " +
			"a leading 0 octal). That the kernel rounds rps_sock_flow_entries up is BC0407's."},
	Run: func(p *Pass) {
		for _, s := range p.Board.Policy.Sysctls {
			if b, ok := sysctlBounds[s.Key]; ok {
				checkKnownSysctl(p, s, b)
				continue
			}
			fields := strings.Fields(s.Value)
			var vals []*big.Int
			for _, f := range fields {
				v, ok := kernelInt(f)
				if !ok {
					vals = nil // not numeric: a string sysctl
					break
				}
				vals = append(vals, v)
			}
			for i, v := range vals {
				if new(big.Int).Abs(v).Cmp(maxULong) <= 0 {
					continue
				}
				what := fmt.Sprintf("%s = %s", s.Key, s.Value)
				if len(vals) > 1 {
					what += ": " + fields[i]
				}
				p.Report(s.Ref(), s.Pos, what+" does not fit an unsigned long; the kernel rejects it (EINVAL)",
					Note(ir.Pos{}, "%s", srcULong))
			}
		}
	},
}

func checkKnownSysctl(p *Pass, s ir.Sysctl, b sysctlBound) {
	v, ok := kernelInt(strings.TrimSpace(s.Value))
	switch {
	case !ok:
		p.Report(s.Ref(), s.Pos,
			fmt.Sprintf("%s = %q is not an integer; the kernel rejects it (EINVAL)", s.Key, s.Value),
			Note(ir.Pos{}, "%s", srcInteger))
	case v.Cmp(big.NewInt(intMin)) < 0 || v.Cmp(big.NewInt(intMax)) > 0:
		p.Report(s.Ref(), s.Pos,
			fmt.Sprintf("%s = %s does not fit an int; the kernel rejects it (EINVAL)", s.Key, s.Value),
			Note(ir.Pos{}, "%s", srcIntOverflow))
	case v.Cmp(big.NewInt(b.Min)) < 0:
		p.Report(s.Ref(), s.Pos,
			fmt.Sprintf("%s = %s is below %d, the least the kernel takes; it rejects it (EINVAL)", s.Key, s.Value, b.Min),
			Note(ir.Pos{}, "%s", b.Source))
	case v.Cmp(big.NewInt(b.Max)) > 0:
		p.Report(s.Ref(), s.Pos,
			fmt.Sprintf("%s = %s is above %d, the most the kernel takes; it rejects it (EINVAL)", s.Key, s.Value, b.Max),
			Note(ir.Pos{}, "%s", b.Source))
	}
}
