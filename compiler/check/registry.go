package check

// All returns every check, sorted by code: the loader's codes (loader.go)
// and the semantic checks. The list is the registry: a code exists when it
// is named here.
func All() []*Check {
	return sortedCodes([]*Check{
		Parse,
		Schema,
		Unknown,
		Missing,
		Reference,
		Conflict,
		NotInSoC,
		WaiverReason,
		WaiverUnused,
		WaiverTarget,
		CoherentOnNonCoherentBus,
		CoherencyOverrideReason,
		CoherencyOptOut,
		CoherencyUnverified,
		OverlayCannotDelete,
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
		IRQPinConflict,
		SteeringOnIsolated,
		PolicyOnDisabled,
		SysctlRange,
		SysctlAction,
		DuplicateNodes,
		UndeclaredTarget,
		RootBus,
		StashClusters,
		DPIOPin,
		DPIOIDs,
		DPCONBudget,
	})
}
