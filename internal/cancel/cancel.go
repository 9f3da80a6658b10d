// Package cancel combines a deadline and a caller-owned abort flag into one
// token that long-running loops poll cooperatively.
//
// Cancellation is noticed by the clock, not by the work done: a token
// watches its deadline and flag from a timer of its own (time.AfterFunc,
// every PollPeriod while there is a flag, once at the deadline otherwise)
// and records the outcome in one atomic word. Err and Stopped only read
// that word, so the hot loops of the walk and of the regex engines can poll
// them as often as they like (every entry, every 64 KiB of input, every
// byte the automaton steps) and notice a cancellation within PollPeriod
// plus one such step, however slow the engine runs (the race detector, a
// loaded machine). The timer runs no goroutine between its firings and is
// stopped, any firing in progress waited for, by Release.
//
// A timer runs only when the Go scheduler gets to it: while every P runs a
// busy goroutine (a walk's listing workers, grep's searchers) that can take
// until the next preemption, about 10 ms. So the loops that keep every P
// busy also call Poll every few hundred steps: it looks at the flag and the
// deadline itself once PollPeriod has passed since the last look (reading
// the monotonic clock), whichever of the timer and the loops comes first.
package cancel

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fscache/fscache/internal/fence"
)

// ErrTimeout is returned when the deadline passed. Its text is the
// reference's message, which callers match on.
var ErrTimeout = errors.New("Aborted: Timeout")

// ErrSignal is returned when the caller's abort flag was raised.
var ErrSignal = errors.New("Aborted: Signal")

// PollPeriod is how often a token with an abort flag polls it.
const PollPeriod = time.Millisecond

// Token tells whether an operation should stop. A nil *Token never
// cancels. A Token is safe for concurrent use.
type Token struct {
	deadline time.Time
	flag     func() bool
	// reason holds the error the token stopped with (nil while it runs).
	reason atomic.Pointer[error]
	// born is when the token was made; looked is the time of the last look
	// at the flag and the deadline, as an offset from born.
	born   time.Time
	looked atomic.Int64

	mu       sync.Mutex
	timer    *time.Timer
	released bool
	// firing counts the timer's armed or running firings, so that
	// Release can wait for one in progress.
	firing sync.WaitGroup
}

// New returns a token that expires at deadline (never when it is the zero
// time) and that is aborted once flag returns true (flag may be nil; it
// must be safe to call from any goroutine). The deadline and flag are
// checked at once, then watched by a timer until the token stops or is
// released: every token from New must be released (Release) when the
// operation ends.
func New(deadline time.Time, flag func() bool) *Token {
	t := &Token{deadline: deadline, flag: flag, born: time.Now()}
	if t.check() != nil {
		return t
	}
	if d, ok := t.next(); ok {
		t.mu.Lock()
		t.firing.Add(1)
		t.timer = time.AfterFunc(d, t.fire)
		t.mu.Unlock()
	}
	return t
}

// check looks at the flag and the deadline and records what it finds.
func (t *Token) check() error {
	if t.flag != nil && t.raised() {
		t.Stop(ErrSignal)
	} else if !t.deadline.IsZero() && !time.Now().Before(t.deadline) {
		t.Stop(ErrTimeout)
	}
	return t.Err()
}

// raised calls the flag. The timer calls it from a goroutine of its own,
// where a panic would end the process: a panicking flag stops the token
// with an error saying so instead.
func (t *Token) raised() (up bool) {
	defer func() {
		if r := recover(); r != nil {
			t.Stop(fmt.Errorf("cancel: the abort flag panicked: %v", r))
			up = false
		}
	}()
	return t.flag()
}

// next is the delay to the next check, if there is anything to watch.
func (t *Token) next() (time.Duration, bool) {
	switch {
	case t.flag != nil && t.deadline.IsZero():
		return PollPeriod, true
	case t.flag != nil:
		return min(PollPeriod, max(time.Until(t.deadline), 0)), true
	case !t.deadline.IsZero():
		return max(time.Until(t.deadline), 0), true
	}
	return 0, false
}

// fire is the timer's function: one check, then the timer is armed again
// unless the token stopped or was released.
func (t *Token) fire() {
	defer t.firing.Done()
	// The timer's goroutine is the runtime's: a panic here stops the
	// token with it (the call fails with an internal error) rather than
	// the process.
	defer func() {
		if r := recover(); r != nil {
			t.Stop(fence.Recovered(fence.Timer, r))
		}
	}()
	t.mu.Lock()
	defer t.mu.Unlock()
	fence.Point(fence.Timer)
	t.looked.Store(int64(time.Since(t.born)))
	if t.released || t.check() != nil {
		return
	}
	if d, ok := t.next(); ok {
		t.firing.Add(1)
		t.timer.Reset(d)
	}
}

// Release stops watching the deadline and the flag and returns once no
// check is running; afterwards the token keeps the outcome it had. It may
// be called more than once, and on a nil token.
func (t *Token) Release() {
	if t == nil {
		return
	}
	t.mu.Lock()
	if !t.released {
		t.released = true
		if t.timer != nil && t.timer.Stop() {
			t.firing.Done() // the armed firing will not run
		}
	}
	t.mu.Unlock()
	t.firing.Wait()
}

// Stop stops the token with err (when it has not stopped yet): the
// operation's own failure, say, which its other workers should notice as
// they notice a cancellation.
func (t *Token) Stop(err error) {
	if t != nil && err != nil {
		t.reason.CompareAndSwap(nil, &err)
	}
}

// Err returns the error the token stopped with: ErrSignal once the flag was
// seen raised, ErrTimeout once the deadline was seen passed, the error given
// to Stop; nil while it runs. It reads one atomic word.
func (t *Token) Err() error {
	if t == nil {
		return nil
	}
	if p := t.reason.Load(); p != nil {
		return *p
	}
	return nil
}

// Stopped reports whether Err would return an error; it is cheap enough to
// be called on every step of a hot loop.
func (t *Token) Stopped() bool { return t != nil && t.reason.Load() != nil }

// Poll is Stopped that also looks at the flag and the deadline itself when
// PollPeriod has passed since the last look (the timer's or Poll's): for
// loops that may keep the token's timer from running, called every few
// hundred steps (it reads the clock).
func (t *Token) Poll() bool {
	if t == nil {
		return false
	}
	if t.reason.Load() != nil {
		return true
	}
	if t.flag == nil && t.deadline.IsZero() {
		return false
	}
	now := int64(time.Since(t.born))
	if last := t.looked.Load(); now-last < int64(PollPeriod) || !t.looked.CompareAndSwap(last, now) {
		return false // looked at lately, or being looked at by another
	}
	return t.check() != nil
}
