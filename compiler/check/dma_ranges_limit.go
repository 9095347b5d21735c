package check

import "boardc.dev/boardc/compiler/ir"

// parentLimit returns the last address the parent of a bus can carry: its
// declared addressBits, else what its #address-cells can express. It
// returns 0 when no limit applies (64 bits or more).
func parentLimit(rootCells int, parent *ir.Bus) uint64 {
	bits := 32 * rootCells
	if parent != nil {
		bits = 32 * parent.AddressCells
		if parent.AddressBits != 0 && parent.AddressBits < bits {
			bits = parent.AddressBits
		}
	}
	if bits >= 64 || bits == 0 {
		return 0
	}
	return 1<<uint(bits) - 1
}
