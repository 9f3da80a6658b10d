//go:build unix

package engine

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// Cancellation of long calls: an abort (the caller's flag) or a timeout
// raised while a call works must end it with the matching error instead of
// its full result. No test here asserts a duration: how fast a call returns
// once cancelled is measured by BenchmarkCancelLatency (cancel_bench_test.go,
// make bench-cancel). What is asserted holds on any machine, however
// loaded:
//
//   - the uncancelled call runs to its outcome (a result, or a matching
//     budget's error);
//   - the flag is false when the call starts and is raised at the token's
//     third poll (the token polls it by the clock, every
//     cancel.PollPeriod): the call must end with CodeAborted, so it was
//     still working when the flag went up and stopped without finishing;
//   - likewise with a timeout of a few milliseconds and CodeTimeout;
//   - the goroutines are back to their number before the call (a minute of
//     grace for a backtracking run, which ends within its line budget).

// call runs one operation with the given cancellation and returns its
// error.
type call func(c Cancel) error

// raiseAt is the token poll at which the flag is raised, and timeoutMs the
// timeout of the timeout run: both well inside any of the calls below.
const (
	raiseAt   = 3
	timeoutMs = 3
)

// checkCancel runs op uncancelled (its outcome must be full: nil or one of
// the codes in full), then aborted and timed out as described above.
func checkCancel(t *testing.T, name string, op call, full ...Code) {
	t.Helper()
	base := runtime.NumGoroutine()
	start := time.Now()
	err := op(Cancel{})
	t.Logf("%s: uncancelled run: %v in %v", name, err, time.Since(start).Round(time.Millisecond))
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || !hasCode(full, e.Code) {
			t.Fatalf("%s: uncancelled run: %v", name, err)
		}
	}
	var polls atomic.Int32
	start = time.Now()
	err = op(Cancel{Aborted: func() bool { return polls.Add(1) > raiseAt }})
	t.Logf("%s: flag raised at poll %d: %v in %v", name, raiseAt+1, err, time.Since(start).Round(time.Millisecond))
	wantCode(t, name+", aborted", err, CodeAborted)
	if n := polls.Load(); n <= raiseAt {
		t.Errorf("%s: ended with the abort error after %d polls, before the flag was raised", name, n)
	}
	ms := int64(timeoutMs)
	start = time.Now()
	err = op(Cancel{TimeoutMs: &ms})
	t.Logf("%s: timeout of %d ms: %v in %v", name, ms, err, time.Since(start).Round(time.Millisecond))
	wantCode(t, name+", timed out", err, CodeTimeout)
	goroutinesBack(t, name, base)
}

func hasCode(codes []Code, c Code) bool {
	for _, x := range codes {
		if x == c {
			return true
		}
	}
	return false
}

func wantCode(t *testing.T, what string, err error, want Code) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Code != want {
		t.Errorf("%s: returned %v, want the %s error", what, err, want)
	}
}

// goroutinesBack waits for the number of goroutines to fall back to base:
// a minute at most (a leak otherwise).
func goroutinesBack(t *testing.T, name string, base int) {
	t.Helper()
	end := time.Now().Add(time.Minute)
	for runtime.NumGoroutine() > base {
		if time.Now().After(end) {
			t.Errorf("%s: %d goroutines a minute after the calls, %d before", name, runtime.NumGoroutine(), base)
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

var bigTree struct {
	root string
	err  error
}

// tree120k makes (once per test binary) 120 directories of 1000 files.
func tree120k(t testing.TB) string {
	t.Helper()
	if bigTree.root == "" && bigTree.err == nil {
		// /dev/shm when usable: 120k files on a slow disk take long.
		dir, err := os.MkdirTemp("/dev/shm", "fscache-120k")
		if err != nil {
			dir, err = os.MkdirTemp("", "fscache-120k")
		}
		bigTree.root, bigTree.err = dir, err
		if err == nil {
			t.Cleanup(func() { os.RemoveAll(dir); bigTree.root = "" })
			for d := range 120 {
				makeFlat(t, filepath.Join(dir, fmt.Sprintf("d%03d", d)), 1000)
			}
		}
	}
	mustDo(t, bigTree.err)
	return bigTree.root
}

// TestCancelWalk cancels glob, fuzzyFind and grep while they walk 120k
// files (and a cached glob while its scan runs).
func TestCancelWalk(t *testing.T) {
	if testing.Short() {
		t.Skip("makes 120k files")
	}
	root := tree120k(t)
	checkCancel(t, "glob of 120k files", func(c Cancel) error {
		_, err := Glob(GlobOptions{Pattern: "**/f*9", Path: root, Cancel: c}, nil)
		return err
	})
	checkCancel(t, "glob of 120k files, sorted by mtime", func(c Cancel) error {
		_, err := Glob(GlobOptions{Pattern: "*", Path: root, SortByMtime: true, Cancel: c}, nil)
		return err
	})
	checkCancel(t, "cached glob of 120k files", func(c Cancel) error {
		InvalidateAll()
		_, err := Glob(GlobOptions{Pattern: "*", Path: root, Cache: true, Cancel: c}, nil)
		return err
	})
	checkCancel(t, "fuzzyFind over 120k files", func(c Cancel) error {
		_, err := FuzzyFind(FuzzyFindOptions{Query: "f9x", Path: root, Cancel: c})
		return err
	})
	checkCancel(t, "grep of 120k files", func(c Cancel) error {
		_, err := Grep(GrepOptions{Pattern: "needle", Path: root, Cancel: c}, nil)
		return err
	})
	InvalidateAll()
}

// abLine writes a file of one line of random 'a' and 'b' (4 MiB, 128 KiB
// under the race detector, which slows the automata fifteenfold): against
// "a[ab]{100}c" it makes the lazy DFA give up, so the line is searched by
// the slower automaton.
func abLine(t testing.TB) string { return abLineEnding(t, "", lineSize()) }

// abLineEnding is a line of size bytes of random 'a' and 'b' ending in
// tail.
func abLineEnding(t testing.TB, tail string, size int) string {
	root := t.TempDir()
	b := make([]byte, size-len(tail), size)
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

// TestCancelLongLine cancels a grep of one long line, in the content mode
// and in the files-with-matches mode, which searches the whole buffer at
// once (the line then ends in 'c', so that the literal 'c' is found and the
// automaton runs).
func TestCancelLongLine(t *testing.T) {
	for _, mode := range []GrepMode{ModeContent, ModeFilesWithMatches} {
		root := abLine(t)
		if mode == ModeFilesWithMatches {
			root = abLineEnding(t, "c", lineSize())
		}
		// The uncancelled search may end on its NFA budget.
		checkCancel(t, fmt.Sprintf("grep (mode %v) of a %d KiB line", mode, lineSize()>>10), func(c Cancel) error {
			_, err := Grep(GrepOptions{Pattern: "a[ab]{100}c", Path: root, Mode: mode, Cancel: c}, nil)
			return err
		}, CodeInvalidRegex)
	}
}

// TestCancelBacktracking cancels a backtracking match: a backreference,
// which the linear-time engines cannot run, over a 4 MiB line ending in the
// pattern's literal, so that the prefilter passes it to the backtracking
// engine. Uncancelled, the run ends on the per-line budget
// (BacktrackBudget) with a Regex error naming it: the cancelled runs must
// end with their own error instead.
func TestCancelBacktracking(t *testing.T) {
	root := abLineEnding(t, "x", maxFileSize)
	const pattern = `(\w+)\1x`
	var uncancelled error
	checkCancel(t, fmt.Sprintf("backtracking %q", pattern), func(c Cancel) error {
		_, err := Grep(GrepOptions{Pattern: pattern, Path: root, Cancel: c}, nil)
		if c.Aborted == nil && c.TimeoutMs == nil {
			uncancelled = err
		}
		return err
	}, CodeInvalidRegex)
	var e *Error
	if !errors.As(uncancelled, &e) || e.Code != CodeInvalidRegex {
		t.Errorf("uncancelled: %v, want the backtracking budget's error (the fallback for backreferences is missing)", uncancelled)
	}
}
