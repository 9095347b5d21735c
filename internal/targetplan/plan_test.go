package main

import (
	"fmt"
	"strings"
	"testing"

	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/internal/intree"
	"github.com/google/go-cmp/cmp"
)

// TestPlanEspressobin pins the plan of an in-tree board: what the target
// test compares the running kernel with.
func TestPlanEspressobin(t *testing.T) {
	r := intree.Compile(t, "../../boards/espressobin")
	var b strings.Builder
	if err := write(&b, r.Board); err != nil {
		t.Fatal(err)
	}
	want := `# target plan of board espressobin, from its description
board espressobin
cluster 0-1
master crypto /soc/bus@d0000000/crypto@90000 coherent 64 64 driver
master eth0 /soc/bus@d0000000/ethernet@30000 noncoherent 32 32 boardc
master pcie0 /soc/pcie@d0070000 noncoherent any any driver
master sata /soc/bus@d0000000/sata@e0000 noncoherent 32 32 driver
master sdhci1 /soc/bus@d0000000/mmc@d0000 noncoherent 32 32 driver
master usb2 /soc/bus@d0000000/usb@5e000 noncoherent 32 32 driver
master usb3 /soc/bus@d0000000/usb@58000 noncoherent 32 32 driver
master xor /soc/bus@d0000000/xor@60900 noncoherent 32 32 boardc
limit crypto 0x0 0x0
limit eth0 0x0 0x0
limit pcie0 0x0 0x0
limit sata 0x0 0x0
limit sdhci1 0x0 0x0
limit usb2 0x0 0x0
limit usb3 0x0 0x0
limit xor 0x0 0x0
widths crypto 64 64 any any
widths eth0 32 32 any any
widths pcie0 any any any any
widths sata 32,64 32,64 any any
widths sdhci1 32,64 32,64 any any
widths usb2 32 32 any any
widths usb3 32,64 32,64 any any
widths xor 32 32 any any
irq d0090000.crypto driver 0,1
netdev eth0 node /soc/bus@d0000000/ethernet@30000
rps eth0 0 3
rpsflow eth0 0 4096
sysctl net/core/rps_sock_flow_entries 4096
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("plan (-want +got):\n%s", diff)
	}
}

// TestState covers each way a master's coherency is decided, the opt-out
// included.
func TestState(t *testing.T) {
	coherent := &ir.Bus{Coherency: ir.BusCoherency{Coherent: true, Masters: ir.ScopeVerified}}
	plain := &ir.Bus{}
	for _, tc := range []struct {
		m    *ir.Master
		want string
	}{
		{&ir.Master{Bus: coherent, Coherency: &ir.MasterCoherency{Coherent: true}}, "coherent"},
		{&ir.Master{Bus: coherent, Coherency: &ir.MasterCoherency{Coherent: false}}, "optout"},
		{&ir.Master{Bus: coherent}, "noncoherent"},
		{&ir.Master{Bus: plain, Coherency: &ir.MasterCoherency{Coherent: true}}, "noncoherent"},
	} {
		if got := state(tc.m); got != tc.want {
			t.Errorf("state(%+v) = %s, want %s", tc.m.Coherency, got, tc.want)
		}
	}
}

// TestPlanIfIRQ: each interface lists the IRQ pins of its own master, and
// a pin of a master without an interface (the rng's virtio1) is none's.
func TestPlanIfIRQ(t *testing.T) {
	r := intree.Compile(t, "../../boards/qemu-virt")
	var b strings.Builder
	if err := write(&b, r.Board); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "ifirq ") {
			got = append(got, l)
		}
	}
	want := []string{
		"ifirq eth0 virtio0-input.0", "ifirq eth0 virtio0-input.1", "ifirq eth0 virtio0-input.2", "ifirq eth0 virtio0-input.3",
		"ifirq eth0 virtio0-output.0", "ifirq eth0 virtio0-output.1", "ifirq eth0 virtio0-output.2", "ifirq eth0 virtio0-output.3",
		"ifirq eth1 virtio2",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ifirq records (-want +got):\n%s", diff)
	}
}

// TestPlanChannels: an interface whose queue counts tune.sh sets has its
// channels record after its netdev record.
func TestPlanChannels(t *testing.T) {
	r := intree.Compile(t, "../../boards/qemu-virt")
	var b strings.Builder
	if err := write(&b, r.Board); err != nil {
		t.Fatal(err)
	}
	if want := "netdev eth0 node /pcie@10000000\nchannels eth0 4 4\n"; !strings.Contains(b.String(), want) {
		t.Errorf("plan lacks %q:\n%s", want, b.String())
	}
	if strings.Count(b.String(), "\nchannels ") != 1 {
		t.Errorf("plan has channels records for other interfaces:\n%s", b.String())
	}
}

// TestPlanPorts: an interface that names its port node is found by it,
// one without by its master's node.
func TestPlanPorts(t *testing.T) {
	r := intree.Compile(t, "../../testdata/cases/macchiatobin-ports")
	var b strings.Builder
	if err := write(&b, r.Board); err != nil {
		t.Fatal(err)
	}
	want := "netdev eth0 node /cp0-bus/bus@f2000000/ethernet@0\n"
	for i := range 3 {
		want += fmt.Sprintf("netdev eth%d node /cp1-bus/bus@f4000000/ethernet@0/ethernet-port@%d\n", i+1, i)
	}
	var got string
	for l := range strings.Lines(b.String()) {
		if strings.HasPrefix(l, "netdev ") {
			got += l
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("netdev records (-want +got):\n%s", diff)
	}
}

// TestPlanIsolated: a board that isolates CPUs states them and the
// housekeeping CPUs, as the kernel lists CPUs.
func TestPlanIsolated(t *testing.T) {
	r := intree.Compile(t, "../../testdata/cases/policy-isolated")
	var b strings.Builder
	if err := write(&b, r.Board); err != nil {
		t.Fatal(err)
	}
	if want := "isolated 2-3\nhousekeeping 0-1\n"; !strings.HasSuffix(b.String(), want) {
		t.Errorf("plan does not end with %q:\n%s", want, b.String())
	}
}

// TestPlanOneCPU: on an SoC with one CPU tune.sh writes no RPS or RFS
// (BC0415), so the plan expects none, while the interface and its XPS
// stay; with two CPUs the same policy is planned in full.
func TestPlanOneCPU(t *testing.T) {
	board := func(cpus []int) *ir.Board {
		b := &ir.Board{
			Name: "onecpu",
			SoC:  ir.SoC{Name: "onecpusoc", Clusters: []ir.Cluster{{Core: "arm,cortex-a9", CPUs: cpus}}},
			Policy: ir.Policy{Net: []ir.NetPolicy{{
				IfName:       "eth0",
				RPS:          [][]int{{0}},
				RPSFlowCount: 100,
				XPS:          [][]int{{0}},
			}}},
		}
		b.ResolvePolicy()
		return b
	}
	for _, tc := range []struct {
		cpus []int
		want string
	}{
		{[]int{0}, "board onecpu\ncluster 0\nnetdev eth0 name -\nxps eth0 0 1\n"},
		{[]int{0, 1}, "board onecpu\ncluster 0-1\nnetdev eth0 name -\nrps eth0 0 1\nrpsflow eth0 0 128\nxps eth0 0 1\n"},
	} {
		var b strings.Builder
		if err := write(&b, board(tc.cpus)); err != nil {
			t.Fatal(err)
		}
		want := "# target plan of board onecpu, from its description\n" + tc.want
		if diff := cmp.Diff(want, b.String()); diff != "" {
			t.Errorf("plan with CPUs %v (-want +got):\n%s", tc.cpus, diff)
		}
	}
}

// TestPlanBridgeDMARanges: the PCI devices behind a bridge that states
// its own dma-ranges are expected at the limit of its windows (the
// highest bus address + size - 1), the bridge's own device at none.
func TestPlanBridgeDMARanges(t *testing.T) {
	r := intree.Compile(t, "../../testdata/cases/pcie-bridge-dma-ranges")
	var b strings.Builder
	if err := write(&b, r.Board); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"limit pcie0 0x0 0x1ffffffff\n", "limit pcie1 0x0 0xffffffff\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("plan lacks %q:\n%s", want, b.String())
		}
	}
}

// TestPlanDMADevice: a master configured from another master's node
// (dmaDevice) is expected with that node's coherency and the bus DMA
// limit of the walk from it, its masks any.
func TestPlanDMADevice(t *testing.T) {
	r := intree.Compile(t, "../../testdata/cases/dma-device")
	var b strings.Builder
	if err := write(&b, r.Board); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"master de /display-engine coherent any any driver\n",
		"limit de 0xbfffffff 0x0\n",
		"widths de any any any any\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("plan lacks %q:\n%s", want, b.String())
		}
	}
}
