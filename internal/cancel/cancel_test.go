package cancel

import (
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// waitErr waits for tok to stop: a minute at most (a hang otherwise).
func waitErr(t *testing.T, tok *Token) error {
	t.Helper()
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(100 * time.Microsecond) {
		if err := tok.Err(); err != nil {
			return err
		}
	}
	t.Fatal("hang: the token did not stop in a minute")
	return nil
}

func TestNilAndZero(t *testing.T) {
	var nilTok *Token
	if nilTok.Err() != nil || nilTok.Stopped() {
		t.Error("a nil token cancelled")
	}
	nilTok.Stop(ErrSignal)
	nilTok.Release()
	var zero Token
	if zero.Err() != nil || zero.Stopped() {
		t.Error("the zero token cancelled")
	}
	tok := New(time.Time{}, nil)
	defer tok.Release()
	if tok.Err() != nil || tok.timer != nil {
		t.Errorf("a token with nothing to watch: %v, timer %v", tok.Err(), tok.timer != nil)
	}
}

// TestAtOnce: a raised flag or a passed deadline is seen by New itself.
func TestAtOnce(t *testing.T) {
	if err := New(time.Time{}, func() bool { return true }).Err(); err != ErrSignal {
		t.Errorf("raised flag: %v", err)
	}
	if err := New(time.Now(), nil).Err(); err != ErrTimeout {
		t.Errorf("deadline now: %v", err)
	}
	// Both: the flag wins, as before.
	if err := New(time.Now().Add(-time.Second), func() bool { return true }).Err(); err != ErrSignal {
		t.Errorf("both: %v", err)
	}
}

// TestWatched: a flag raised later and a deadline that passes later are
// noticed by the token's timer, and the flag is polled repeatedly (the
// clock drives the polls: no work is done here at all).
func TestWatched(t *testing.T) {
	var flag atomic.Bool
	var polls atomic.Int32
	tok := New(time.Time{}, func() bool { polls.Add(1); return flag.Load() })
	defer tok.Release()
	for polls.Load() < 3 {
		time.Sleep(PollPeriod)
	}
	if tok.Stopped() {
		t.Fatal("stopped before the flag was raised")
	}
	flag.Store(true)
	if err := waitErr(t, tok); err != ErrSignal {
		t.Errorf("flag: %v", err)
	}
	n := polls.Load()
	time.Sleep(10 * PollPeriod)
	if polls.Load() != n {
		t.Errorf("polled %d more times after it stopped", polls.Load()-n)
	}

	tok = New(time.Now().Add(5*time.Millisecond), nil)
	defer tok.Release()
	if err := waitErr(t, tok); err != ErrTimeout {
		t.Errorf("deadline: %v", err)
	}
	tok = New(time.Now().Add(5*time.Millisecond), func() bool { return false })
	defer tok.Release()
	if err := waitErr(t, tok); err != ErrTimeout {
		t.Errorf("deadline with a flag: %v", err)
	}
}

// TestFlagPanics: a panicking flag, at once or on the timer's goroutine,
// stops the token with an error instead of ending the process.
func TestFlagPanics(t *testing.T) {
	if err := New(time.Time{}, func() bool { panic("at once") }).Err(); err == nil || err == ErrSignal {
		t.Errorf("at once: %v", err)
	}
	var polls atomic.Int32
	tok := New(time.Time{}, func() bool {
		if polls.Add(1) > 2 {
			panic("later")
		}
		return false
	})
	defer tok.Release()
	if err := waitErr(t, tok); err == ErrSignal || err.Error() != "cancel: the abort flag panicked: later" {
		t.Errorf("later: %v", err)
	}
}

// TestPoll: Poll looks at the flag itself once PollPeriod has passed since
// the last look, with no timer running (released here, as one kept from
// running by busy goroutines).
func TestPoll(t *testing.T) {
	var flag atomic.Bool
	tok := New(time.Now().Add(time.Hour), flag.Load)
	tok.Release()
	flag.Store(true)
	time.Sleep(2 * PollPeriod)
	if !tok.Poll() || tok.Err() != ErrSignal {
		t.Errorf("Poll after PollPeriod: %v", tok.Err())
	}
	tok = New(time.Now().Add(3*PollPeriod), nil)
	tok.Release()
	time.Sleep(4 * PollPeriod)
	if !tok.Poll() || tok.Err() != ErrTimeout {
		t.Errorf("Poll past the deadline: %v", tok.Err())
	}
	var nilTok *Token
	if nilTok.Poll() || New(time.Time{}, nil).Poll() {
		t.Error("Poll stopped a token with nothing to watch")
	}
	stopped := New(time.Time{}, nil)
	stopped.Stop(ErrSignal)
	if !stopped.Poll() {
		t.Error("Poll missed Stop")
	}
}

// TestStop: the first reason stays.
func TestStop(t *testing.T) {
	tok := New(time.Time{}, nil)
	mine := errors.New("mine")
	tok.Stop(nil)
	if tok.Stopped() {
		t.Error("Stop(nil) stopped the token")
	}
	tok.Stop(mine)
	tok.Stop(ErrSignal)
	if !tok.Stopped() || tok.Err() != mine {
		t.Errorf("got %v, want the first reason", tok.Err())
	}
}

// TestReleaseStopsPolling: after Release no check runs, and no goroutine
// is left, however many tokens were made.
func TestReleaseStopsPolling(t *testing.T) {
	base := runtime.NumGoroutine()
	var polls atomic.Int32
	for range 200 {
		tok := New(time.Now().Add(time.Hour), func() bool { polls.Add(1); return false })
		time.Sleep(time.Duration(polls.Load()%3) * PollPeriod / 2)
		tok.Release()
		tok.Release()
	}
	n := polls.Load()
	time.Sleep(10 * PollPeriod)
	if polls.Load() != n {
		t.Errorf("%d polls after every token was released", polls.Load()-n)
	}
	if g := runtime.NumGoroutine(); g > base {
		t.Errorf("%d goroutines after, %d before", g, base)
	}
}

// BenchmarkNewRelease is the cost a call pays for its token: a flag and a
// deadline to watch, released at once (a short call).
func BenchmarkNewRelease(b *testing.B) {
	var flag atomic.Bool
	for b.Loop() {
		New(time.Now().Add(time.Minute), flag.Load).Release()
	}
}

// BenchmarkStopped is the cost of one look at a token from a hot loop.
func BenchmarkStopped(b *testing.B) {
	tok := New(time.Time{}, nil)
	n := 0
	for b.Loop() {
		if !tok.Stopped() {
			n++
		}
	}
	_ = n
}
