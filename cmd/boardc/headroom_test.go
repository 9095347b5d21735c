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

func TestHeadroomPercent(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live, size uint64
		want       int
	}{
		{4 * mib, 32 * mib, 800}, // the first goal: heapMinimum, 4 MiB × 800 / 100
		{8 * mib, 32 * mib, 400}, // 8 + 32 MiB
		{20 * mib, 32 * mib, 160},
		{16 * mib, 32 * mib, 200},
		{17 * mib, 32 * mib, 188},
		{31 * mib, 32 * mib, 103},
		{32 * mib, 32 * mib, 100}, // twice the live heap from here
		{300 * mib, 32 * mib, 100},
		{0, 32 * mib, 100},
	} {
		if got := headroomPercent(c.live, c.size); got != c.want {
			t.Errorf("headroomPercent(%d MiB, %d MiB) = %d, want %d", c.live/mib, c.size/mib, got, c.want)
		}
	}
}

// heapHeadroom raises GOGC so that the first collection comes at the
// size asked; after collections GOGC follows the live heap: above 100
// while it is small, 100 once it passes the headroom. GOGC in the
// environment is left alone.
func TestHeapHeadroom(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOMEMLIMIT", "")

	t.Setenv("GOGC", "50")
	heapHeadroom(64 << 20)
	if got := gogc(t); got != 100 {
		t.Fatalf("with GOGC set: GOGC %d, want it untouched (100)", got)
	}

	t.Setenv("GOGC", "")
	heapHeadroom(64 << 20)
	if got := gogc(t); got != 1600 {
		t.Fatalf("GOGC %d after heapHeadroom(64 MiB), want 1600 (a first goal of 16 × 4 MiB)", got)
	}
	// A test binary's live heap is a few MiB: after a collection the
	// headroom keeps GOGC high, though below the first goal's 1600 once
	// the heap passes 4 MiB.
	collectUntil(t, func(g int64) bool { return g > 100 && g != 1600 }, "above 100, not 1600")
	// 96 MiB kept live: past the headroom, the default.
	live := make([]byte, 96<<20)
	collectUntil(t, func(g int64) bool { return g == 100 }, "100")
	runtime.KeepAlive(live)
	live = nil
	collectUntil(t, func(g int64) bool { return g > 100 }, "above 100 again")
}

func collectUntil(t *testing.T, ok func(int64) bool, want string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !ok(gogc(t)); {
		if time.Now().After(deadline) {
			t.Fatalf("GOGC %d after collections, want %s", gogc(t), want)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}
