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

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/mounts"
	"github.com/fscache/fscache/internal/walk"
	"github.com/fscache/fscache/internal/watch"
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

// Policy is the cache's global configuration.
type Policy struct {
	// TTL is how long a scan is served; 0 disables the cache.
	TTL time.Duration
	// EmptyRecheck is the age from which an empty filtered result triggers
	// one forced rescan.
	EmptyRecheck time.Duration
	// MaxEntries bounds the number of cached scans.
	MaxEntries int
	// Watch keeps cached scans current from change notifications where
	// the platform has them (see watched.go); the TTL then no longer
	// applies to them.
	Watch bool
	// WatchLater (with Watch) makes the first scan of a partition through
	// GetLater a walk without watches, while the watched partition is
	// filled in the background (watchLater): the call that misses pays
	// for the walk only, as the reference does, not for the registration
	// of a watch per directory. A later call of the partition waits for
	// that fill (it is never served the unwatched scan while the fill
	// runs), so answers stay as current as with a watched first call.
	WatchLater bool
}

// PolicyFromEnv reads FS_SCAN_CACHE_TTL_MS (default 1000),
// FS_SCAN_EMPTY_RECHECK_MS (200), FS_SCAN_CACHE_MAX_ENTRIES (16),
// FS_SCAN_CACHE_WATCH (on; "0" turns watching off) and
// FS_SCAN_CACHE_WATCH_LATER (on; "0": a cached call's miss fills the
// watched partition itself). Unparsable values fall back to the defaults.
func PolicyFromEnv() Policy {
	return Policy{
		TTL:          time.Duration(envInt("FS_SCAN_CACHE_TTL_MS", 1000)) * time.Millisecond,
		EmptyRecheck: time.Duration(envInt("FS_SCAN_EMPTY_RECHECK_MS", 200)) * time.Millisecond,
		MaxEntries:   int(envInt("FS_SCAN_CACHE_MAX_ENTRIES", 16)),
		Watch:        strings.TrimSpace(os.Getenv("FS_SCAN_CACHE_WATCH")) != "0",
		WatchLater:   strings.TrimSpace(os.Getenv("FS_SCAN_CACHE_WATCH_LATER")) != "0",
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
	// custom is set when scan is not walk.Scan: Invalidate then drops
	// entries (a refresh walks the file system with walk.WalkSub).
	custom bool
	// observed is the default scan with an observer; nil when New was
	// given its own ScanFunc (observers are then never called).
	observed func(k Key, tok *cancel.Token, obs Observer) ([]walk.Entry, error)
	now      func() time.Time

	mu      sync.Mutex
	entries map[Key]*entry
	// pending holds the scans in flight, so that callers missing the same
	// key wait for one scan instead of each running their own.
	pending map[Key]*flight

	// newWatcher makes a root's watcher (watch.New; a test hook).
	newWatcher func() (watch.Watcher, error)
	// remoteAt names the network or FUSE file system that holds a root or
	// lies below it, "" when none does (mounts; a test hook).
	remoteAt func(root string) string
	// watchOff says why nothing is watched ("" when watching is on).
	watchOff string
	// roots are the watchers, by root.
	roots map[string]*rootWatch
	// sticky are the roots that fell back to the TTL policy for good,
	// with the reason.
	sticky map[string]string
	// uncachedSeen is when each key (a Key, or a memo's key) last had an
	// uncached call (uncached.go).
	uncachedSeen map[any]time.Time
	// memos are the watched results of other walks (memo.go).
	memos map[any]*memo
	// later are the partitions whose watched fill runs in the background
	// (watchLater). busy, when set (SetBusy), reports whether calls are
	// in flight: the fill waits for them to end before it starts.
	later map[Key]*laterFill
	busy  func() bool
	st    counters
}

// entry is a cached partition: its snapshot and, when it is kept current
// by watching, its root's watcher.
type entry struct {
	snap *Snapshot
	rw   *rootWatch
	// later: stored by GetLater's miss while the watched partition is
	// filled in the background; a call waits for that fill rather than
	// being served this scan, and once the fill is over (failed) a Get
	// that needs the watched partition (Listen, Current, Rescan) treats
	// it as a miss, GetLater as a scan served by TTL.
	later bool
}

type flight struct {
	done  chan struct{}
	snap  *Snapshot
	err   error
	later bool // a GetLater's scan, without watches
}

// SetBusy sets what the background fill of a watched partition asks,
// before it starts, whether calls are in flight: it waits (at most
// laterWaitMax) until they end, so as not to share the CPU with the call
// that started it. Before c is used.
func (c *Cache) SetBusy(busy func() bool) { c.busy = busy }

// SetClock replaces the clock that dates snapshots and ages entries
// (time.Now), before the cache is used: tests age entries past the TTL or
// the empty-result recheck without waiting for the wall clock.
func (c *Cache) SetClock(now func() time.Time) { c.now = now }

// SetRemoteAt replaces how c finds a network or FUSE file system holding a
// root (the mount table), before c is used: tests make a local root look
// remote.
func SetRemoteAt(c *Cache, f func(root string) string) { c.remoteAt = f }

// New returns an empty cache with the given policy. scan nil means
// walk.Scan; only then are scans watched (when p.Watch is set).
func New(p Policy, scan ScanFunc) *Cache {
	c := &Cache{policy: p, scan: scan, custom: scan != nil, now: time.Now, newWatcher: watch.New, remoteAt: remoteAt,
		entries: map[Key]*entry{}, pending: map[Key]*flight{},
		roots: map[string]*rootWatch{}, sticky: map[string]string{}, uncachedSeen: map[any]time.Time{}, memos: map[any]*memo{},
		later: map[Key]*laterFill{}}
	switch {
	case !p.Watch || scan != nil:
		c.watchOff = ReasonDisabled
	case p.TTL <= 0:
		c.watchOff = ReasonDisabled // nothing is cached
	}
	if c.watchOff == "" {
		if w, err := watch.New(); err != nil {
			c.watchOff = ReasonUnsupported
		} else {
			w.Close()
		}
	}
	if scan == nil {
		c.observed = func(k Key, tok *cancel.Token, obs Observer) ([]walk.Entry, error) {
			o := k.Options(tok)
			o.Observe = obs
			return walk.Scan(o)
		}
		c.scan = func(k Key, tok *cancel.Token) ([]walk.Entry, error) { return c.observed(k, tok, nil) }
	}
	return c
}

// remoteAt reads the mount table and names the remote file system
// (mounts.Remote) holding root or mounted below it; "" when there is none
// or the table cannot be read.
func remoteAt(root string) string {
	if t := mounts.Read(); t != nil {
		return t.RemoteAt(root)
	}
	return ""
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
	return c.get(k, tok, false, obs)
}

// GetLater is Get for a call that only reads the scan (a cached glob,
// fuzzyFind or grep): with Policy.WatchLater, a miss that would fill a
// watched partition walks without watches, stores that scan for the TTL
// and returns it, and the watched partition is filled in the background
// (watchLater), replacing it once ready.
func (c *Cache) GetLater(k Key, tok *cancel.Token, obs ...Observer) (*Snapshot, time.Duration, error) {
	return c.get(k, tok, c.policy.WatchLater, obs)
}

// get is Get, or GetLater with later.
func (c *Cache) get(k Key, tok *cancel.Token, later bool, obs []Observer) (*Snapshot, time.Duration, error) {
	if c.policy.TTL <= 0 {
		s, err := c.fresh(k, tok, obs)
		return s, 0, err
	}
	for {
		c.mu.Lock()
		if e, ok := c.entries[k]; ok && e.rw != nil {
			c.syncRoot(e.rw) // may drop the entry
			if e, ok := c.entries[k]; ok && e.rw != nil {
				c.st.hits++
				s := e.snap
				c.mu.Unlock()
				// Current as of now: never old enough for an empty recheck.
				return s, time.Nanosecond, nil
			}
		}
		if e, ok := c.entries[k]; ok && e.later {
			if lf, ok := c.later[k]; ok {
				// The watched partition is being filled: wait for it,
				// never serve the scan it replaces (and let it start
				// now if it was waiting for calls to end).
				lf.urgent.Store(true)
				c.mu.Unlock()
				if err := waitDone(lf.done, tok); err != nil {
					return nil, 0, err
				}
				continue
			}
		}
		if e, ok := c.entries[k]; ok && (later || !e.later) {
			age := c.now().Sub(e.snap.Created)
			if age < c.policy.TTL {
				c.st.hits++
				c.mu.Unlock()
				if age <= 0 {
					age = time.Nanosecond // a hit is never of age zero
				}
				return e.snap, age, nil
			}
			delete(c.entries, k)
		}
		if f, ok := c.pending[k]; ok {
			c.mu.Unlock()
			if err := wait(f, tok); err != nil {
				return nil, 0, err
			}
			if f.err == nil && (later || !f.later) {
				return f.snap, time.Nanosecond, nil
			}
			// The other caller failed (say, it was cancelled), or its
			// scan is not the watched partition this call needs: try
			// ourselves.
			continue
		}
		f := &flight{done: make(chan struct{}), later: later}
		c.pending[k] = f
		c.mu.Unlock()
		if later {
			f.snap, f.err = c.fillLater(k, tok, obs)
		} else {
			f.snap, f.err = c.fill(k, tok, obs)
		}
		c.mu.Lock()
		delete(c.pending, k)
		c.mu.Unlock()
		close(f.done)
		return f.snap, 0, f.err
	}
}

// wait blocks until f is done or tok cancels.
func wait(f *flight, tok *cancel.Token) error { return waitDone(f.done, tok) }

// waitDone blocks until done is closed or tok cancels.
func waitDone(done chan struct{}, tok *cancel.Token) error {
	t := time.NewTicker(cancel.PollPeriod)
	defer t.Stop()
	for {
		select {
		case <-done:
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
// call made with the cache off: it neither reads nor fills the cache (and
// drops only an entry served by TTL, which may be stale; a watched one is
// current and stays). obs is as for Get.
func (c *Cache) Rescan(k Key, store bool, tok *cancel.Token, obs ...Observer) (*Snapshot, error) {
	c.mu.Lock()
	if e, ok := c.entries[k]; ok && (store || e.rw == nil) {
		// A watched entry is current: an uncached call leaves it alone.
		delete(c.entries, k)
		c.gcRoot(e.rw)
	}
	c.mu.Unlock()
	if store && c.policy.TTL > 0 {
		s, _, err := c.Get(k, tok, obs...) // a miss now: fills (and watches) the key
		return s, err
	}
	return c.fresh(k, tok, obs)
}

func (c *Cache) fresh(k Key, tok *cancel.Token, obs []Observer) (*Snapshot, error) {
	t0 := time.Now()
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
	c.mu.Lock()
	c.st.fullScans++
	c.st.fullScanRead += int64(len(entries))
	c.st.fullScanTime += time.Since(t0)
	c.mu.Unlock()
	return NewSnapshot(entries, c.now()), nil
}

// store inserts e, replays on it the events drained while it was being
// walked (log), and evicts the oldest entries past MaxEntries, closing
// the watchers no partition uses any more. It returns e's snapshot. c.mu
// held.
func (c *Cache) store(k Key, e *entry, log *fillLog) *Snapshot {
	if old, ok := c.entries[k]; ok && old.rw != nil && old.rw != e.rw {
		defer c.gcRoot(old.rw)
	}
	c.entries[k] = e
	if e.rw != nil && log != nil {
		c.patch(k, e, log.events)
		c.syncRoot(e.rw)
	}
	s := e.snap
	for len(c.entries) > c.policy.MaxEntries && len(c.entries) > 0 {
		var oldest Key
		var at time.Time
		first := true
		for key, e := range c.entries {
			if first || e.snap.Created.Before(at) {
				oldest, at, first = key, e.snap.Created, false
			}
		}
		rw := c.entries[oldest].rw
		delete(c.entries, oldest)
		c.gcRoot(rw)
	}
	return s
}

// Len returns the number of cached scans.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// InvalidateAll drops every cached scan, and forgets the uncached calls
// seen (the next uncached call of any key is a first one).
func (c *Cache) InvalidateAll() {
	c.mu.Lock()
	clear(c.entries)
	clear(c.uncachedSeen)
	for k, m := range c.memos {
		c.dropMemo(k, m)
	}
	for _, rw := range c.roots {
		c.closeRoot(rw)
	}
	c.mu.Unlock()
}

// Invalidate brings every cached scan whose root contains path (or is
// path) up to date with path: the directory holding path is listed again
// (the whole subtree when path is a directory), instead of the scan being
// dropped; watched partitions drain their root's events, which makes them
// current, and the full-detail ones list the directory all the same (a
// write through a shared mapping changes mtime and size without an event);
// the listWorkspace memos of roots holding path are dropped. A relative path is
// resolved against the working directory; the path is canonicalised, and
// when it no longer exists its parent is canonicalised and the name
// re-attached, so deletes and renames invalidate too.
func (c *Cache) Invalidate(path string) {
	target := Canonical(path)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.custom {
		for k := range c.entries {
			if within(target, k.Root) {
				delete(c.entries, k)
			}
		}
		return
	}
	c.invalidatePath(target)
	for k, m := range c.memos {
		if within(target, m.root) {
			c.dropMemo(k, m) // what the kernel did not report (a write through mmap)
		}
	}
}

// Canonical resolves p against the working directory and canonicalises it,
// falling back to the canonical parent plus the name when p does not exist.
func Canonical(p string) string {
	// '/'-separated, as the roots it is compared with (Windows).
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.ToSlash(filepath.Clean(p))
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return filepath.ToSlash(real)
	}
	dir, name := filepath.Split(abs)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return filepath.ToSlash(filepath.Join(real, name))
	}
	return filepath.ToSlash(abs)
}

// within reports whether root is target or one of its ancestors, by whole
// path components ("/a/b" contains "/a/b/c" but not "/a/bc").
func within(target, root string) bool {
	if !strings.HasPrefix(target, root) {
		return false
	}
	return len(target) == len(root) || root == "/" || target[len(root)] == '/'
}
