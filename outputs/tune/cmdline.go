package tune

import (
	"boardc.dev/boardc/compiler/ir"
	"boardc.dev/boardc/outputs"
)

// CmdlineFile is the kernel command-line fragment of a board with
// isolated CPUs.
const CmdlineFile = "cmdline.txt"

// Cmdline returns cmdline.txt: the kernel parameters that isolate the
// policy's isolatedCPUs, one line to append to the kernel command line
// (Documentation/admin-guide/kernel-parameters.txt):
//
//   - irqaffinity=HOUSEKEEPING: the default affinity of every IRQ, so
//     that IRQs no one pins start off the isolated CPUs (kernel/irq/irqdesc.c
//     irq_affinity_setup());
//   - isolcpus=managed_irq,domain,ISOLATED: no scheduler load balancing
//     onto them, and managed IRQs kept off them where the vector has
//     another CPU (kernel/sched/isolation.c housekeeping_isolcpus_setup());
//   - nohz_full=ISOLATED: no scheduler tick while one task runs
//     (kernel/sched/isolation.c housekeeping_nohz_full_setup(), needs
//     CONFIG_NO_HZ_FULL);
//   - rcu_nocbs=ISOLATED: RCU callbacks run on the housekeeping CPUs
//     (kernel/rcu/tree_nocb.h rcu_nocb_setup()).
//
// isolcpus= is "Deprecated - use cpusets instead" (Linux 6.12
// kernel-parameters.txt:2438-2439): the file also offers, as comments,
// the fragment without it and the commands that make an isolated cpuset
// partition of the isolated CPUs at run time (cgroup-v2.rst:2453,
// cpuset.cpus.partition "isolated": no load balancing, and the CPUs
// leave the unbound workqueues).
func Cmdline(b *ir.Board) string { return string(cmdline(b).Data) }

func cmdline(b *ir.Board) outputs.File {
	p := outputs.NewPrinter(outputs.Conf)
	header(p, b, "Kernel command-line fragment")
	c := p.Block("")
	c.Line("The line below is the fragment: append it to the kernel command line,")
	c.Line("in U-Boot's bootargs, extlinux.conf's APPEND, a Raspberry Pi's")
	c.Line("cmdline.txt (one line: copy only the fragment), or CONFIG_CMDLINE with")
	c.Line("CONFIG_CMDLINE_EXTEND. irqaffinity= gives IRQs no one pins the")
	c.Line("housekeeping CPUs; isolcpus= keeps the scheduler and managed IRQs off")
	c.Line("the isolated CPUs, nohz_full= (CONFIG_NO_HZ_FULL) their tick and")
	c.Line("rcu_nocbs= their RCU callbacks.")
	pol := &b.Policy
	house := b.HousekeepingCPUs()
	iso := ir.CPUList(pol.IsolatedCPUs)
	o := outputs.From(ir.RefIsolatedCPUs, pol.IsolatedPos)
	p.Comment("", o, outputs.T(pol.IsolatedPos, ": isolated ", ir.CPUText(pol.IsolatedCPUs), "; housekeeping ", ir.CPUText(house)))
	line := "isolcpus=managed_irq,domain," + iso + " nohz_full=" + iso + " rcu_nocbs=" + iso
	if len(house) > 0 {
		line = "irqaffinity=" + ir.CPUList(house) + " " + line
	}
	p.P(o.Named("isolcpus", "nohz_full", "rcu_nocbs", "irqaffinity"), line)
	p.P()
	rest := "nohz_full=" + iso + " rcu_nocbs=" + iso
	if len(house) > 0 {
		rest = "irqaffinity=" + ir.CPUList(house) + " " + rest
	}
	cg := "/sys/fs/cgroup/isolated"
	c = p.Block("")
	c.Line(o, "isolcpus= is deprecated for cpusets (kernel-parameters.txt), and the")
	c.Line("domain isolation it sets at boot cannot be undone. The cgroup v2 way is")
	c.Line("an isolated cpuset partition (cgroup-v2.rst, cpuset.cpus.partition")
	c.Line("\"isolated\": no load balancing, no unbound workqueues), which CPUs can")
	c.Line("enter and leave at run time. For it, append this fragment instead:")
	c.Line("  ", rest)
	c.Line("and, once the system is up, make the partition as root (cgroup v2 at")
	c.Line("/sys/fs/cgroup) and run the tasks to isolate in it:")
	c.Line("  echo +cpuset > /sys/fs/cgroup/cgroup.subtree_control")
	c.Line("  mkdir ", cg)
	c.Line("  echo ", iso, " > ", cg, "/cpuset.cpus")
	c.Line("  echo isolated > ", cg, "/cpuset.cpus.partition")
	c.Line("  cat ", cg, "/cpuset.cpus.partition   # isolated, or why not")
	c.Line("isolcpus=managed_irq has no cpuset counterpart: a managed IRQ whose")
	c.Line("mask spans isolated and housekeeping CPUs may then fire on an")
	c.Line("isolated CPU.")
	c.End()
	return p.File(CmdlineFile)
}
