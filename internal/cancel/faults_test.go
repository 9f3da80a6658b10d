//go:build fscache_faultinject

package cancel

import (
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/fence"
)

// A panic in the token's timer (a goroutine of the runtime's) stops the
// token with it, Release returns, and the next token polls again.
func TestFaultInTheTimerStopsTheToken(t *testing.T) {
	base := runtime.NumGoroutine()
	fence.Arm(fence.Timer, 2)
	tok := New(time.Time{}, func() bool { return false })
	for i := 0; !tok.Stopped(); i++ {
		if i > 60000 {
			fence.Disarm()
			t.Fatal("the timer's panic did not stop the token in a minute")
		}
		time.Sleep(time.Millisecond)
	}
	var fe *fence.Error
	if !errors.As(tok.Err(), &fe) || fe.Kind != fence.Timer || fence.Armed() {
		t.Fatalf("token stopped with %v", tok.Err())
	}
	tok.Release()
	var raised atomic.Bool
	next := New(time.Time{}, raised.Load)
	raised.Store(true)
	for i := 0; !errors.Is(next.Err(), ErrSignal); i++ {
		if i > 60000 {
			t.Fatal("the next token did not see its flag in a minute")
		}
		time.Sleep(time.Millisecond)
	}
	next.Release()
	for i := 0; runtime.NumGoroutine() > base; i++ {
		if i > 60000 {
			t.Fatalf("%d goroutines a minute after, %d before", runtime.NumGoroutine(), base)
		}
		time.Sleep(time.Millisecond)
	}
}
