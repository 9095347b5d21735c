//go:build !linux

package main

import "os"

// swapIn puts the staged set at cur: a rename without a current set,
// else the two-rename fallback, through old, that recoverOut completes
// after a kill.
func swapIn(stage, cur, old string) error {
	if _, err := os.Lstat(cur); os.IsNotExist(err) {
		return os.Rename(stage, cur)
	}
	return fallbackSwap(stage, cur, old)
}
