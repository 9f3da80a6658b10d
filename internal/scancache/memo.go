package scancache

import (
	"strings"
	"sync/atomic"
	"time"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/watch"
)

// Memos: the result of a walk that is not a partition (listWorkspace's,
// bounded in depth, with its own pruning and the AGENTS.md lookup), served
// again to uncached calls while none of the directories the walk read has
// changed. Every directory the walk reaches is watched before it is read
// (and, with ignore rules, its .git/info, and the root's ancestors), so a
// change made after the walk read something raises an event; any event in
// the tree, or a rule change above it, drops the memo and the next call
// walks. It follows the uncached rule: a memo is made at the key's second
// uncached call within UncachedWindow, and only where a partition would be
// watched (watching on, the root not on a network or FUSE file system).

// maxMemos bounds the memos kept, the least recently used dropped first.
const maxMemos = 8

// memo is one watched result.
type memo struct {
	root string
	w    watch.Watcher
	val  any
	used time.Time
}

// WatchDir is given to a memo's walk: it watches the directory abs (an
// absolute path), and must be called before the walk reads it. It returns
// watch.ErrLimit when the system refuses another watch; the result is
// then not kept.
type WatchDir func(abs string) error

// Memo returns the value of walk for key, a walk of the directory root
// (rules: it applies ignore files, whose changes above root count too):
// the value of an earlier walk when none of the directories it read has
// changed since (served true), else walk's value now. walk is given a
// WatchDir to call on every directory it reads, nil when its value will
// not be kept. The value is shared by the calls it serves: they must not
// modify it.
func (c *Cache) Memo(key any, root string, rules bool, tok *cancel.Token, walk func(WatchDir) (any, error)) (v any, served bool, err error) {
	c.mu.Lock()
	if c.watchOff != "" {
		c.countUncached(c.watchOff)
		c.mu.Unlock()
		v, err = walk(nil)
		return v, false, err
	}
	if m := c.memos[key]; m != nil {
		if c.memoCurrent(m) {
			m.used = c.now()
			c.st.uncachedServed++
			v = m.val
			c.mu.Unlock()
			return v, true, nil
		}
		c.dropMemo(key, m)
	}
	promote, reason := c.noteUncached(key, root)
	if promote {
		if typ := c.remoteAt(root); typ != "" {
			promote, reason = false, ReasonRemoteFS
		}
	}
	c.mu.Unlock()
	if !promote {
		v, err = walk(nil)
		c.mu.Lock()
		c.countUncached(reason)
		c.mu.Unlock()
		return v, false, err
	}
	return c.memoFill(key, root, rules, tok, walk)
}

// memoFill runs walk with every directory watched and keeps its value.
func (c *Cache) memoFill(key any, root string, rules bool, tok *cancel.Token, walk func(WatchDir) (any, error)) (any, bool, error) {
	w, err := c.newWatcher()
	if err != nil {
		v, werr := walk(nil)
		c.mu.Lock()
		c.countUncached(ReasonError)
		c.mu.Unlock()
		return v, false, werr
	}
	var limited atomic.Bool // walk calls WatchDir from its goroutines
	add := func(abs string) error {
		err := watchDir(w, abs, rules)
		if err != nil {
			limited.Store(true)
		}
		return err
	}
	if rules {
		watchAncestors(root, add)
	}
	v, err := walk(func(abs string) error {
		if limited.Load() {
			return watch.ErrLimit
		}
		return add(abs)
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil || limited.Load() || tok.Err() != nil {
		closeLater(w)
		if limited.Load() {
			c.countUncached(ReasonWatchLimit)
		}
		return v, false, err
	}
	c.countUncached(UncachedWatchStarted)
	m := &memo{root: root, w: w, val: v, used: c.now()}
	if !c.memoCurrent(m) { // changed while it was walked: answer, keep nothing
		closeLater(w)
		return v, false, nil
	}
	if old := c.memos[key]; old != nil {
		c.dropMemo(key, old)
	}
	c.memos[key] = m
	for len(c.memos) > maxMemos {
		var oldest any
		var at time.Time
		for k, o := range c.memos {
			if oldest == nil || o.used.Before(at) {
				oldest, at = k, o.used
			}
		}
		c.dropMemo(oldest, c.memos[oldest])
	}
	return v, false, nil
}

// memoCurrent drains m's events and reports whether nothing that the memo
// rests on changed. c.mu held.
func (c *Cache) memoCurrent(m *memo) bool {
	events, overflow, err := m.w.Drain()
	if err != nil || overflow {
		return false
	}
	for _, ev := range events {
		if memoTouched(m.root, ev) {
			return false
		}
	}
	return true
}

// memoTouched reports whether ev may change a memo of root: any event in
// the tree (or its .git/info), and above it a change of ignore rules or of
// the root's path.
func memoTouched(root string, ev watch.Event) bool {
	if _, in := relOf(root, ev.Dir); in || ev.Gone || strings.HasSuffix(ev.Dir, "/.git/info") {
		return true
	}
	return isRuleName(ev.Name) || rootMoved(root, ev)
}

// dropMemo forgets the memo m of key and releases its watches. c.mu held.
func (c *Cache) dropMemo(key any, m *memo) {
	delete(c.memos, key)
	closeLater(m.w) // off the lock, as closeRoot does
}
