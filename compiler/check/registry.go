package check

// All returns every check, sorted by code. The list is the registry: a
// check exists when it is named here.
func All() []*Check {
	return sortedCodes([]*Check{
		WaiverReason,
		WaiverUnused,
		WaiverTarget,
		CoherentOnNonCoherentBus,
		CoherencyOverrideReason,
		CoherencyOptOut,
		CoherencyUnverified,
		DMABelowRAM,
		DMAAboveBus,
		DMARangesCells,
		DMARangesOverlap,
		DPIOCount,
		RXStashing,
		CPUTopology,
		CPURange,
		IRQOnIsolated,
		IrqbalanceMoves,
		RPSRedundant,
		QueueRange,
		FlowTableRounding,
		DuplicateNodes,
		UndeclaredTarget,
		RootBus,
	})
}
