package ir

import "slices"

// DPAA2EthReach returns how many channels dpaa2-eth can make for one DPNI
// without taking an isolated CPU: dpaa2_eth_setup_dpio()
// (drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c, Linux 6.12:3175-3232)
// walks the online CPUs in ascending order (for_each_online_cpu()) and
// makes a channel on each, registered with that CPU's own DPIO, until it
// has the DPNI's num_queues; it skips no CPU. So the channels stay off the
// isolated CPUs only while num_queues is at most the number of CPUs below
// the lowest isolated one. With no isolated CPU, every CPU.
func (b *Board) DPAA2EthReach() int {
	n := b.SoC.NumCPUs()
	if len(b.Policy.IsolatedCPUs) == 0 {
		return n
	}
	return min(n, slices.Min(b.Policy.IsolatedCPUs))
}

// DPNIQueuesIsolated returns the num_queues of DPNI i in the data-path
// layout: the SoC's (DPNIQueues), at most DPAA2EthReach, so that the
// DPNI's channels, and the frame queues and RSS spread over them, stay
// off the isolated CPUs.
func (b *Board) DPNIQueuesIsolated(i int) int {
	return min(b.SoC.DPNIQueues(i), b.DPAA2EthReach())
}
