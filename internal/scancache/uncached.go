package scancache

import (
	"time"

	"github.com/fscache/fscache/internal/cancel"
)

// Uncached calls. A call made without the cache wants an answer as of the
// call, not one as old as a TTL. A watched partition gives exactly that
// once its root's pending events are drained (see watched.go): it is what
// a walk made now would find. So an uncached call is answered from the
// partition of its key when that partition is cached and watched, and
// walks otherwise, as it always did.
//
// A key becomes watched for uncached calls at its second uncached call
// within UncachedWindow (the rule of grep's index): that call walks as it
// would have, but stores its scan and watches the root, and the calls
// after it are answered from the watched partition. One call alone (a
// one-shot process, a directory looked at once) never pays for watches it
// would not use.

// UncachedWindow is how close two uncached calls of one key must be for
// the second to make the key watched.
const UncachedWindow = 5 * time.Minute

// Reasons an uncached call walked (Stats.UncachedWalks), beside the
// fallback reasons of a root (ReasonOverflow, ReasonWatchLimit,
// ReasonRootGone, ReasonRemoteFS, ...) and of the cache (ReasonDisabled,
// ReasonUnsupported).
const (
	// UncachedFirst: the key's first uncached call in the window.
	UncachedFirst = "first_call"
	// UncachedNotWatched: the key's partition was stored but is not kept
	// current (say, its walk followed a symbolic link); it is never served
	// to an uncached call.
	UncachedNotWatched = "not_watched"
	// UncachedWatchStarted: the call that made the key watched (it walked
	// and stored its scan).
	UncachedWatchStarted = "watch_started"
)

// maxUncachedSeen bounds the keys remembered for the second-call rule.
const maxUncachedSeen = 256

// Uncached returns the scan for a call made without the cache, current as
// of the call: the watched partition k when there is one (after its root's
// events are drained; served is then true and obs is not called), else a
// fresh walk, which at the key's second uncached call within
// UncachedWindow is stored and watched for the calls after it. A walk
// that is not stored drops an entry of k served by TTL when drop is set
// (Rescan(k, false): the reference's glob and fuzzyFind), and leaves the
// cache alone otherwise (its grep).
func (c *Cache) Uncached(k Key, drop bool, tok *cancel.Token, obs ...Observer) (s *Snapshot, served bool, err error) {
	rescan := func() (*Snapshot, error) {
		if drop {
			return c.Rescan(k, false, tok, obs...)
		}
		return c.fresh(k, tok, obs)
	}
	c.mu.Lock()
	if c.watchOff != "" {
		c.countUncached(c.watchOff)
		c.mu.Unlock()
		s, err = rescan()
		return s, false, err
	}
	if e, ok := c.entries[k]; ok && e.rw != nil {
		c.syncRoot(e.rw) // may drop the entry (overflow, root moved)
		if e, ok := c.entries[k]; ok && e.rw != nil {
			c.st.uncachedServed++
			s = e.snap
			c.mu.Unlock()
			return s, true, nil
		}
	}
	promote, reason := c.noteUncached(k, k.Root)
	c.mu.Unlock()
	if !promote {
		s, err = rescan()
		c.mu.Lock()
		c.countUncached(reason)
		c.mu.Unlock()
		return s, false, err
	}
	s, err = c.Rescan(k, true, tok, obs...)
	c.mu.Lock()
	if e, ok := c.entries[k]; !ok || e.rw == nil {
		reason = UncachedNotWatched
		if r, ok := c.sticky[k.Root]; ok {
			reason = r
		}
		c.countUncached(reason)
	} else {
		c.countUncached(UncachedWatchStarted) // this call walked; the next is served
	}
	c.mu.Unlock()
	return s, false, err
}

// noteUncached records an uncached call of k (a Key, or a memo's key, of
// the root root) now and says whether it should make k watched, or why
// the call walks. c.mu held.
func (c *Cache) noteUncached(k any, root string) (promote bool, reason string) {
	if r, ok := c.sticky[root]; ok {
		return false, r
	}
	now := c.now()
	last, seen := c.uncachedSeen[k]
	if !seen && len(c.uncachedSeen) >= maxUncachedSeen {
		for o, t := range c.uncachedSeen {
			if now.Sub(t) > UncachedWindow {
				delete(c.uncachedSeen, o)
			}
		}
		if len(c.uncachedSeen) >= maxUncachedSeen {
			clear(c.uncachedSeen) // all recent: start over rather than grow
		}
	}
	c.uncachedSeen[k] = now
	if seen && now.Sub(last) <= UncachedWindow {
		return true, ""
	}
	return false, UncachedFirst
}

// countUncached counts an uncached call that walked, by reason. c.mu held.
func (c *Cache) countUncached(reason string) {
	if c.st.uncachedWalks == nil {
		c.st.uncachedWalks = map[string]int64{}
	}
	c.st.uncachedWalks[reason]++
}

// UncachedStream is Uncached for a call that can walk on its own, taking
// what it needs as the walk goes (grep's first call of a root, which may
// stop before the end of the tree): where Uncached would walk without
// storing the scan (the key's first uncached call in the window, or
// watching off), it calls own instead and returns streamed true with
// own's error; own reports how many entries it walked. Otherwise it is
// Uncached(k, drop, tok): the watched partition (served), or at the
// key's second call a walk that is stored and watched. drop is as for
// Uncached: own's walk then drops an entry of k served by TTL, as a walk
// that is not stored does (glob's first call with a limit).
func (c *Cache) UncachedStream(k Key, drop bool, tok *cancel.Token, own func() (int, error)) (s *Snapshot, served, streamed bool, err error) {
	c.mu.Lock()
	reason := c.watchOff
	if reason == "" {
		if e, ok := c.entries[k]; ok && e.rw != nil {
			c.mu.Unlock()
			s, served, err = c.Uncached(k, drop, tok)
			return s, served, false, err
		}
		var promote bool
		if promote, reason = c.noteUncachedPeek(k, k.Root); promote {
			c.mu.Unlock()
			s, served, err = c.Uncached(k, drop, tok)
			return s, served, false, err
		}
		c.noteUncached(k, k.Root)
	}
	if e, ok := c.entries[k]; ok && drop && e.rw == nil {
		delete(c.entries, k) // as Rescan(k, false); unwatched: no root to release
	}
	c.mu.Unlock()
	t0 := time.Now()
	n, err := own()
	c.mu.Lock()
	c.countUncached(reason)
	c.st.fullScans++
	c.st.fullScanRead += int64(n)
	c.st.fullScanTime += time.Since(t0)
	c.mu.Unlock()
	return nil, false, true, err
}

// noteUncachedPeek is noteUncached without recording the call: whether an
// uncached call of k now would make it watched, or why it would walk.
// c.mu held.
func (c *Cache) noteUncachedPeek(k any, root string) (promote bool, reason string) {
	if r, ok := c.sticky[root]; ok {
		return false, r
	}
	if last, seen := c.uncachedSeen[k]; seen && c.now().Sub(last) <= UncachedWindow {
		return true, ""
	}
	return false, UncachedFirst
}
