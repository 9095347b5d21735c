package ir

import (
	"slices"
	"strings"
)

// MCCompatible is the compatible of the fsl-mc bus node
// (drivers/bus/fsl-mc/fsl-mc-bus.c), whose network devices are the DPNIs'
// interfaces.
const MCCompatible = "fsl,qoriq-mc"

// IsMC reports whether the master is an fsl-mc bus: its compatible list
// has MCCompatible.
func (m *Master) IsMC() bool { return slices.Contains(m.Compatible, MCCompatible) }

// DPNIDevs returns the network devices of the SoC's fsl-mc masters in
// name order: the i-th is DPNI i's interface.
func (s *SoC) DPNIDevs() []NetDev {
	var devs []NetDev
	for _, m := range s.Masters {
		if m.IsMC() {
			devs = append(devs, m.NetDevs...)
		}
	}
	slices.SortStableFunc(devs, func(a, b NetDev) int { return strings.Compare(a.Name, b.Name) })
	return devs
}

// DPNIIndex returns the DPNI the data-path layout gives the interface
// called name, its place among DPNIDevs, and false when it is not an
// interface of an fsl-mc master.
func (s *SoC) DPNIIndex(name string) (int, bool) {
	for i, d := range s.DPNIDevs() {
		if d.Name == name {
			return i, true
		}
	}
	return 0, false
}

// DeriveDPNIs gives each interface of an fsl-mc master that states no
// dpni and is not found by name the id of its DPNI in the data-path
// layout (DPNIIndex), where the layout has that DPNI, so that tune.sh
// finds it by the object the layout creates for it. Lowering calls it.
func (s *SoC) DeriveDPNIs() {
	if s.DPAA2 == nil {
		return
	}
	index := map[string]int{}
	for i, d := range s.DPNIDevs() {
		index[d.Name] = i
	}
	for _, m := range s.Masters {
		if !m.IsMC() {
			continue
		}
		for i := range m.NetDevs {
			d := &m.NetDevs[i]
			if d.HasDPNI || d.ByName {
				continue
			}
			if id, ok := index[d.Name]; ok && id < s.DPAA2.DPNI {
				d.DPNI, d.HasDPNI = id, true
			}
		}
	}
}

// DPIOCPUs returns the CPUs the SoC's DPIOs serve, in DPIO order, each
// once, leaving out CPUs the SoC does not have.
func (s *SoC) DPIOCPUs() []int {
	if s.DPAA2 == nil {
		return nil
	}
	n := s.NumCPUs()
	var cpus []int
	for _, io := range s.DPAA2.DPIOs {
		if io.CPU < n && !slices.Contains(cpus, io.CPU) {
			cpus = append(cpus, io.CPU)
		}
	}
	return cpus
}

// DPNIQueues returns DPNI i's queue count: the rxQueues of its interface,
// or one per CPU with a DPIO for a DPNI without one.
func (s *SoC) DPNIQueues(i int) int {
	if devs := s.DPNIDevs(); i < len(devs) && devs[i].RxQueues > 0 {
		return devs[i].RxQueues
	}
	return len(s.DPIOCPUs())
}

// DPNIChannels returns the channels dpaa2-eth makes for DPNI i, each
// taking a DPCON: one per online CPU with its own DPIO, up to the DPNI's
// queue count (dpaa2_eth_setup_dpio(),
// drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c).
func (s *SoC) DPNIChannels(i int) int {
	return min(len(s.DPIOCPUs()), s.DPNIQueues(i))
}
