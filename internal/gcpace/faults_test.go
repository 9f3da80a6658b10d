//go:build fscache_faultinject

package gcpace

import (
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/fscache/fscache/internal/fence"
)

// A panic in the pacer's finalizer (on the runtime's finalizer goroutine)
// is recorded, and the chain goes on adjusting after the next collections.
func TestFaultInTheFinalizerIsDroppedAndThePacerGoesOn(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	dropped := fence.Dropped()[fence.Finalizer.String()].Count
	fence.Arm(fence.Finalizer, 0)
	defer fence.Disarm()
	p := start(8 << 20)
	defer p.stopped.Store(true)
	for i := 0; fence.Dropped()[fence.Finalizer.String()].Count == dropped; i++ {
		if i > 1000 {
			t.Fatal("no drop of the finalizer after 1000 collections")
		}
		runtime.GC()
		runtime.Gosched()
	}
	live := make([]byte, 16<<20)
	for i := 0; p.percent.Load() != 100 && i < 200; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	runtime.KeepAlive(live)
	if got := p.percent.Load(); got != 100 {
		t.Errorf("after the finalizer's panic, GOGC = %d after 200 collections, want 100", got)
	}
}
