package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func gogc(t *testing.T) int64 {
	t.Helper()
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		t.Fatalf("metric %s unavailable", s[0].Name)
	}
	return int64(s[0].Value.Uint64())
}

// startHeap raises GOGC so that the first collection comes at the size
// asked, and the first collection puts it back to 100; GOGC in the
// environment is left alone.
func TestStartHeap(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOMEMLIMIT", "")

	t.Setenv("GOGC", "50")
	startHeap(64 << 20)
	if got := gogc(t); got != 100 {
		t.Fatalf("with GOGC set: GOGC %d, want it untouched (100)", got)
	}

	t.Setenv("GOGC", "")
	startHeap(64 << 20)
	if got := gogc(t); got != 1600 {
		t.Fatalf("GOGC %d after startHeap(64 MiB), want 1600 (a first goal of 16 × 4 MiB)", got)
	}
	for deadline := time.Now().Add(5 * time.Second); gogc(t) != 100; {
		if time.Now().After(deadline) {
			t.Fatalf("GOGC still %d after collections, want 100", gogc(t))
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}
