package ir

// DPAA2 describes the DPAA2 I/O portals of an SoC.
type DPAA2 struct {
	DPIOs []DPIO // sorted by ID
	// StashClusterBase and StashClusterSize give a DPIO serving cpu the
	// stash destination StashClusterBase + cpu/StashClusterSize.
	StashClusterBase int
	StashClusterSize int
	StashSource      string
	StashPos         Pos
	DPNI, DPCON      int
	RXStashing       bool
	RXStashingPos    Pos
	Pos              Pos
}

// StashDest returns the stash destination of a DPIO serving cpu.
func (d *DPAA2) StashDest(cpu int) int {
	return d.StashClusterBase + cpu/d.StashClusterSize
}

// DPIO is one DPAA2 I/O portal and the CPU it serves.
type DPIO struct {
	ID  int
	CPU int
	Ref Ref // by declaration order; DPIOs are sorted by ID
	Pos Pos
}

// Policy is the runtime tuning of a board.
type Policy struct {
	IRQs          []IRQPin    // in declaration order
	Net           []NetPolicy // sorted by IfName
	Sysctls       []Sysctl    // sorted by Key
	IsolatedCPUs  []int
	IsolatedPos   Pos
	IrqbalanceBan bool
}

// IRQPin pins the IRQ whose action name is IRQ to CPUs.
type IRQPin struct {
	IRQ  string
	CPUs []int
	Ref  Ref
	Pos  Pos
}

// NetPolicy steers one interface's queues.
type NetPolicy struct {
	IfName string
	Ref    Ref
	// RPS[i] and XPS[i] are the CPUs of rx-i and tx-i.
	RPS          [][]int
	RPSFlowCount int // -1 when not set
	XPS          [][]int
	Pos          Pos
}

// Sysctl is one kernel parameter, its key in dotted form.
type Sysctl struct {
	Key   string
	Value string
	Ref   Ref
	Pos   Pos
}

// Waiver silences one check on one element.
type Waiver struct {
	Check string
	// On is the element as the waiver names it; Target is that element's
	// ref once the name is resolved, empty when it names none.
	On     string
	Target Ref
	Reason string
	Pos    Pos
	OnPos  Pos
}
