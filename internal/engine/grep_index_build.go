package engine

import (
	"errors"
	"iter"
	"time"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/fence"
	"github.com/fscache/fscache/internal/index"
	"github.com/fscache/fscache/internal/scancache"
	"github.com/fscache/fscache/internal/walk"
)

// Building grep's indexes (see grep_index.go): one builder goroutine at a
// time, which takes the queued roots one after the other, waits while any
// call runs, and ends when the queue is empty; and dropping them (lost
// watcher, memory cap, invalidation).

// enqueue queues a build of r and starts the builder when none runs.
func (gi *grepIndexes) enqueue(r *indexedRoot) {
	gi.mu.Lock()
	defer gi.mu.Unlock()
	if r.queued || gi.roots[r.key] != r {
		return
	}
	r.queued = true
	gi.queue = append(gi.queue, r)
	if !gi.building {
		gi.building = true
		go gi.builder()
	}
}

// builder builds the queued indexes one after the other, and ends when
// the queue is empty.
func (gi *grepIndexes) builder() {
	built := false
	for {
		gi.mu.Lock()
		if len(gi.queue) == 0 && built {
			// A build walks the tree and reads every file: most of
			// the heap it grew is garbage now. Returned to the
			// system once calls pause (releaseIdle), rather than
			// kept resident by the runtime for the next peak.
			gi.mu.Unlock()
			gi.releaseIdle()
			built = false
			continue
		}
		if len(gi.queue) == 0 {
			gi.building = false
			gi.mu.Unlock()
			return
		}
		r := gi.queue[0]
		gi.queue = gi.queue[1:]
		gi.mu.Unlock()
		if !r.stop.Load() {
			// A panic drops this root's build (what the build held is
			// released: see build), is recorded, and keeps the root
			// unindexed: the builder goes on with the queue.
			var err error
			if perr := fence.Run(fence.IndexBuild, func() { err = gi.build(r, nil, true) }); perr != nil {
				fence.Drop(fence.IndexBuild, perr)
				gi.failed(r, idxPanic, true)
			} else if fe, ok := errors.AsType[*fence.Error](err); ok {
				fence.Drop(fence.IndexBuild, fe) // its walk's (counted failed by build)
			}
			built = true
		}
		gi.mu.Lock()
		r.queued = false
		gi.mu.Unlock()
	}
}

// errStopped ends a build whose root was dropped.
var errStopped = errors.New("index build stopped")

// build builds (or rebuilds) r's index from the files of its watched scan.
// yield makes it wait while foreground calls run. tok cancels it.
func (gi *grepIndexes) build(r *indexedRoot, tok *cancel.Token, yield bool) error {
	if gi.policy.disk && !scanCache().Watching() {
		return gi.buildUnwatched(r, tok, yield)
	}
	// The watched scan below walks the whole root: not beside a call either.
	gi.wait(r, yield)
	t0 := time.Now()
	gi.mu.Lock()
	live, remove := r.live, r.remove
	gi.mu.Unlock()
	var snap *scancache.Snapshot
	var err error
	fresh := live == nil || !live.Ready()
	if !fresh {
		snap, err = scanCache().Current(r.key, tok, live)
	} else {
		live = index.NewLive(r.key.Root)
		snap, remove, err = scanCache().Listen(r.key, tok, live)
	}
	if err != nil {
		reason := idxError
		if errors.Is(err, scancache.ErrNotWatched) {
			reason = idxNotWatched
		}
		gi.failed(r, reason, reason == idxNotWatched)
		return err
	}
	j := live.Begin()
	ix, untrusted, err := func() (*index.Index, []string, error) {
		// A panic reading the files (the builder's fence recovers it)
		// first ends the journal and the listener this build started.
		defer fence.Unwind(func() {
			j.Abort()
			if fresh {
				remove()
			}
		})
		fence.Point(fence.IndexBuild)
		return gi.readFor(r, live, snap, tok, yield)
	}()
	if err != nil {
		j.Abort()
		reason := idxError
		switch {
		case errors.Is(err, errTooLarge):
			reason = idxTooLarge
		case errors.Is(err, errStopped):
			reason = ""
		}
		if fresh {
			remove()
			live.Close()
		}
		gi.failed(r, reason, reason == idxTooLarge)
		return err
	}
	// The root's events up to now, before installing: a root that went
	// away while its files were read is not installed.
	if _, err := scanCache().Current(r.key, tok, live); err != nil {
		j.Abort()
		if fresh {
			remove()
			live.Close()
		}
		gi.failed(r, "", false)
		return err
	}
	j.Install(ix)
	for _, p := range untrusted {
		live.Touch(r.key.Root + "/" + p)
	}
	gi.watchLinked(r, live, yield)
	d := time.Since(t0)
	gi.mu.Lock()
	defer gi.mu.Unlock()
	gi.st.builds++
	gi.st.buildTime += d
	gi.st.lastBuild = d
	if gi.roots[r.key] != r || r.stop.Load() || !live.Ready() {
		if fresh {
			remove()
			live.Close()
		}
		return errStopped
	}
	r.live, r.remove = live, remove
	gi.trim(r)
	return nil
}

// watchLinked places the watches of the files with hard links of live's
// base (index.Live.WatchFile), and has a stat after each confirm its entry
// (Cover): done by the build, yielding as it does, so that the first grep
// after it needs no check of them either (11,478 watches and stats on Go's
// src cost a grep 135-450 ms on this project's machine).
func (gi *grepIndexes) watchLinked(r *indexedRoot, live *index.Live, yield bool) {
	plan := live.Plan(index.Query{}, false)
	if plan == nil {
		return
	}
	lc := newLinkCheck(plan, live, r.key.Root)
	defer lc.close()
	ix := plan.Index()
	var e walk.Entry
	for id := range ix.Len() {
		if id&255 == 0 {
			gi.wait(r, yield)
			if r.stop.Load() {
				return
			}
		}
		e.Path = ix.Path(id)
		lc.one(&e, id, index.Skip)
	}
}

// wait returns once the foreground is not busy (at once unless yield), or
// r's build is stopped.
func (gi *grepIndexes) wait(r *indexedRoot, yield bool) {
	for yield && !r.stop.Load() {
		d := gi.busyFor()
		if d <= 0 {
			return
		}
		time.Sleep(d)
	}
}

var errTooLarge = errors.New("index larger than FS_GREP_INDEX_MB")

// readFor returns the index for a build of live: with the disk policy the
// published one (or a new one, published), with the paths the Live must
// take as stale (grep_disk.go's readDisk); else, or when the index
// directory cannot be used or another process is writing the index, one
// read from snap's files into memory.
func (gi *grepIndexes) readFor(r *indexedRoot, live *index.Live, snap *scancache.Snapshot, tok *cancel.Token, yield bool) (*index.Index, []string, error) {
	if gi.policy.disk {
		ix, untrusted, err := gi.readDisk(r, tok, yield)
		if err == nil || errors.Is(err, errStopped) || tok.Err() != nil {
			return ix, untrusted, err
		}
		if errors.Is(err, errLocked) {
			gi.countFallback(idxLocked)
		} else {
			gi.noteError(err)
		}
	}
	ix, err := gi.read(r, live, snap, tok, yield)
	return ix, nil, err
}

// read reads the files of snap into a new index.
func (gi *grepIndexes) read(r *indexedRoot, live *index.Live, snap *scancache.Snapshot, tok *cancel.Token, yield bool) (*index.Index, error) {
	// wait holds the build while the foreground is busy (between files,
	// and every fraction of a millisecond of work inside one).
	b := index.Builder{Pause: func() { gi.wait(r, yield) }, BuiltNs: time.Now().UnixNano()}
	err := gi.addFiles(r, &b, snap.All(), tok, yield, func(n int) error {
		if n%drainEvery == 0 {
			// Hear early of a root that went away.
			if _, err := scanCache().Current(r.key, tok, live); err != nil {
				return err
			}
		}
		if live.LostReason() != "" {
			return errStopped
		}
		if b.Size() > gi.policy.capMem {
			return errTooLarge
		}
		return nil
	}, nil)
	if err == nil && b.Size() > gi.policy.capMem {
		err = errTooLarge
	}
	if err != nil {
		return nil, err
	}
	return b.Finish(), nil
}

// addFiles reads the files of entries, in path order, into b (an entry out
// of order is left out: grep finds it Fresh and searches it). check, when
// set, is called before each file with the number of files so far; its
// error ends the reading. keep, when set, is called before a file is read:
// true means it recorded the file (Builder.Keep), which is not read.
func (gi *grepIndexes) addFiles(r *indexedRoot, b *index.Builder, entries iter.Seq2[int, *walk.Entry], tok *cancel.Token, yield bool, check func(n int) error, keep func(e *walk.Entry) bool) error {
	buf := make([]byte, 0, 64<<10)
	prev := ""
	n := 0
	for _, e := range entries {
		if e.Type != walk.File {
			continue
		}
		n++
		if check != nil {
			if err := check(n); err != nil {
				return err
			}
		}
		gi.wait(r, yield)
		if r.stop.Load() {
			return errStopped
		}
		if err := tok.Err(); err != nil {
			return err
		}
		if e.Path <= prev && prev != "" {
			continue
		}
		prev = e.Path
		if keep != nil && keep(e) {
			continue
		}
		abs := r.key.Root + "/" + e.FSPath()
		// The metadata before the read: a change after it shows in the
		// metadata a later grep compares (files with hard links).
		m := fileMeta(abs)
		if m.Ino == 0 {
			m.Size, m.MtimeNs = e.Size, e.Mtime // the walk's (full detail)
		}
		data, ok := readFile(abs, buf[:0])
		if cap(data) > cap(buf) {
			buf = data[:0]
		}
		b.Add(e.Path, data, ok && e.RawPath == "", m)
		if gi.policy.onFile != nil {
			gi.policy.onFile(tok)
		}
	}
	return nil
}

// failed records a failed build of r; sticky keeps r from being indexed
// again.
func (gi *grepIndexes) failed(r *indexedRoot, reason string, sticky bool) {
	gi.mu.Lock()
	defer gi.mu.Unlock()
	gi.st.buildFails++
	if reason != "" {
		gi.fallback(reason)
	}
	if sticky && reason != "" {
		r.noIndex = reason
		if gi.st.fallbackRoots == nil {
			gi.st.fallbackRoots = map[string]string{}
		}
		gi.st.fallbackRoots[r.key.Root] = reason
	}
}

// drop forgets r's index (live, when still r's) after it lost its
// watcher; reason "" takes the Live's own.
func (gi *grepIndexes) drop(r *indexedRoot, live *index.Live, reason string) {
	if reason == "" {
		reason = live.LostReason()
		if reason == "" {
			reason = idxNotWatched
		}
	}
	gi.mu.Lock()
	defer gi.mu.Unlock()
	if r.live != live {
		return
	}
	gi.fallback(reason)
	gi.forget(r)
}

// forget drops r and its index. gi.mu held.
func (gi *grepIndexes) forget(r *indexedRoot) {
	r.stop.Store(true)
	if r.remove != nil {
		r.remove()
	}
	if r.live != nil {
		r.live.Close() // its watches of files
	}
	r.live, r.remove = nil, nil
	if gi.roots[r.key] == r {
		delete(gi.roots, r.key)
	}
}

// trim drops the least recently used indexes while they all take more
// than the cap; keep is dropped last. gi.mu held.
func (gi *grepIndexes) trim(keep *indexedRoot) {
	for {
		var total int64
		var lru *indexedRoot
		for _, r := range gi.roots {
			if r.live == nil {
				continue
			}
			r.size = r.live.Stats().Size
			total += r.size
			if r != keep && (lru == nil || r.lastUse.Before(lru.lastUse)) {
				lru = r
			}
		}
		if total <= gi.policy.capMem {
			return
		}
		if lru == nil {
			lru = keep
		}
		gi.fallback(idxEvicted)
		gi.forget(lru)
		if lru == keep {
			return
		}
	}
}

// invalidate tells the indexes of the roots holding path that it (or the
// tree under it) changed: for changes no event reports (a write through a
// shared mapping), the caller's invalidateFsScanCache(path) is enough.
func (gi *grepIndexes) invalidate(path string) {
	target := scancache.Canonical(path)
	gi.disk.distrustPath(target)
	gi.mu.Lock()
	var lives []*index.Live
	for _, r := range gi.roots {
		if r.live != nil {
			lives = append(lives, r.live)
		}
	}
	gi.mu.Unlock()
	for _, l := range lives {
		l.Touch(target)
	}
}

// dropAll forgets every index, and distrusts every published one built
// before now.
func (gi *grepIndexes) dropAll() {
	gi.disk.mu.Lock()
	gi.disk.distrustAllBefore = time.Now().UnixNano()
	gi.disk.distrust = gi.disk.distrust[:0]
	gi.disk.mu.Unlock()
	gi.mu.Lock()
	defer gi.mu.Unlock()
	for _, r := range gi.roots {
		gi.forget(r)
	}
}
