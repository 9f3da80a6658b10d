// Package cancel combines a deadline and a caller-owned abort flag into one
// token that long-running loops poll cooperatively.
package cancel

import (
	"errors"
	"time"
)

// ErrTimeout is returned when the deadline passed. Its text is the
// reference's message, which callers match on.
var ErrTimeout = errors.New("Aborted: Timeout")

// ErrSignal is returned when the caller's abort flag was raised.
var ErrSignal = errors.New("Aborted: Signal")

// Token tells whether an operation should stop. The zero value and a nil
// *Token never cancel. A Token is safe for concurrent use.
type Token struct {
	deadline time.Time
	flag     func() bool
}

// New returns a token that expires at deadline (never when it is the zero
// time) and that is aborted as soon as flag returns true (flag may be nil;
// it must be safe to call from any goroutine).
func New(deadline time.Time, flag func() bool) *Token {
	return &Token{deadline: deadline, flag: flag}
}

// Err returns ErrSignal if the flag is raised, ErrTimeout if the deadline
// has passed, and nil otherwise.
func (t *Token) Err() error {
	if t == nil {
		return nil
	}
	if t.flag != nil && t.flag() {
		return ErrSignal
	}
	if !t.deadline.IsZero() && !time.Now().Before(t.deadline) {
		return ErrTimeout
	}
	return nil
}
