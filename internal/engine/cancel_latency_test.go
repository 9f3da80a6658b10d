//go:build unix

package engine

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// Cancellation latency: an abort (the caller's flag) or a timeout during a
// long call must make it return promptly. The goal is 50 ms; the bound
// asserted here, cancelBound, is five times that so that it holds on a
// loaded 2-core machine running the race detector. The measured figures
// are logged (go test -v -run CancelLatency).

// Under the race detector every memory access is instrumented and goroutine
// switches are slower by several times, so the bound there is four times
// wider; the goal is judged from the plain build's figures.
var cancelBound = func() time.Duration {
	if raceDetector {
		return time.Second
	}
	return 250 * time.Millisecond
}()

// call runs one operation with the given cancellation and returns its
// error.
type call func(c Cancel) error

// measureCancel runs op once to completion (3 s at most) to size it, then again, raising
// the abort flag after a third of that time, and once more with a timeout
// of a third of it; it reports the time from the flag (or the deadline) to
// the return. A run that finished before being cancelled is retried with
// an earlier cancel.
func measureCancel(t *testing.T, name string, op call) {
	t.Helper()
	// The sizing run stops at 3 s (slow under the race detector).
	ms := int64(3000)
	start := time.Now()
	if err := op(Cancel{TimeoutMs: &ms}); err != nil {
		// A grep may also end on its matching budget (a Regex error).
		if e, ok := err.(*Error); !ok || (e.Code != CodeTimeout && e.Code != CodeInvalidRegex) {
			t.Fatalf("%s: uncancelled run: %v", name, err)
		}
	}
	full := time.Since(start)
	t.Logf("%s: uncancelled run took %v", name, full.Round(time.Millisecond))
	for _, viaTimeout := range []bool{false, true} {
		after := full / 3
		var lat time.Duration
		var err error
		for try := 0; ; try++ {
			lat, err = cancelOnce(op, after, viaTimeout)
			if err != nil || try == 4 {
				break
			}
			after /= 3
		}
		kind := "abort"
		want := CodeAborted
		if viaTimeout {
			kind, want = "timeout", CodeTimeout
		}
		var e *Error
		if !errors.As(err, &e) || e.Code != want {
			t.Errorf("%s, %s after %v: returned %v, want the %s error", name, kind, after, err, want)
			continue
		}
		t.Logf("%s: %s after %v returned %v later (%s)", name, kind, after.Round(time.Microsecond), lat.Round(time.Microsecond), e.Message)
		if lat > cancelBound {
			t.Errorf("%s: %s took %v to return (bound %v, goal 50ms)", name, kind, lat, cancelBound)
		}
	}
}

// cancelOnce runs op, cancelling it after `after`, and returns the time
// from the cancel to the return.
func cancelOnce(op call, after time.Duration, viaTimeout bool) (time.Duration, error) {
	var flag atomic.Bool
	c := Cancel{Aborted: flag.Load}
	start := time.Now()
	if viaTimeout {
		ms := max(int64(after/time.Millisecond), 1)
		after = time.Duration(ms) * time.Millisecond
		c = Cancel{TimeoutMs: &ms}
	}
	done := make(chan error, 1)
	go func() { done <- op(c) }()
	var cancelled time.Time
	if viaTimeout {
		cancelled = start.Add(after)
	} else {
		time.Sleep(after)
		cancelled = time.Now()
		flag.Store(true)
	}
	err := <-done
	return max(time.Since(cancelled), 0), err
}

var bigTree struct {
	root string
	err  error
}

// tree120k makes (once per test binary) 120 directories of 1000 files.
func tree120k(t *testing.T) string {
	t.Helper()
	if bigTree.root == "" && bigTree.err == nil {
		// /dev/shm when usable: 120k files on a slow disk take long.
		dir, err := os.MkdirTemp("/dev/shm", "fscache-120k")
		if err != nil {
			dir, err = os.MkdirTemp("", "fscache-120k")
		}
		bigTree.root, bigTree.err = dir, err
		if err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			start := time.Now()
			for d := range 120 {
				makeFlat(t, filepath.Join(dir, fmt.Sprintf("d%03d", d)), 1000)
			}
			t.Logf("made 120k files in %v", time.Since(start).Round(time.Millisecond))
		}
	}
	mustDo(t, bigTree.err)
	return bigTree.root
}

// TestCancelLatencyWalk cancels glob, fuzzyFind and grep while they walk
// 120k files (and a cached glob while its scan runs).
func TestCancelLatencyWalk(t *testing.T) {
	if testing.Short() {
		t.Skip("makes 120k files")
	}
	root := tree120k(t)
	measureCancel(t, "glob of 120k files", func(c Cancel) error {
		_, err := Glob(GlobOptions{Pattern: "**/f*9", Path: root, Cancel: c}, nil)
		return err
	})
	measureCancel(t, "glob of 120k files, sorted by mtime", func(c Cancel) error {
		_, err := Glob(GlobOptions{Pattern: "*", Path: root, SortByMtime: true, Cancel: c}, nil)
		return err
	})
	measureCancel(t, "cached glob of 120k files", func(c Cancel) error {
		InvalidateAll()
		_, err := Glob(GlobOptions{Pattern: "*", Path: root, Cache: true, Cancel: c}, nil)
		return err
	})
	measureCancel(t, "fuzzyFind over 120k files", func(c Cancel) error {
		_, err := FuzzyFind(FuzzyFindOptions{Query: "f9x", Path: root, Cancel: c})
		return err
	})
	measureCancel(t, "grep of 120k files", func(c Cancel) error {
		_, err := Grep(GrepOptions{Pattern: "needle", Path: root, Cancel: c}, nil)
		return err
	})
}

// abLine writes a file of one 4 MiB line of random 'a' and 'b': against
// "a[ab]{100}c" it makes the lazy DFA give up, so the line is searched by
// the slower automaton (about two seconds here). Under the race detector,
// which slows that automaton fifteenfold, the line is 128 KiB.
func abLine(t *testing.T) string { return abLineEnding(t, "") }

// abLineEnding is abLine with tail at the end of the line.
func abLineEnding(t *testing.T, tail string) string {
	root := t.TempDir()
	b := make([]byte, lineSize()-len(tail), lineSize())
	r := rand.New(rand.NewSource(1))
	for i := range b {
		b[i] = "ab"[r.Intn(2)]
	}
	b = append(b, tail...)
	mustDo(t, os.WriteFile(filepath.Join(root, "line.txt"), b, 0o644))
	return root
}

func lineSize() int {
	if raceDetector {
		return 128 << 10
	}
	return maxFileSize
}

// TestCancelLatencyLongLine cancels a grep of one 4 MiB line.
func TestCancelLatencyLongLine(t *testing.T) {
	root := abLine(t)
	measureCancel(t, fmt.Sprintf("grep of a %d KiB line", lineSize()>>10), func(c Cancel) error {
		_, err := Grep(GrepOptions{Pattern: "a[ab]{100}c", Path: root, Cancel: c}, nil)
		return err
	})
}

// TestCancelLatencyBacktracking cancels a backtracking match: a
// backreference, which the linear-time engines cannot run, over a 4 MiB
// line ending in the pattern's literal, so that the prefilter passes it to
// the backtracking engine (quadratic work per start: it runs into the
// per-line budget, BacktrackBudget, uncancelled).
func TestCancelLatencyBacktracking(t *testing.T) {
	root := abLineEnding(t, "x")
	const pattern = `(\w+)\1x`
	var flag atomic.Bool
	done := make(chan error, 1)
	go func() {
		_, err := Grep(GrepOptions{Pattern: pattern, Path: root, Cancel: Cancel{Aborted: flag.Load}}, nil)
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("grep %q returned before any cancel: %v (the backtracking fallback for backreferences is missing)", pattern, err)
	case <-time.After(300 * time.Millisecond):
	}
	for _, viaTimeout := range []bool{false, true} {
		op := func(c Cancel) error {
			_, err := Grep(GrepOptions{Pattern: pattern, Path: root, Cancel: c}, nil)
			return err
		}
		if !viaTimeout {
			flag.Store(true)
			start := time.Now()
			err := <-done
			lat := time.Since(start)
			t.Logf("backtracking %q: abort returned %v later (%v)", pattern, lat.Round(time.Microsecond), err)
			if e, ok := err.(*Error); !ok || e.Code != CodeAborted || lat > cancelBound {
				t.Errorf("abort: %v after %v (bound %v)", err, lat, cancelBound)
			}
			continue
		}
		lat, err := cancelOnce(op, 300*time.Millisecond, true)
		t.Logf("backtracking %q: timeout returned %v later (%v)", pattern, lat.Round(time.Microsecond), err)
		if e, ok := err.(*Error); !ok || e.Code != CodeTimeout || lat > cancelBound {
			t.Errorf("timeout: %v after %v (bound %v)", err, lat, cancelBound)
		}
	}
}
