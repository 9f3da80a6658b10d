package scancache

import (
	"errors"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/watch"
)

// Listeners: what else is kept current from a root's change events (grep's
// content index). A listener registered on a watched partition's root gets
// every batch of events the root's watcher yields, as syncRoot drains them
// (before any cached call on the root answers), and Lost once when the
// watcher closes, after which events may be missing.

// Listener receives a watched root's events. Both methods run with the
// cache's lock held: they must be quick and must not call the cache.
type Listener interface {
	// Events is a batch of events of the root root, in order.
	Events(root string, events []watch.Event)
	// Lost reports that the root's watcher closed (reason: one of the
	// Reason constants, or "closed" when no partition uses it any more).
	Lost(reason string)
}

// ReasonClosed is what Lost says when a watcher closes for want of
// partitions (eviction, invalidation) rather than a failure.
const ReasonClosed = "closed"

// ErrNotWatched is returned by Listen and Current when the partition is
// not kept current by watching.
var ErrNotWatched = errors.New("scancache: the partition is not watched")

// Listen makes sure partition k is cached and watched, registers l on its
// root's watcher and returns the partition's snapshot, current now. l
// hears every event drained from then on. remove unregisters l.
func (c *Cache) Listen(k Key, tok *cancel.Token, l Listener) (snap *Snapshot, remove func(), err error) {
	_, _, err = c.Get(k, tok)
	if err != nil {
		return nil, nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[k]
	if e == nil || e.rw == nil || e.rw.closed {
		return nil, nil, ErrNotWatched
	}
	s, rw := e.snap, e.rw // e.snap: current, as of the latest drain
	if rw.listeners == nil {
		rw.listeners = map[Listener]struct{}{}
	}
	rw.listeners[l] = struct{}{}
	return s, func() {
		c.mu.Lock()
		delete(rw.listeners, l)
		c.mu.Unlock()
	}, nil
}

// Current returns the snapshot of partition k, current now, when it is
// kept current by the watcher l listens to: the root's events are drained
// first, so l has heard them all. Otherwise it returns ErrNotWatched (or
// the error of a scan), and the caller must not trust l's view.
func (c *Cache) Current(k Key, tok *cancel.Token, l Listener) (*Snapshot, error) {
	if _, _, err := c.Get(k, tok); err != nil { // drains the root, or refills an evicted partition
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[k]
	if e == nil || e.rw == nil || e.rw.closed {
		return nil, ErrNotWatched
	}
	if _, ok := e.rw.listeners[l]; !ok {
		return nil, ErrNotWatched
	}
	return e.snap, nil // current as of the latest drain, which l heard
}

// Watching reports whether the cache watches its partitions at all.
func (c *Cache) Watching() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.watchOff == ""
}

// lostRoot tells rw's listeners that it closed. c.mu held.
func (c *Cache) lostRoot(rw *rootWatch) {
	reason := rw.why
	if reason == "" {
		reason = ReasonClosed
	}
	for l := range rw.listeners {
		l.Lost(reason)
	}
	rw.listeners = nil
}
