// Package engine runs fscache's operations (Glob, FuzzyFind, Grep,
// ListWorkspace, Invalidate) with the behaviour of @oh-my-pi/pi-natives,
// over the process-wide scan cache. It knows nothing of C, JSON or
// JavaScript: it takes typed options and returns typed results. The public
// package (github.com/fscache/fscache/core) wraps it for Go programs; capi
// calls it directly, fast paths included (GlobSelect, grouped grep results).
package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/scancache"
)

// Code classifies an Error.
type Code string

// The error codes. The messages of the first six start like pi-natives'.
const (
	CodePathNotFound   Code = "path_not_found"  // "Path not found: <path>"
	CodeNotADirectory  Code = "not_a_directory" // "Search path must be a directory: <path>"
	CodeInvalidGlob    Code = "invalid_glob"    // "Invalid glob pattern: <detail>"
	CodeInvalidRegex   Code = "invalid_regex"   // "Regex error: <detail>"
	CodeTimeout        Code = "timeout"         // "Aborted: Timeout"
	CodeAborted        Code = "aborted"         // "Aborted: Signal"
	CodeInvalidOptions Code = "invalid_options" // names the offending option
	CodeInternal       Code = "internal"        // an unexpected failure
)

// Error is the error of every operation: a Code and the message.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return e.Message }

func errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// asError turns cancellation errors into *Error and passes others through.
func asError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, cancel.ErrTimeout):
		return &Error{Code: CodeTimeout, Message: cancel.ErrTimeout.Error()}
	case errors.Is(err, cancel.ErrSignal):
		return &Error{Code: CodeAborted, Message: cancel.ErrSignal.Error()}
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeInternal, Message: err.Error()}
}

// Cancel holds the cancellation options every operation shares.
type Cancel struct {
	// TimeoutMs, when not nil, aborts the call with "Aborted: Timeout" after
	// that many milliseconds; 0 has expired before the call starts, as in
	// the reference.
	TimeoutMs *int64
	// Aborted, when not nil, is polled; once it returns true the call stops
	// with "Aborted: Signal". It must be safe to call from any goroutine.
	Aborted func() bool
}

// token makes the call's cancel token; the call releases it when it ends.
func (c Cancel) token() *cancel.Token {
	if c.TimeoutMs == nil {
		return cancel.New(time.Time{}, c.Aborted)
	}
	return cancel.New(time.Now().Add(time.Duration(*c.TimeoutMs)*time.Millisecond), c.Aborted)
}

// Int returns a pointer to v, for the optional fields of the options.
func Int(v int) *int { return &v }

func orTrue(b *bool) bool { return b == nil || *b }

var (
	cacheOnce sync.Once
	cache     *scancache.Cache
)

// scanCache returns the process-wide scan cache, created with the policy of
// the environment at first use.
func scanCache() *scancache.Cache {
	cacheOnce.Do(func() {
		cache = scancache.New(scancache.PolicyFromEnv(), nil)
		// The background fill of a cached call's watched partition
		// starts once that call (and any other) has returned.
		cache.SetBusy(func() bool {
			gi := grepIndex()
			return gi != nil && gi.active.Load() > 0
		})
	})
	return cache
}

// Invalidate refreshes the cached scans whose root contains path: the
// directory holding path is listed again (the subtree when path is a
// directory); see scancache.Cache.Invalidate. A relative path is resolved
// against the working directory, and a path that no longer exists still
// invalidates (its parent is canonicalised). An empty path is the working
// directory.
func Invalidate(path string) {
	scanCache().Invalidate(path)
	if gi := grepIndex(); gi != nil {
		gi.invalidate(path)
	}
}

// InvalidateAll drops every cached scan, and with them grep's indexes.
func InvalidateAll() {
	scanCache().InvalidateAll()
	if gi := grepIndex(); gi != nil {
		gi.dropAll()
	}
}

// resolveDir resolves a search path against the working directory and
// canonicalises it; it must be an existing directory.
func resolveDir(p string) (string, error) {
	return checkDir(p, dirMessages{
		notFound: func(path string, err error) string { return "Path not found: " + path },
		notDir:   func(abs string) string { return "Search path must be a directory: " + abs },
	})
}

// dirMessages words the two failures of checkDir: notFound gets the
// absolute path (or the path as given, when it cannot be made absolute)
// and the error; notDir gets the absolute path.
type dirMessages struct {
	notFound func(path string, err error) string
	notDir   func(abs string) string
}

// checkDir resolves p against the working directory, checks that it is an
// existing directory and canonicalises it (following links), with the
// error messages of m.
func checkDir(p string, m dirMessages) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", &Error{Code: CodePathNotFound, Message: m.notFound(p, err) + " (" + err.Error() + ")"}
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", &Error{Code: CodePathNotFound, Message: m.notFound(abs, err)}
	}
	if !st.IsDir() {
		return "", &Error{Code: CodeNotADirectory, Message: m.notDir(abs)}
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	// '/'-separated, as every path of the walk and the cache (Windows).
	return filepath.ToSlash(abs), nil
}

// start begins a directory operation: it makes the cancel token, fails at
// once when the call is already cancelled, and resolves the root. The
// caller releases the token (nil on error) when the call ends.
func start(c Cancel, path string) (*cancel.Token, string, error) {
	tok := c.token()
	if err := tok.Err(); err != nil {
		tok.Release()
		return nil, "", asError(err)
	}
	root, err := resolveDir(path)
	if err != nil {
		tok.Release()
		return nil, "", err
	}
	return tok, root, nil
}

// scan returns the entries for key: from the cache when useCache, else the
// scan of a call made without the cache, current as of the call (see
// scancache.Cache.Uncached: the key's watched partition when there is one,
// a fresh walk otherwise, which drops an entry served by TTL when drop is
// set). age is 0 for a walk this call ran, the entry's age for a cached
// answer (a watched partition's is 1ns: current).
// obs, when given, sees the entries of a scan this call runs (see
// scancache.Cache.Get).
func scan(key scancache.Key, useCache, drop bool, tok *cancel.Token, obs ...scancache.Observer) (*scancache.Snapshot, time.Duration, error) {
	c := scanCache()
	if useCache {
		// A miss walks without watches, as the reference does; the
		// watched partition is filled in the background, and the next
		// cached call waits for it.
		return c.GetLater(key, tok, obs...)
	}
	s, served, err := c.Uncached(key, drop, tok, obs...)
	if served {
		return s, time.Nanosecond, err
	}
	if err == nil && !c.Watching() && s.Len() >= releaseFrom {
		// The walk's intermediate garbage, and the snapshot itself
		// unless stored for the TTL policy, are free once the call
		// returns.
		if gi := grepIndex(); gi != nil {
			gi.releaseIdle()
		}
	}
	return s, 0, err
}

// scanUse runs use over the scan for key (see scan) and returns the
// snapshot, use's result and whether the snapshot came from the cache (use
// is told too: data derived from a cached snapshot is worth keeping).
// When use finds nothing (empty) in a cached scan at least
// Policy.EmptyRecheck old, the key is scanned afresh once (the scan is
// stored, and obs sees it as it did the first) and use runs again on it:
// the reference's guard against a cached scan older than the files the call
// looks for. It is the one place where an operation reads the cache.
// Without useCache, a walk drops the key's entry served by TTL (glob and
// fuzzyFind, as the reference does) unless keep is set (grep).
func scanUse[T any](key scancache.Key, useCache, keep bool, tok *cancel.Token, obs []scancache.Observer,
	use func(s *scancache.Snapshot, cached bool) (res T, empty bool, err error)) (*scancache.Snapshot, T, bool, error) {
	var res T
	snap, age, err := scan(key, useCache, !keep, tok, obs...)
	if err != nil {
		return nil, res, false, err
	}
	res, empty, err := use(snap, age > 0)
	if err == nil && empty && useCache && age > 0 && age >= scanCache().Policy().EmptyRecheck {
		age = 0
		if snap, err = scanCache().Rescan(key, true, tok, obs...); err == nil {
			res, _, err = use(snap, false)
		}
	}
	return snap, res, age > 0, err
}

// CacheStats describes the process-wide scan cache: entries, watches,
// fallbacks to the TTL policy and the cost of keeping it current.
func CacheStats() scancache.Stats { return scanCache().Stats() }
