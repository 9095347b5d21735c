package main

import (
	"os"
	"runtime"
	"runtime/debug"
)

// startHeap lets the heap grow to size before the first collection, then
// leaves the collector at its default (GOGC=100): a simpler form of what
// the Go compiler does for the same reason (AdjustStartingHeap in
// cmd/compile/internal/base/base.go). The runtime's first heap goal is
// 4 MiB, and the build of a small board, a process of a few tens of
// milliseconds that allocates a few MiB, spent about a tenth of its time
// collecting garbage it would have dropped on exit anyway (BENCHMARKS.md).
//
// The first goal is 4 MiB times GOGC/100 (heapMinimum, set by
// setGCPercent in runtime/mgcpacer.go), so GOGC is raised to make it size;
// a finalizer, run after the first collection, puts it back. GOGC or
// GOMEMLIMIT in the environment leave the collector as they set it.
func startHeap(size uint64) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	const first = 4 << 20 // runtime's defaultHeapMinimum
	if size <= first {
		return
	}
	debug.SetGCPercent(int(100 * size / first))
	// 32 bytes: large enough for the runtime's regular allocator, whose
	// objects' finalizers run (the tiny allocator's may not).
	runtime.SetFinalizer(new([32]byte), func(*[32]byte) { debug.SetGCPercent(100) })
}
