package check

import (
	"math"
	"math/big"
	"strings"
)

// sysctlBound is the range of values the kernel accepts for one sysctl,
// as its handler enforces it; Source cites the handler. Every handler
// listed parses into a C int, so a value outside -2^31..2^31-1 is
// rejected before any bound of its own.
type sysctlBound struct {
	Min, Max int64
	Source   string
}

const (
	intMin = math.MinInt32
	intMax = math.MaxInt32
)

// Sources of the bounds, in the kernel tree. The net.core sysctls are
// registered in net/core/sysctl_net_core.c (net_core_table,
// netns_core_table); proc_dointvec() and proc_dointvec_minmax() are in
// kernel/sysctl.c, where do_proc_dointvec_conv() rejects a value outside
// an int and do_proc_dointvec_minmax_conv() one outside extra1..extra2.
const (
	srcDointvec    = "net/core/sysctl_net_core.c: proc_dointvec(), an int (kernel/sysctl.c do_proc_dointvec_conv() rejects anything outside -2147483648..2147483647)"
	srcMinZero     = "net/core/sysctl_net_core.c: proc_dointvec_minmax() with extra1 = SYSCTL_ZERO"
	srcMinOne      = "net/core/sysctl_net_core.c: proc_dointvec_minmax() with extra1 = SYSCTL_ONE"
	srcDevWeight   = "net/core/sysctl_net_core.c: proc_do_dev_weight() calls proc_dointvec_minmax() with extra1 = SYSCTL_ONE since commit d1f9f79fa2af (\"net: let net.core.dev_weight always be non-zero\", Linux 6.14 and stable); older kernels take 0 and then poll the backlog with a budget of 0"
	srcSockFlow    = "net/core/sysctl_net_core.c: rps_sock_flow_sysctl() returns -EINVAL for a size above 1<<29 (a negative size reads as a larger unsigned one)"
	srcULong       = "kernel/sysctl.c: proc_get_long() parses every integer of a sysctl into an unsigned long and returns -EINVAL when strtoul_lenient() overflows"
	srcInteger     = "kernel/sysctl.c: proc_get_long() reads one integer: an optional -, then digits (0x hex, a leading 0 octal) followed by nothing but a blank"
	srcIntOverflow = "kernel/sysctl.c: do_proc_dointvec_conv() rejects a value outside an int (-2147483648..2147483647)"
)

// sysctlBounds are the sysctls whose range boardc knows, each with the
// handler that enforces it. A sysctl not listed here is checked only
// against the widest integer any sysctl parses (srcULong).
var sysctlBounds = map[string]sysctlBound{
	"net.core.netdev_budget":       {Min: intMin, Max: intMax, Source: srcDointvec},
	"net.core.netdev_max_backlog":  {Min: intMin, Max: intMax, Source: srcDointvec},
	"net.core.netdev_budget_usecs": {Min: 0, Max: intMax, Source: srcMinZero},
	"net.core.dev_weight":          {Min: 1, Max: intMax, Source: srcDevWeight},
	"net.core.dev_weight_rx_bias":  {Min: 1, Max: intMax, Source: srcDevWeight},
	"net.core.dev_weight_tx_bias":  {Min: 1, Max: intMax, Source: srcDevWeight},
	// Rounded up to a power of two when accepted: BC0407 notes that.
	"net.core.rps_sock_flow_entries": {Min: 0, Max: 1 << 29, Source: srcSockFlow},
	"net.core.busy_poll":             {Min: 0, Max: intMax, Source: srcMinZero},
	"net.core.busy_read":             {Min: 0, Max: intMax, Source: srcMinZero},
	"net.core.somaxconn":             {Min: 0, Max: intMax, Source: srcMinZero},
	"net.core.gro_normal_batch":      {Min: 1, Max: intMax, Source: srcMinOne},
}

// maxULong is the largest unsigned long, on a 64-bit kernel: no sysctl
// parses a wider integer.
var maxULong = new(big.Int).SetUint64(math.MaxUint64)

// kernelInt parses s as proc_get_long() (kernel/sysctl.c) parses one
// integer of a sysctl: an optional "-", then digits in base 0 as
// strtoul_lenient() reads them: "0x" and a hex digit start a hexadecimal
// number, another leading 0 an octal one, anything else a decimal one.
// It returns false when s is not such an integer.
func kernelInt(s string) (*big.Int, bool) {
	t := s
	neg := strings.HasPrefix(t, "-")
	if neg {
		t = t[1:]
	}
	if t == "" || t[0] < '0' || t[0] > '9' {
		return nil, false
	}
	base := 10
	switch {
	case len(t) > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') && isHex(t[2]):
		base, t = 16, t[2:]
	case t[0] == '0':
		base = 8
	}
	for i := 0; i < len(t); i++ {
		if !isDigit(t[i], base) {
			return nil, false
		}
	}
	v, ok := new(big.Int).SetString(t, base)
	if !ok {
		return nil, false
	}
	if neg {
		v.Neg(v)
	}
	return v, true
}

func isHex(c byte) bool { return isDigit(c, 16) }

func isDigit(c byte, base int) bool {
	switch {
	case c >= '0' && c <= '9':
		return int(c-'0') < base
	case c >= 'a' && c <= 'f':
		return base == 16
	case c >= 'A' && c <= 'F':
		return base == 16
	}
	return false
}
