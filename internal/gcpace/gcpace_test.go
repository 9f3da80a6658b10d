package gcpace

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestPercent(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		live, goal uint64
		want       int
	}{
		{0, 32 * mb, 800},        // nothing known yet: the runtime's floor at 32 MB
		{1 * mb, 32 * mb, 800},   // capped: 31x would put the runtime's floor at 124 MB
		{4 * mb, 32 * mb, 700},   // 4 MB + 700% = 32 MB
		{8 * mb, 32 * mb, 300},   // 8 MB + 300% = 32 MB
		{16 * mb, 32 * mb, 100},  // the default already reaches the goal
		{100 * mb, 32 * mb, 100}, // a large cache: the default
		{1 * mb, 4 * mb, 100},    // a goal at the runtime's own floor
	} {
		if got := Percent(c.live, c.goal); got != c.want {
			t.Errorf("Percent(%d MB, %d MB) = %d, want %d", c.live/mb, c.goal/mb, got, c.want)
		}
	}
}

// TestStartAdjustsAfterCollections: GOGC starts at the runtime's floor
// for the goal; with a live heap past half the goal, the collections that
// follow bring it back to 100.
func TestStartAdjustsAfterCollections(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	p := start(8 << 20)
	defer p.stopped.Store(true)
	if got := p.percent.Load(); got != 200 {
		t.Fatalf("after start(8 MB), GOGC = %d, want 200 (the runtime's floor at 8 MB)", got)
	}
	live := make([]byte, 16<<20)
	for i := 0; p.percent.Load() != 100 && i < 200; i++ {
		runtime.GC() // the finalizer runs after the cycle, on its own goroutine
		runtime.Gosched()
	}
	runtime.KeepAlive(live)
	if got := p.percent.Load(); got != 100 {
		t.Errorf("with 16 MB live and an 8 MB goal, GOGC = %d after 200 collections, want 100", got)
	}
}

// TestStartKeepsTheUsersGOGC: a GOGC in the environment is left alone.
func TestStartKeepsTheUsersGOGC(t *testing.T) {
	t.Setenv("GOGC", "150")
	defer debug.SetGCPercent(debug.SetGCPercent(150))
	Start(64 << 20)
	if got := debug.SetGCPercent(150); got != 150 {
		t.Errorf("Start changed GOGC to %d with GOGC=150 set", got)
	}
}
