package scancache

import (
	"errors"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/fence"
	"github.com/fscache/fscache/internal/walk"
	"github.com/fscache/fscache/internal/watch"
)

// Watched snapshots. Every root with a watched partition has one rootWatch:
// one watcher (one watch per directory that some partition of the root
// holds, plus the root's ancestors and the .git/info directories, for the
// ignore rules), shared by every partition of the root. Before a cached
// partition is served, its root's pending events are drained (without
// blocking; see watch.New for why nothing can still be in flight) and
// every partition of the root is patched: the directories the events name
// are listed again (their unchanged subdirectories kept as they are), new
// subdirectories are walked whole, and an ignore-rule change walks the
// whole subtree it governs. All of it runs under the cache's mutex.
//
// Renames need no pairing of IN_MOVED_FROM and IN_MOVED_TO: each side's
// directory is listed again, and a directory moved in is walked whole, so
// a move out of the tree is a delete and a move into it a create.
//
// When the kernel drops events (queue overflow), when a watch cannot be
// added (max_user_watches), when the root itself goes away, or on systems
// without a watcher, the root falls back to the TTL policy, and Stats says
// why.

// rootWatch is the watcher of one cached root.
type rootWatch struct {
	root   string
	w      watch.Watcher
	closed bool
	// fills are the logs of the fills in progress for this root: events
	// drained while a partition is being walked are replayed on it once
	// it is stored.
	fills map[*fillLog]struct{}
	// listeners receive the root's events (listen.go).
	listeners map[Listener]struct{}
	why       string // why it closed, for the listeners
}

type fillLog struct{ events []watch.Event }

// Fallback reasons, as Stats reports them.
const (
	ReasonOverflow    = "overflow"
	ReasonWatchLimit  = "watch_limit"
	ReasonUnsupported = "unsupported"
	ReasonRootGone    = "root_gone"
	ReasonSymlinks    = "symlinks_followed"
	ReasonError       = "error"
	ReasonDisabled    = "disabled"
	// ReasonRemoteFS: the root is on, or holds, a network or FUSE file
	// system, whose changes made elsewhere raise no event here.
	ReasonRemoteFS = "remote_fs"
)

// counters are the cache's statistics, guarded by Cache.mu.
type counters struct {
	eventsApplied int64
	refreshes     int64
	refreshRead   int64
	refreshTime   time.Duration
	fullScans     int64
	fullScanRead  int64
	fullScanTime  time.Duration
	hits          int64
	fallbacks     map[string]int64
	// uncachedServed counts the uncached calls answered from a watched
	// partition, uncachedWalks those that walked, by reason (uncached.go).
	uncachedServed int64
	uncachedWalks  map[string]int64
}

// Stats describes the cache: what it holds, what it watches, and what
// keeping it current has cost.
type Stats struct {
	// Entries is the number of cached partitions; Watched of them are kept
	// current by change notifications, the others are served by TTL.
	Entries, Watched int
	// RootsWatched is the number of roots with a watcher; Watches the
	// number of directory watches they hold.
	RootsWatched, Watches int
	// Watching reports whether watching is enabled and supported here;
	// when not, WatchOff says why ("disabled" or "unsupported").
	Watching bool
	WatchOff string
	// Fallbacks counts, by reason, the times a root or partition fell back
	// to the TTL policy; FallbackRoots maps the roots that stay on it to
	// the reason.
	Fallbacks     map[string]int64
	FallbackRoots map[string]string
	// Hits is the number of cached answers, EventsApplied the number of
	// change events applied.
	Hits, EventsApplied int64
	// Refreshes counts the targeted refreshes (one directory or subtree of
	// one partition), RefreshEntries the entries they read, RefreshTime
	// their total time.
	Refreshes, RefreshEntries int64
	RefreshTime               time.Duration
	// FullScans counts the scans of a whole root, FullScanEntries the
	// entries they read, FullScanTime their total time.
	FullScans, FullScanEntries int64
	FullScanTime               time.Duration
	// UncachedServed counts the calls made without the cache that were
	// answered from a watched partition (current as of the call);
	// UncachedWalks counts, by reason, those that walked instead (see
	// Cache.Uncached).
	UncachedServed int64
	UncachedWalks  map[string]int64
}

// Stats returns a snapshot of the cache's statistics.
func (c *Cache) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := Stats{Entries: len(c.entries), RootsWatched: len(c.roots), Watching: c.watchOff == "",
		WatchOff: c.watchOff, Fallbacks: map[string]int64{}, FallbackRoots: map[string]string{},
		Hits: c.st.hits, EventsApplied: c.st.eventsApplied, Refreshes: c.st.refreshes,
		RefreshEntries: c.st.refreshRead, RefreshTime: c.st.refreshTime, FullScans: c.st.fullScans,
		FullScanEntries: c.st.fullScanRead, FullScanTime: c.st.fullScanTime,
		UncachedServed: c.st.uncachedServed, UncachedWalks: map[string]int64{}}
	for r, n := range c.st.uncachedWalks {
		s.UncachedWalks[r] = n
	}
	for _, e := range c.entries {
		if e.rw != nil {
			s.Watched++
		}
	}
	for _, rw := range c.roots {
		s.Watches += rw.w.Len()
	}
	for _, m := range c.memos {
		s.Watches += m.w.Len()
	}
	for r, n := range c.st.fallbacks {
		s.Fallbacks[r] = n
	}
	for root, r := range c.sticky {
		s.FallbackRoots[root] = r
	}
	return s
}

func (c *Cache) countFallback(reason string) {
	if c.st.fallbacks == nil {
		c.st.fallbacks = map[string]int64{}
	}
	c.st.fallbacks[reason]++
}

// rootFor returns the watcher of root, creating it; nil when the root is
// not watched (watching off, or the root fell back for good). c.mu held.
func (c *Cache) rootFor(root string) *rootWatch {
	if c.watchOff != "" {
		return nil
	}
	if _, ok := c.sticky[root]; ok {
		return nil
	}
	if rw := c.roots[root]; rw != nil {
		return rw
	}
	if typ := c.remoteAt(root); typ != "" {
		// Changes made on another machine (or by a FUSE server) raise no
		// event here: the root is served by TTL, and uncached calls walk.
		c.countFallback(ReasonRemoteFS)
		c.sticky[root] = ReasonRemoteFS
		return nil
	}
	w, err := c.newWatcher()
	if err != nil {
		reason := ReasonError
		switch {
		case errors.Is(err, watch.ErrUnsupported):
			reason = ReasonUnsupported
		case errors.Is(err, watch.ErrLimit):
			reason = ReasonWatchLimit
		}
		c.countFallback(reason)
		c.sticky[root] = reason
		return nil
	}
	rw := &rootWatch{root: root, w: w, fills: map[*fillLog]struct{}{}}
	c.roots[root] = rw
	return rw
}

// dropRoot closes rw and removes its partitions (they may be stale);
// sticky keeps the root on the TTL policy from now on. c.mu held.
func (c *Cache) dropRoot(rw *rootWatch, reason string, sticky bool) {
	if rw.closed {
		return
	}
	c.countFallback(reason)
	if sticky {
		c.sticky[rw.root] = reason
	}
	for k, e := range c.entries {
		if e.rw == rw {
			delete(c.entries, k)
		}
	}
	rw.why = reason
	c.closeRoot(rw)
}

// closeRoot releases rw's watches. c.mu held.
func (c *Cache) closeRoot(rw *rootWatch) {
	if rw.closed {
		return
	}
	rw.closed = true
	c.lostRoot(rw)
	// Closing a descriptor with thousands of watches makes the kernel tear
	// each one down: off the caller's path and out of the lock. The
	// goroutine ends with the close; rw.closed keeps everyone else away.
	closeLater(rw.w)
	if c.roots[rw.root] == rw {
		delete(c.roots, rw.root)
	}
}

// dirAt reports whether the directory rel of root is there (not following
// a final symlink).
func dirAt(root, rel string) bool {
	fi, err := os.Lstat(strings.TrimSuffix(root, "/") + "/" + rel)
	return err == nil && fi.IsDir()
}

// closeLater closes w on a goroutine of its own: closing a descriptor with
// thousands of watches makes the kernel tear each one down, which no
// caller waits for.
func closeLater(w watch.Watcher) {
	fence.Background(fence.WatchClose, func() {
		_ = w.Close()
		fence.Point(fence.WatchClose)
	})
}

// gcRoot closes rw when no partition and no fill uses it. c.mu held.
func (c *Cache) gcRoot(rw *rootWatch) {
	if rw == nil || rw.closed || len(rw.fills) > 0 {
		return
	}
	for _, e := range c.entries {
		if e.rw == rw {
			return
		}
	}
	c.closeRoot(rw)
}

// syncRoot drains rw's events and patches every partition of the root.
// c.mu held.
func (c *Cache) syncRoot(rw *rootWatch) {
	if rw.closed {
		return
	}
	events, overflow, err := rw.w.Drain()
	if err != nil {
		c.dropRoot(rw, ReasonError, false)
		return
	}
	if overflow {
		c.dropRoot(rw, ReasonOverflow, false)
		return
	}
	if len(events) == 0 {
		return
	}
	for _, ev := range events {
		if rootMoved(rw.root, ev) {
			c.dropRoot(rw, ReasonRootGone, false)
			return
		}
	}
	c.st.eventsApplied += int64(len(events))
	for l := range rw.listeners {
		l.Events(rw.root, events)
	}
	for l := range rw.fills {
		l.events = append(l.events, events...)
	}
	// Watches of directories deleted or moved away: their paths are stale.
	// A directory moved within the tree is walked again where it landed,
	// which watches it again under its new path. A fill may be adding
	// watches right now (outside c.mu): RemoveIfGone checks and removes
	// as one step, so a new directory made at the same path keeps the
	// watch the fill gives it.
	for _, ev := range events {
		if ev.IsDir && !ev.Content && !ev.Gone && ev.Name != "" {
			rw.w.RemoveIfGone(ev.Dir + "/" + ev.Name)
		}
	}
	for k, e := range c.entries {
		if e.rw == rw {
			c.patch(k, e, events)
			if rw.closed {
				return
			}
		}
	}
}

// rootMoved reports whether ev says the root's path no longer leads to the
// directory that was scanned: the root or an ancestor deleted or moved, or
// the entry on the root's path created, deleted or renamed in an ancestor.
func rootMoved(root string, ev watch.Event) bool {
	if ev.Dir == root {
		return ev.Gone
	}
	if !within(root, ev.Dir) {
		return false // an event inside the tree
	}
	if ev.Gone {
		return true
	}
	if ev.Content || ev.Name == "" {
		return false
	}
	rest, _ := relOf(ev.Dir, root)
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		rest = rest[:i]
	}
	return rest == ev.Name
}

// relOf returns path relative to root and whether path is root or under it.
func relOf(root, path string) (string, bool) {
	if !within(path, root) {
		return "", false
	}
	if len(path) == len(root) {
		return "", true
	}
	if root == "/" {
		return path[1:], true
	}
	return path[len(root)+1:], true
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

func parentOf(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return ""
}

// isRuleName reports whether name changes the ignore rules of its
// directory: an ignore file or a repository marker.
func isRuleName(name string) bool {
	return ignoreMark(name)
}

func ignoreMark(name string) bool {
	switch name {
	case ".gitignore", ".ignore", ".git", ".jj":
		return true
	}
	return false
}

// plan turns events into the directories of partition k to list again
// (shallow) and the subtrees to walk again (deep).
func plan(k Key, root string, events []watch.Event) (shallow, deep map[string]bool) {
	shallow, deep = map[string]bool{}, map[string]bool{}
	for _, ev := range events {
		if ev.Gone {
			continue // the parent's event tells what happened
		}
		rel, ok := relOf(root, ev.Dir)
		if !ok {
			// An ancestor of the root, or its .git/info: only ignore rules
			// matter, and they govern the whole root.
			if k.Gitignore && (isRuleName(ev.Name) || strings.HasSuffix(ev.Dir, "/.git/info")) {
				deep[""] = true
			}
			continue
		}
		if i := strings.Index("/"+rel+"/", "/.git/"); i >= 0 {
			// root/<r>/.git/info: the repository's info/exclude.
			if k.Gitignore && ev.Name == "exclude" {
				r := strings.TrimSuffix(rel[:max(i-1, 0)], "/")
				deep[r] = true
			}
			continue
		}
		if !utf8.ValidString(rel) || !utf8.ValidString(ev.Name) {
			deep[""] = true // paths are matched by their displayed form: play safe
			continue
		}
		child := join(rel, ev.Name)
		rule := ev.Name != "" && isRuleName(ev.Name) && k.Gitignore
		if ev.Content {
			switch {
			case ev.Name == "":
				if k.Full && rel != "" {
					shallow[parentOf(rel)] = true
				}
			case rule:
				deep[rel] = true
			case ev.IsDir:
				deep[child] = true // chmod can change what can be listed
				if k.Full {
					shallow[rel] = true
				}
			case k.Full:
				shallow[rel] = true
			}
			continue
		}
		shallow[rel] = true
		if rule {
			deep[rel] = true
		}
		if ev.IsDir {
			deep[child] = true
		}
	}
	return shallow, deep
}

// patch applies events to the partition k. c.mu held.
func (c *Cache) patch(k Key, e *entry, events []watch.Event) {
	shallow, deep := plan(k, e.rw.root, events)
	if len(shallow)+len(deep) == 0 {
		return
	}
	dirs := make([]string, 0, len(shallow)+len(deep))
	for d := range shallow {
		dirs = append(dirs, d)
	}
	for d := range deep {
		if !shallow[d] {
			dirs = append(dirs, d)
		}
	}
	c.refreshDirs(k, e, dirs, deep)
}

// refreshDirs lists the directories dirs of partition k again (the deep
// ones with their whole subtree), parents first, and replaces the
// partition's snapshot. On failure the partition is dropped. c.mu held.
func (c *Cache) refreshDirs(k Key, e *entry, dirs []string, deep map[string]bool) {
	slices.Sort(dirs)
	s := e.snap
	var done []string // subtrees already walked whole
	covered := func(d string) bool {
		for _, p := range done {
			if p == "" || d == p || strings.HasPrefix(d, p+"/") {
				return true
			}
		}
		return false
	}
	var linked atomic.Bool
	h := c.hooks(k, e.rw, &linked)
	for _, d := range dirs {
		if covered(d) || !isDir(s, d) {
			continue
		}
		t0 := time.Now()
		next, read, err := refresh(k, s, d, deep[d], deep, h, nil)
		if err != nil && d != "" && !dirAt(k.Root, d) {
			// d went away after the events that name it were drained
			// (say, written to, then renamed): the events of its removal
			// are still queued. Its nearest ancestor still there is
			// listed again instead, which drops d, or takes in where it
			// went within the tree; the queued events, drained before
			// the next answer, refresh what they name as usual. (The
			// partition was dropped here: answers stayed correct, by a
			// walk, but the root lost its watched scan for a while.)
			a := parentOf(d)
			for a != "" && !dirAt(k.Root, a) {
				a = parentOf(a)
			}
			c.st.refreshes++
			var more int
			next, more, err = refresh(k, s, a, false, deep, h, nil)
			read += more
		}
		c.st.refreshes++
		c.st.refreshRead += int64(read)
		c.st.refreshTime += time.Since(t0)
		if err != nil {
			if errors.Is(err, watch.ErrLimit) && e.rw != nil {
				c.dropRoot(e.rw, ReasonWatchLimit, true)
				return
			}
			delete(c.entries, k)
			c.gcRoot(e.rw)
			return
		}
		s = next
		if deep[d] {
			done = append(done, d)
		} else {
			for x := range deep {
				if parentOf(x) == d && x != d {
					done = append(done, x)
				}
			}
		}
	}
	if linked.Load() {
		// A followed link's target can change without an event in the
		// tree: this partition cannot be kept by watching.
		c.countFallback(ReasonSymlinks)
		delete(c.entries, k)
		c.gcRoot(e.rw)
		return
	}
	e.snap = s
}

// hooks returns what a walk of partition k reports to rw (nil: none).
func (c *Cache) hooks(k Key, rw *rootWatch, linked *atomic.Bool) walk.Hooks {
	var h walk.Hooks
	if k.FollowLinks {
		h.OnLink = func(string) { linked.Store(true) }
	}
	if rw == nil {
		return h
	}
	w := rw.w
	h.OnDir = func(abs string) error { return watchDir(w, abs, k.Gitignore) }
	return h
}

// watchDir watches the directory abs on w and, with ignore rules, its
// .git/info; it returns watch.ErrLimit when the system refuses a watch.
// Other failures (the directory vanished, or is a followed link) are told
// by the parent's events or by OnLink.
func watchDir(w watch.Watcher, abs string, rules bool) error {
	if err := w.Add(abs); errors.Is(err, watch.ErrLimit) {
		return err
	}
	if rules {
		if err := w.Add(abs + "/.git/info"); errors.Is(err, watch.ErrLimit) {
			return err
		}
	}
	return nil
}

// watchAncestors calls add on every ancestor of root, nearest first, up to
// "/", and stops at its first error: the ignore files of the ancestors
// apply to root too.
func watchAncestors(root string, add func(dir string) error) error {
	for d := parentOf(root); ; d = parentOf(d) {
		if d == "" {
			d = "/"
		}
		if err := add(d); err != nil || d == "/" {
			return err
		}
	}
}

// fillLater is fill for GetLater's miss: where k would be watched, it
// scans without watches, stores the scan for the TTL (marked later: not
// the watched partition Listen, Current and Rescan need) and starts the
// background fill of the watched partition (watchLater). c.mu not held.
func (c *Cache) fillLater(k Key, tok *cancel.Token, obs []Observer) (*Snapshot, error) {
	c.mu.Lock()
	_, sticky := c.sticky[k.Root]
	c.mu.Unlock()
	if sticky || !c.Watching() {
		return c.fill(k, tok, obs)
	}
	s, err := c.fresh(k, tok, obs)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[k]; ok && e.rw != nil {
		return s, nil // the watched partition is there already: kept
	}
	s = c.store(k, &entry{snap: s, later: true}, nil)
	if _, ok := c.later[k]; !ok {
		lf := &laterFill{done: make(chan struct{})}
		c.later[k] = lf
		fence.Background(fence.WatchedFill, func() { c.watchLater(k, lf) })
	}
	return s, nil
}

// laterFill is a background fill of a watched partition: done is closed
// when it ends; urgent is set by a call that waits for it.
type laterFill struct {
	done   chan struct{}
	urgent atomic.Bool
}

// laterWaitMax bounds how long a background fill waits for calls in
// flight to end before it starts.
const laterWaitMax = 50 * time.Millisecond

// watchLater fills the watched partition k in the background, replacing
// the scan fillLater stored: a fill is a fresh scan whose watches were
// added before each directory was read, and whose events since are
// replayed on it, so it is at least as current as the scan it replaces.
// A partition dropped meanwhile (invalidated, evicted) is not brought
// back. It starts once no call is in flight (SetBusy), or laterWaitMax
// has passed, or a call waits for it.
func (c *Cache) watchLater(k Key, lf *laterFill) {
	defer func() {
		c.mu.Lock()
		delete(c.later, k)
		c.mu.Unlock()
		close(lf.done)
	}()
	for t0 := time.Now(); c.busy != nil && c.busy() && !lf.urgent.Load() && time.Since(t0) < laterWaitMax; {
		time.Sleep(200 * time.Microsecond)
	}
	c.mu.Lock()
	e, ok := c.entries[k]
	c.mu.Unlock()
	if !ok || !e.later {
		return
	}
	tok := cancel.New(time.Time{}, nil)
	defer tok.Release()
	fence.Point(fence.WatchedFill)
	// An error leaves the scan served by TTL, as a failed fill would; a
	// panic in the fill's walk is recorded as this fill's drop (a panic
	// here is, by fence.Background).
	if _, err := c.fill(k, tok, nil); err != nil {
		if fe, ok := errors.AsType[*fence.Error](err); ok {
			fence.Drop(fence.WatchedFill, fe)
		}
	}
}

// fill scans k and caches the scan, watched when it can be; it returns
// the snapshot that answers the call. c.mu not held.
func (c *Cache) fill(k Key, tok *cancel.Token, obs []Observer) (*Snapshot, error) {
	c.mu.Lock()
	rw := c.rootFor(k.Root)
	var log *fillLog
	if rw != nil {
		log = &fillLog{}
		rw.fills[log] = struct{}{}
	}
	c.mu.Unlock()
	if rw == nil {
		s, err := c.fresh(k, tok, obs)
		if err == nil {
			c.mu.Lock()
			s = c.store(k, &entry{snap: s}, nil)
			c.mu.Unlock()
		}
		return s, err
	}
	// A panic in the fill leaves it as an error does: its log is
	// forgotten and the root's watches go when nothing else uses them.
	defer fence.Unwind(func() {
		c.mu.Lock()
		delete(rw.fills, log)
		c.gcRoot(rw)
		c.mu.Unlock()
	})
	t0 := time.Now()
	var linked, limited atomic.Bool
	h := c.hooks(k, rw, &linked)
	if len(obs) > 0 {
		h.Observe = obs[0]
	}
	// Past the watch limit the walk goes on unwatched: its result is a
	// correct scan, served by TTL.
	add := h.OnDir
	h.OnDir = func(abs string) error {
		if !limited.Load() && errors.Is(add(abs), watch.ErrLimit) {
			limited.Store(true)
		}
		return nil
	}
	var err error
	if k.Gitignore {
		err = watchAncestors(k.Root, h.OnDir)
	}
	var s *Snapshot
	var read int
	if err == nil {
		s, read, err = refresh(k, nil, "", true, nil, h, tok)
	}
	created := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(rw.fills, log)
	c.st.fullScans++
	c.st.fullScanRead += int64(read)
	c.st.fullScanTime += time.Since(t0)
	if err != nil {
		c.gcRoot(rw)
		return nil, err
	}
	s.Created = created // not published yet
	switch {
	case limited.Load():
		c.dropRoot(rw, ReasonWatchLimit, true)
		return c.store(k, &entry{snap: s}, nil), nil // served by TTL
	case linked.Load():
		c.countFallback(ReasonSymlinks)
		c.gcRoot(rw)
		return c.store(k, &entry{snap: s}, nil), nil // served by TTL
	case rw.closed:
		// The watcher went away while walking (overflow, InvalidateAll):
		// changes after the listings may be lost. The scan answers this
		// call but is not cached.
		return s, nil
	}
	return c.store(k, &entry{snap: s, rw: rw}, log), nil
}

// invalidatePath refreshes, in every partition whose root contains target,
// the directory holding target (the subtree when target is a directory).
// c.mu held.
func (c *Cache) invalidatePath(target string) {
	for _, rw := range c.roots {
		if within(target, rw.root) {
			c.syncRoot(rw)
		}
	}
	fi, statErr := os.Lstat(target)
	for k, e := range c.entries {
		rel, ok := relOf(k.Root, target)
		if !ok || (e.rw != nil && !e.rw.closed && !k.Full) {
			// A watched partition is current once drained. A full-detail
			// one is refreshed all the same: a write through a shared
			// mapping changes mtime and size without an event.
			continue
		}
		d, deep := parentOf(rel), false
		if statErr == nil && fi.IsDir() || rel == "" {
			d, deep = rel, true
		}
		if !utf8.ValidString(rel) {
			d, deep = "", true
		}
		// The nearest directory that the snapshot has and that still is a
		// directory: a listing there drops what is gone and walks whatever
		// is new below it.
		for d != "" && (!isDir(e.snap, d) || !dirOnDisk(k.Root, d)) {
			d, deep = parentOf(d), false
		}
		c.refreshDirs(k, e, []string{d}, map[string]bool{d: deep})
	}
}

// dirOnDisk reports whether root/rel is a directory now (links followed,
// as a link-following walk would).
func dirOnDisk(root, rel string) bool {
	fi, err := os.Stat(strings.TrimSuffix(root, "/") + "/" + rel)
	return err == nil && fi.IsDir()
}
