package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// heapHeadroom lets the heap grow by at least size between collections:
// the first collection comes at size, and after each one GOGC is set so
// that the next comes at the larger of twice the live heap (GOGC=100, the
// default) and the live heap plus size. A simpler form of what the Go
// compiler does for its start (AdjustStartingHeap in
// cmd/compile/internal/base/base.go), kept for the whole process.
//
// The runtime's first heap goal is 4 MiB and later goals twice the live
// heap. A small board's build, a process of a few tens of milliseconds
// that allocates a few MiB, spent about a tenth of its time collecting
// garbage it would have dropped on exit anyway; a build of many boards
// on one SoC keeps a small live heap and allocates a board's garbage
// over it, collecting as often as every few MiB (BENCHMARKS.md). A
// description whose live heap passes size collects as it would by
// default: the headroom costs at most size of memory.
//
// The first goal is 4 MiB times GOGC/100 (heapMinimum, set by
// setGCPercent in runtime/mgcpacer.go), later ones the live heap times
// 1 + GOGC/100 (gcControllerState.heapGoal); a finalizer, run after each
// collection, reads the live heap and sets GOGC for the next. GOGC or
// GOMEMLIMIT in the environment leave the collector as they set it.
func heapHeadroom(size uint64) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	const first = 4 << 20 // runtime's defaultHeapMinimum
	debug.SetGCPercent(headroomPercent(first, size))
	rearm(size)
}

// rearm sets GOGC for size of headroom after the next collection, and
// again after each one that follows.
func rearm(size uint64) {
	// 32 bytes: large enough for the runtime's regular allocator, whose
	// objects' finalizers run (the tiny allocator's may not).
	runtime.SetFinalizer(new([32]byte), func(*[32]byte) {
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(s)
		if s[0].Value.Kind() != metrics.KindUint64 {
			debug.SetGCPercent(100)
			return
		}
		debug.SetGCPercent(headroomPercent(s[0].Value.Uint64(), size))
		rearm(size)
	})
}

// headroomPercent is the GOGC that puts the next goal of a heap of live
// bytes at least size above it, and never below the default's twice
// live.
func headroomPercent(live, size uint64) int {
	if live == 0 || live >= size {
		return 100
	}
	return int(max(100, 100*size/live))
}
