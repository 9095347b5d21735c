//go:build !linux

package outset

import "os"

// swapIn puts the staged set at cur: a rename without a current set,
// else the two-rename fallback, through old, that recover completes
// after a kill.
func swapIn(stage, cur, old string) error {
	if _, err := os.Lstat(cur); os.IsNotExist(err) {
		return os.Rename(stage, cur)
	}
	return fallbackSwap(stage, cur, old)
}
