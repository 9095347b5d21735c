// Package benchcpu reports the CPU time a benchmark takes per operation,
// user and system time of the whole process (the collector's included),
// beside the wall time the testing package reports: a machine shared with
// other jobs disturbs it less.
package benchcpu

import (
	"syscall"
	"testing"
	"time"
)

// PerOp starts counting the process's CPU time; the function it returns
// reports it per operation as cpu-ns/op. Use it as
//
//	defer benchcpu.PerOp(b)()
func PerOp(b *testing.B) func() {
	start := used(b)
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64((used(b)-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}

// used returns the user and system time the process has used.
func used(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
