// Package scancache keeps recent directory scans in memory, keyed by the
// scan policy, with the reference's freshness and eviction rules: a TTL,
// oldest-first eviction past a maximum entry count, forced rescans and
// invalidation by path. Cached snapshots are immutable and handed out
// without copying.
package scancache

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fscache/fscache/core/cancel"
	"github.com/fscache/fscache/core/walk"
)

// Key partitions the cache: scans share an entry only when every field is
// equal. FollowLinks is part of the key (the reference's is not), so a
// link-following fuzzyFind scan never answers a glob that does not follow.
type Key struct {
	Root            string
	Hidden          bool
	Gitignore       bool
	SkipNodeModules bool
	Full            bool
	FollowLinks     bool
}

// Options returns the walk options that produce the scan for k.
func (k Key) Options(tok *cancel.Token) walk.Options {
	return walk.Options{Root: k.Root, Hidden: k.Hidden, Gitignore: k.Gitignore,
		SkipNodeModules: k.SkipNodeModules, FollowLinks: k.FollowLinks, Full: k.Full, Cancel: tok}
}

// Snapshot is one completed scan. It must not be modified once published:
// a change produces a new Snapshot, made with NewSnapshot.
type Snapshot struct {
	Entries []walk.Entry
	Created time.Time
	derived derivedSet // see Derived (derived.go)
}

// NewSnapshot wraps entries (sorted by path, owned by the snapshot from now
// on) as a snapshot created at created. Every snapshot is made here, so that
// anything derived from the entries is set up in one place.
func NewSnapshot(entries []walk.Entry, created time.Time) *Snapshot {
	return &Snapshot{Entries: entries, Created: created}
}

// Policy is the cache's global configuration.
type Policy struct {
	// TTL is how long a scan is served; 0 disables the cache.
	TTL time.Duration
	// EmptyRecheck is the age from which an empty filtered result triggers
	// one forced rescan.
	EmptyRecheck time.Duration
	// MaxEntries bounds the number of cached scans.
	MaxEntries int
}

// PolicyFromEnv reads FS_SCAN_CACHE_TTL_MS (default 1000),
// FS_SCAN_EMPTY_RECHECK_MS (200) and FS_SCAN_CACHE_MAX_ENTRIES (16).
// Unparsable values fall back to the defaults.
func PolicyFromEnv() Policy {
	return Policy{
		TTL:          time.Duration(envInt("FS_SCAN_CACHE_TTL_MS", 1000)) * time.Millisecond,
		EmptyRecheck: time.Duration(envInt("FS_SCAN_EMPTY_RECHECK_MS", 200)) * time.Millisecond,
		MaxEntries:   int(envInt("FS_SCAN_CACHE_MAX_ENTRIES", 16)),
	}
}

func envInt(name string, def uint64) uint64 {
	v, err := strconv.ParseUint(strings.TrimSpace(os.Getenv(name)), 10, 64)
	if err != nil {
		return def
	}
	return v
}

// ScanFunc performs one scan for a key.
type ScanFunc func(k Key, tok *cancel.Token) ([]walk.Entry, error)

// Observer receives the entries of a scan as the walk finds them (see
// walk.Options.Observe); its error stops the scan.
type Observer = func(e walk.Entry) error

// Cache is a concurrent scan cache. The zero value is not usable: use New.
type Cache struct {
	policy Policy
	scan   ScanFunc
	// observed is the default scan with an observer; nil when New was
	// given its own ScanFunc (observers are then never called).
	observed func(k Key, tok *cancel.Token, obs Observer) ([]walk.Entry, error)
	now      func() time.Time

	mu      sync.Mutex
	entries map[Key]*Snapshot
	// pending holds the scans in flight, so that callers missing the same
	// key wait for one scan instead of each running their own.
	pending map[Key]*flight
}

type flight struct {
	done chan struct{}
	snap *Snapshot
	err  error
}

// New returns an empty cache with the given policy. scan nil means
// walk.Scan.
func New(p Policy, scan ScanFunc) *Cache {
	var observed func(k Key, tok *cancel.Token, obs Observer) ([]walk.Entry, error)
	if scan == nil {
		observed = func(k Key, tok *cancel.Token, obs Observer) ([]walk.Entry, error) {
			o := k.Options(tok)
			o.Observe = obs
			return walk.Scan(o)
		}
		scan = func(k Key, tok *cancel.Token) ([]walk.Entry, error) { return observed(k, tok, nil) }
	}
	return &Cache{policy: p, scan: scan, observed: observed, now: time.Now,
		entries: map[Key]*Snapshot{}, pending: map[Key]*flight{}}
}

// Policy returns the cache's policy.
func (c *Cache) Policy() Policy { return c.policy }

// Get returns the cached scan for k and its age when it is younger than the
// TTL; otherwise it scans (an expired entry is evicted first), stores the
// result and returns it with age 0. With a TTL of 0 it always scans and
// stores nothing. Concurrent misses on one key share a single scan.
//
// obs (at most one) is called with the entries of a scan that this call
// runs itself, as the walk finds them; it is not called on a hit nor when
// the call waits for another caller's scan, so a caller that streams must
// deliver from the snapshot when obs was never called.
func (c *Cache) Get(k Key, tok *cancel.Token, obs ...Observer) (*Snapshot, time.Duration, error) {
	if c.policy.TTL <= 0 {
		s, err := c.fresh(k, tok, obs)
		return s, 0, err
	}
	for {
		c.mu.Lock()
		if s, ok := c.entries[k]; ok {
			age := c.now().Sub(s.Created)
			if age < c.policy.TTL {
				c.mu.Unlock()
				if age <= 0 {
					age = time.Nanosecond // a hit is never of age zero
				}
				return s, age, nil
			}
			delete(c.entries, k)
		}
		if f, ok := c.pending[k]; ok {
			c.mu.Unlock()
			if err := wait(f, tok); err != nil {
				return nil, 0, err
			}
			if f.err == nil {
				return f.snap, time.Nanosecond, nil
			}
			continue // the other caller failed (say, it was cancelled): try ourselves
		}
		f := &flight{done: make(chan struct{})}
		c.pending[k] = f
		c.mu.Unlock()
		f.snap, f.err = c.fresh(k, tok, obs)
		c.mu.Lock()
		delete(c.pending, k)
		if f.err == nil {
			c.store(k, f.snap)
		}
		c.mu.Unlock()
		close(f.done)
		return f.snap, 0, f.err
	}
}

// wait blocks until f is done or tok cancels.
func wait(f *flight, tok *cancel.Token) error {
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-f.done:
			return nil
		case <-t.C:
			if err := tok.Err(); err != nil {
				return err
			}
		}
	}
}

// Rescan drops any entry for k, scans afresh and, when store is true and the
// cache is enabled, stores the result. Rescan(k, false) is the path of a
// call made with the cache off: it neither reads nor fills the cache. obs
// is as for Get.
func (c *Cache) Rescan(k Key, store bool, tok *cancel.Token, obs ...Observer) (*Snapshot, error) {
	c.mu.Lock()
	delete(c.entries, k)
	c.mu.Unlock()
	s, err := c.fresh(k, tok, obs)
	if err != nil || !store || c.policy.TTL <= 0 {
		return s, err
	}
	c.mu.Lock()
	c.store(k, s)
	c.mu.Unlock()
	return s, nil
}

func (c *Cache) fresh(k Key, tok *cancel.Token, obs []Observer) (*Snapshot, error) {
	var entries []walk.Entry
	var err error
	if len(obs) > 0 && obs[0] != nil && c.observed != nil {
		entries, err = c.observed(k, tok, obs[0])
	} else {
		entries, err = c.scan(k, tok)
	}
	if err != nil {
		return nil, err
	}
	return NewSnapshot(entries, c.now()), nil
}

// store inserts s and evicts the oldest entries past MaxEntries. c.mu held.
func (c *Cache) store(k Key, s *Snapshot) {
	c.entries[k] = s
	for len(c.entries) > c.policy.MaxEntries && len(c.entries) > 0 {
		var oldest Key
		var at time.Time
		first := true
		for key, e := range c.entries {
			if first || e.Created.Before(at) {
				oldest, at, first = key, e.Created, false
			}
		}
		delete(c.entries, oldest)
	}
}

// Len returns the number of cached scans.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// InvalidateAll drops every cached scan.
func (c *Cache) InvalidateAll() {
	c.mu.Lock()
	clear(c.entries)
	c.mu.Unlock()
}

// Invalidate drops every cached scan whose root contains path (or is path).
// A relative path is resolved against the working directory; the path is
// canonicalised, and when it no longer exists its parent is canonicalised
// and the name re-attached, so deletes and renames invalidate too.
func (c *Cache) Invalidate(path string) {
	target := Canonical(path)
	c.mu.Lock()
	for k := range c.entries {
		if within(target, k.Root) {
			delete(c.entries, k)
		}
	}
	c.mu.Unlock()
}

// Canonical resolves p against the working directory and canonicalises it,
// falling back to the canonical parent plus the name when p does not exist.
func Canonical(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	dir, name := filepath.Split(abs)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return filepath.Join(real, name)
	}
	return abs
}

// within reports whether root is target or one of its ancestors, by whole
// path components ("/a/b" contains "/a/b/c" but not "/a/bc").
func within(target, root string) bool {
	if !strings.HasPrefix(target, root) {
		return false
	}
	return len(target) == len(root) || root == "/" || target[len(root)] == '/'
}
