package engine

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/fence"
	"github.com/fscache/fscache/internal/index"
	"github.com/fscache/fscache/internal/scancache"
	"github.com/fscache/fscache/internal/search"
	"github.com/fscache/fscache/internal/walk"
)

// Indexed grep. A root (a scan-cache key: root, hidden, gitignore,
// node_modules pruning) that grep searched twice within indexWindow gets a
// content index (internal/index), built in the background by one goroutine
// that yields to every foreground call, and kept current by the events of
// the scan cache's watcher of the root. A grep on an indexed root takes the
// file list from the watched scan (current: the scan cache drains the
// root's events first, and the index hears them) and searches only the
// files the index cannot rule out; the others are counted as searched, as
// they would have been. Everything else runs as without an index: patterns
// without a usable trigram, roots whose watcher fell back, and any doubt.

// Environment.
const (
	// envIndex: "0": off; "memory": indexes kept in the heap only, not
	// persisted (grep_disk.go); "eager": index at the first grep, built in
	// the call (tests). "eager,memory" combines the two.
	envIndex   = "FS_GREP_INDEX"
	envIndexMB = "FS_GREP_INDEX_MB" // the memory of all indexes, MiB
)

// defaultIndexMB caps the memory of every index together. Indexes take
// about 0.23 bytes per byte of text (Go's src, 109 MB of text in 11 500
// files: 25 MB): 256 MiB holds the indexes of about 1.1 GB of source, a
// few large repositories, and stays small beside the memory of the agent
// that loads the library.
const defaultIndexMB = 256

const (
	// indexWindow: a second grep of a root within it starts an index.
	indexWindow = 5 * time.Minute
	// reindexMax: files read again within a call to bring their entries
	// up to date (more of them: searched as they are, and the index is
	// rebuilt in the background).
	reindexMax = 256
	// yieldPoll: how often a yielding builder looks for a foreground call
	// in flight to have ended.
	yieldPoll = time.Millisecond
	// quietAfter: how long after a foreground call a builder still waits.
	// Calls in a burst (a loop of greps, @-mention keystrokes) then never
	// share the CPU, the caches or a GC cycle with a build, which runs in
	// the pauses between bursts (an agent's greps are seconds apart). It
	// is measured in make bench's grep rows (back-to-back calls), where a
	// builder working in the sub-millisecond gaps made each call about 20%
	// slower.
	quietAfter = 25 * time.Millisecond
	// maxNoted: roots remembered before the ones grepped long ago are
	// forgotten.
	maxNoted = 256
	// drainEvery: files between two drains of the root's events by a
	// builder, so that it hears early of a root that went away.
	drainEvery = 512
)

// Index fallback reasons, beside the scan cache's (stats).
const (
	idxNoTrigram  = "no_trigram"  // the pattern has no usable trigram
	idxNotWatched = "not_watched" // the root's scan is not kept current by watching
	idxTooLarge   = "too_large"   // the root's index alone would exceed the memory cap
	idxEvicted    = "evicted"     // dropped, least recently used, past the memory cap
	idxError      = "error"       // the build failed
	idxPanic      = "panic"       // the build panicked (recovered: cacheStats().dropped says where)
)

type indexPolicy struct {
	off    bool
	eager  bool
	capMem int64
	// disk persists indexes (grep_disk.go) in dir (idxstore.Dir() when
	// empty).
	disk bool
	dir  string
	// onFile, when set (tests), is called by a build after each file it
	// read, with the build's token; onQuery by an indexed grep before it
	// narrows the files, with the call's.
	onFile, onQuery func(tok *cancel.Token)
	// onStream, when set (tests), is called by a grep with a limit that
	// validates a published index in path order (viaDiskStream).
	onStream func()
}

func indexPolicyFromEnv() indexPolicy {
	p := indexPolicy{capMem: defaultIndexMB << 20, disk: true}
	for _, w := range strings.Split(os.Getenv(envIndex), ",") {
		switch strings.TrimSpace(w) {
		case "0", "off", "false":
			p.off = true
		case "eager":
			p.eager = true
		case "memory":
			p.disk = false
		}
	}
	if v, err := strconv.ParseInt(strings.TrimSpace(os.Getenv(envIndexMB)), 10, 64); err == nil && v >= 0 {
		p.capMem = v << 20
	}
	return p
}

// grepIndexes are the content indexes of the process, kept with the scan
// cache whose watchers keep them current.
type grepIndexes struct {
	policy indexPolicy
	// active counts the foreground calls in flight, lastCall is when the
	// last one ended (UnixNano): a builder waits while there are any, and
	// for quietAfter after the last.
	active   atomic.Int64
	lastCall atomic.Int64
	// releasing: a releaseIdle goroutine runs; releases counts those
	// that returned the heap (tests).
	releasing atomic.Bool
	releases  atomic.Int64

	mu       sync.Mutex
	roots    map[scancache.Key]*indexedRoot
	queue    []*indexedRoot
	disk     diskState // the published indexes (policy.disk)
	building bool      // the builder goroutine runs
	st       indexCounters
}

// indexedRoot is one key's index state.
type indexedRoot struct {
	key      scancache.Key
	lastGrep time.Time
	lastUse  time.Time
	live     *index.Live // ready to serve; nil before the first build ends
	remove   func()      // unregisters live from the watcher
	queued   bool
	stop     atomic.Bool // the build must stop (root dropped)
	size     int64
	noIndex  string // why this root is not indexed, for good
}

type indexCounters struct {
	builds, buildFails   int64
	buildTime, lastBuild time.Duration
	queries, candidates  int64
	skipped, reindexed   int64
	fallbacks            map[string]int64
	fallbackRoots        map[string]string
}

var (
	indexOnce sync.Once
	indexes   *grepIndexes
)

// grepIndex returns the process's indexes, nil when indexing is off.
func grepIndex() *grepIndexes {
	indexOnce.Do(func() {
		p := indexPolicyFromEnv()
		if !p.off {
			indexes = &grepIndexes{policy: p, roots: map[scancache.Key]*indexedRoot{}}
		}
	})
	return indexes
}

// foreground marks a foreground call in flight until the returned function
// is called: background builds wait meanwhile.
func foreground() func() {
	gi := grepIndex()
	if gi == nil {
		return func() {}
	}
	gi.active.Add(1)
	return func() {
		gi.lastCall.Store(time.Now().UnixNano())
		gi.active.Add(-1)
	}
}

// busyFor returns how long a background build should wait before it asks
// again: yieldPoll while a foreground call is in flight, what is left of
// quietAfter once the last one ended, 0 when it may run.
func (gi *grepIndexes) busyFor() time.Duration {
	if gi.active.Load() > 0 {
		return yieldPoll
	}
	return max(0, quietAfter-time.Duration(time.Now().UnixNano()-gi.lastCall.Load()))
}

func (gi *grepIndexes) fallback(reason string) {
	if gi.st.fallbacks == nil {
		gi.st.fallbacks = map[string]int64{}
	}
	gi.st.fallbacks[reason]++
}

// note records a grep of key and returns its root state, creating it, and
// whether an index should be built now. gi.mu not held.
func (gi *grepIndexes) note(key scancache.Key, now time.Time) (r *indexedRoot, build bool) {
	gi.mu.Lock()
	defer gi.mu.Unlock()
	r = gi.roots[key]
	if r == nil {
		if len(gi.roots) >= maxNoted {
			// Forget the roots grepped once, long ago.
			for k, o := range gi.roots {
				if o.live == nil && !o.queued && o.noIndex == "" && now.Sub(o.lastGrep) > indexWindow {
					delete(gi.roots, k)
				}
			}
		}
		r = &indexedRoot{key: key}
		gi.roots[key] = r
		if !gi.policy.eager {
			r.lastGrep = now
			return r, false
		}
	}
	again := gi.policy.eager || now.Sub(r.lastGrep) <= indexWindow
	r.lastGrep, r.lastUse = now, now
	build = again && r.live == nil && !r.queued && r.noIndex == ""
	if build && gi.policy.eager {
		r.queued = true // built by this call: not by a concurrent one too
	}
	return r, build
}

// viaIndex runs the search of the directory root (scan key key) with the
// index when there is a live one, or (disk policy, no cache) a published
// one, and reports whether it did; otherwise the caller searches as
// without an index. A grep that makes an index wanted queues its build
// (or, eager, builds it first).
func (g *grepper) viaIndex(root string, key scancache.Key) (bool, error) {
	gi := grepIndex()
	watching := scanCache().Watching()
	if gi == nil || !watching && !gi.policy.disk {
		return false, nil
	}
	if watching {
		if anc, live, rel := gi.ancestor(key); anc != nil {
			// A directory under an indexed root: served from that root's
			// index when the root's scan holds the directory.
			if done, err := g.serveFrom(gi, anc, live, rel); done {
				return true, err
			}
		}
	}
	r, build := gi.note(key, time.Now())
	gi.mu.Lock()
	live := r.live
	gi.mu.Unlock()
	// A published index serves uncached greps until a live one is ready
	// (a new process; a process that does not watch).
	viaDisk := gi.policy.disk && !g.o.Cache && live == nil
	var published *index.Index
	if viaDisk || build && gi.policy.disk && !watching {
		published = gi.persisted(key)
	}
	if build {
		if done, err := g.startBuild(gi, r, root, key, watching, viaDisk && published != nil, published != nil); done {
			return true, err
		}
		gi.mu.Lock()
		live = r.live
		gi.mu.Unlock()
		if viaDisk = viaDisk && live == nil; viaDisk && gi.policy.eager {
			published = gi.persisted(key) // the build may have published one
		}
	}
	if viaDisk && published != nil {
		if done, err := g.viaDisk(gi, r, root, key, published); done {
			return true, err
		}
	}
	if live == nil {
		return false, nil
	}
	return g.serveFrom(gi, r, live, "")
}

// startBuild starts the build of r's index: in the call when eager, else
// queued. A watched, uncached grep that has no published index to use
// (viaDisk) is searched here, over the fresh watched scan the build will
// listen to (done true). published: key has a published index.
func (g *grepper) startBuild(gi *grepIndexes, r *indexedRoot, root string, key scancache.Key, watching, viaDisk, published bool) (bool, error) {
	if gi.policy.eager {
		err := gi.build(r, g.tok, false)
		gi.mu.Lock()
		r.queued = false
		gi.mu.Unlock()
		if err != nil && g.tok.Err() != nil {
			return true, err
		}
		return false, nil
	}
	if !watching {
		// Nothing watches: the index is the published one, which greps
		// validate and rebuild when too much of it is unconfirmed
		// (noteDiskQuery); built here only when there is none.
		if !published {
			gi.enqueue(r)
		}
		return false, nil
	}
	if g.o.Cache || viaDisk {
		gi.enqueue(r)
		return false, nil
	}
	// The scan of this call is cached (and watched) for the build: a
	// fresh scan all the same. It replaces the partition (and may close
	// its watcher), so it runs before the build is queued: a build
	// listening on the watcher it closes would stop.
	snap, err := scanCache().Rescan(key, true, g.tok)
	if err != nil {
		return true, err
	}
	gi.enqueue(r)
	files, err := g.candidates(snap.All(), snap.Len(), 0)
	if err != nil {
		return true, err
	}
	return true, g.searchAll(root, files, 0)
}

// serveFrom runs the search of the directory rel of r's root ("" for r's
// root itself) with live, r's index, and reports whether it did; it does
// not when the index was lost, or (rel not "") r's scan does not hold rel
// as a directory whose subtree is the one a scan of rel gives (rel hidden
// or ignored there). A pattern with no trigram searches every file of r's
// watched scan, which is current as the index is: no walk.
func (g *grepper) serveFrom(gi *grepIndexes, r *indexedRoot, live *index.Live, rel string) (bool, error) {
	snap, err := scanCache().Current(r.key, g.tok, live)
	if err != nil {
		if errors.Is(err, scancache.ErrNotWatched) {
			gi.drop(r, live, "")
			return false, nil
		}
		return true, err
	}
	// The entries to search: the root's, or those under rel, with their
	// root-relative paths (what the index knows), searched from the root
	// and reported without "rel/" (cut).
	lo, hi, cut := 0, snap.Len(), 0
	if rel != "" {
		var ok bool
		if lo, hi, ok = subtree(snap, rel); !ok {
			return false, nil
		}
		cut = len(rel) + 1
	}
	if limitNeed(g.o) > 0 {
		return g.serveLimited(gi, r, live, snap, lo, hi, cut)
	}
	files, at, err := g.snapFiles(snap, lo, hi, cut)
	if err != nil {
		return true, err
	}
	q := g.indexQuery()
	if q.All() {
		gi.mu.Lock()
		gi.fallback(idxNoTrigram)
		r.lastUse = time.Now()
		gi.mu.Unlock()
		return true, g.searchAll(r.key.Root, files, cut)
	}
	search, skipped, ok, err := g.narrow(gi, r, live, q, files, func(p *index.Plan) []int32 { return snapIDs(snap, p, at) })
	if !ok || err != nil {
		return ok, err
	}
	gi.noteQuery(r, len(search), skipped)
	err = g.searchAll(r.key.Root, search, cut)
	g.countSkipped(skipped)
	return true, err
}

// noteQuery records a grep of r served by its live index: candidates
// files searched, skipped ruled out.
func (gi *grepIndexes) noteQuery(r *indexedRoot, candidates, skipped int) {
	gi.mu.Lock()
	gi.st.queries++
	gi.st.candidates += int64(candidates)
	gi.st.skipped += int64(skipped)
	r.lastUse = time.Now()
	gi.mu.Unlock()
}

// countSkipped counts as searched the n files an index ruled out: they
// were read (by the build) and hold no match.
func (g *grepper) countSkipped(n int) {
	g.mu.Lock()
	g.searched += n
	g.mu.Unlock()
}

// serveLimited is serveFrom for a grep with a limit: snap's entries lo to
// hi-1 are taken in path order, each candidate the index does not rule out
// is handed to the search workers as it comes (fedSearch), and both stop
// once the answer is complete. A repeated grep whose answer lies in the
// first files of a large tree decides and reads those files, not every
// file of the tree. Files the index has no current entry for (Fresh) are
// searched as they are; the ones met are read again into the index after
// the search, as narrow does before it.
func (g *grepper) serveLimited(gi *grepIndexes, r *indexedRoot, live *index.Live, snap *scancache.Snapshot, lo, hi, cut int) (bool, error) {
	var plan *index.Plan
	var ids []int32
	if q := g.indexQuery(); q.All() {
		gi.mu.Lock()
		gi.fallback(idxNoTrigram)
		gi.mu.Unlock()
	} else {
		if plan = live.Plan(q, g.o.Mode == ModeFilesWithMatches); plan == nil {
			gi.drop(r, live, "")
			return false, nil
		}
		ids = snapAllIDs(snap, plan)
	}
	if gi.policy.onQuery != nil {
		gi.policy.onQuery(g.tok)
	}
	s := g.startFed(r.key.Root, cut, fedRunsAhead, fedInline, fedMountsFrom)
	ended := false
	defer func() {
		if !ended {
			s.end(true) // a panic (recovered by the caller): stop the workers
		}
	}()
	skipped := 0
	var fresh []*walk.Entry
	var err error
	// The candidates are decided by blocks (of 64 entries, growing to
	// 1024), whose decisions on files with hard links are checked at once
	// (linkCheck), then fed in order.
	var lc *linkCheck
	if plan != nil {
		lc = newLinkCheck(plan, live, r.key.Root)
		defer lc.close()
	}
	var bfiles []*walk.Entry
	var bids []int32
	var bdec []index.Decision
	blockN := 64
	flush := func() error {
		if len(bfiles) == 0 {
			return nil
		}
		lc.all(bfiles, bids, bdec, g.tok, g.panicked)
		for k, e := range bfiles {
			if s.stopped() || g.tok.Stopped() {
				break
			}
			switch bdec[k] {
			case index.Skip:
				skipped++
				continue
			case index.Fresh:
				fresh = append(fresh, e)
			}
			if err := s.feed(e, false, skipped); err != nil {
				return err
			}
		}
		bfiles, bids, bdec = bfiles[:0], bids[:0], bdec[:0]
		blockN = min(2*blockN, 1024)
		return nil
	}
	for i, e := range snap.Between(lo, hi) {
		if i&255 == 0 && g.tok.Poll() || s.stopped() {
			break
		}
		if i-lo == fedInlineEntries {
			s.parallel() // the answer is not in the first entries
		}
		if !g.candidate(e, e.Path[cut:]) {
			continue
		}
		if plan == nil {
			if err = s.feed(e, false, -1); err != nil {
				break
			}
			continue
		}
		bfiles, bids, bdec = append(bfiles, e), append(bids, ids[i]), append(bdec, plan.DecideAt(e.Path, int(ids[i])))
		if len(bfiles) == blockN {
			if err = flush(); err != nil {
				break
			}
		}
	}
	if err == nil && !s.stopped() {
		err = flush()
	}
	s.end(false)
	ended = true
	g.countSkipped(skipped)
	if plan != nil {
		gi.noteQuery(r, g.listed, skipped) // listed: the files fed
	} else {
		gi.mu.Lock()
		r.lastUse = time.Now()
		gi.mu.Unlock()
	}
	if err := g.check(); err != nil {
		return true, err
	}
	if len(fresh) > 0 {
		if _, err := gi.readFresh(r, live, fresh, g.tok); err != nil {
			return true, err
		}
	}
	return true, nil
}

// linkCheck confirms the decisions of a plan that rest on entries of
// files with hard links, which no directory's event covers and no watch of
// the file covers yet (index.Plan.NeedsCheck): by the file's metadata now
// (index.Plan.Confirms), one fstatat each, relative to the root's
// descriptor, many at once on as many goroutines as the search uses
// (numWorkers). A decision not confirmed becomes Fresh: the file is
// searched as it is, and read again into the index.
type linkCheck struct {
	plan *index.Plan
	live *index.Live
	root int // openDir's descriptor of the root, cwdDir when not opened
	pre  string
	abs  string // the root's path and "/"
}

// newLinkCheck returns the checks of plan's decisions (of live) for files
// under root; close releases the descriptor.
func newLinkCheck(plan *index.Plan, live *index.Live, root string) *linkCheck {
	c := &linkCheck{plan: plan, live: live, root: cwdDir, pre: root + "/", abs: root + "/"}
	if fd, ok := openDir(root); ok {
		c.root, c.pre = fd, ""
	}
	return c
}

func (c *linkCheck) close() {
	if c.root != cwdDir {
		closeDir(c.root)
	}
}

// one returns d, the plan's decision for the file e (id: its id in the
// plan's index), or Fresh when d rests on an entry of a file with hard
// links that the file's metadata now does not confirm. A file checked is
// watched first (index.Live.WatchFile), and its entry, once confirmed,
// covered by the watch (Cover): the next plans need no check of it.
func (c *linkCheck) one(e *walk.Entry, id int, d index.Decision) index.Decision {
	if !c.plan.NeedsCheck(e.Path, id, d) {
		return d
	}
	watched := c.live.WatchFile(e.Path, c.abs+e.FSPath())
	if !c.plan.Confirms(e.Path, id, fileMetaAt(c.root, c.pre+e.FSPath())) {
		return index.Fresh
	}
	if watched {
		c.live.Cover(c.plan, e.Path, id)
	}
	return d
}

// linkCheckParallel is how many checks per goroutine make linkCheck.all
// use more than the calling one.
const linkCheckParallel = 256

// all applies one to decided[i] (of files[i], whose id is ids[i]) for
// every i, on numWorkers goroutines when many need a check. It stops early,
// with decided in part unchecked, once tok stopped (the caller returns
// its error). A panic in a check's goroutine is given to panicked (the
// grep's: it stops tok with the panic as the call's error).
func (c *linkCheck) all(files []*walk.Entry, ids []int32, decided []index.Decision, tok *cancel.Token, panicked func(*fence.Error)) {
	var todo []int32
	for i, f := range files {
		if c.plan.NeedsCheck(f.Path, int(ids[i]), decided[i]) {
			todo = append(todo, int32(i))
		}
	}
	check := func(lo, hi int) {
		for k := lo; k < hi; k++ {
			if k&255 == 0 && tok.Stopped() {
				return
			}
			i := todo[k]
			decided[i] = c.one(files[i], int(ids[i]), decided[i])
		}
	}
	workers := min(numWorkers(), len(todo)/linkCheckParallel)
	if workers <= 1 {
		check(0, len(todo))
		return
	}
	var next atomic.Int64
	const chunk = 128
	// The checks run fenced: a panic in one stops the others and, through
	// panicked, the call.
	g := fence.Group{Stop: func(err *fence.Error) {
		next.Store(int64(len(todo)))
		panicked(err)
	}}
	for range workers {
		g.Go(fence.GrepSearch, func() {
			fence.Point(fence.GrepSearch)
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= len(todo) {
					return
				}
				check(lo, min(lo+chunk, len(todo)))
			}
		})
	}
	_ = g.Wait() // a panic's error is in tok (panicked)
}

// readFresh brings the entries of fresh, files live has no current entry
// for, up to date: read again into live when they are few (reread true),
// else left to a rebuild of r's index in the background, where they are
// searched as they are meanwhile. A large overlay is folded into a new
// base by a rebuild too.
func (gi *grepIndexes) readFresh(r *indexedRoot, live *index.Live, fresh []*walk.Entry, tok *cancel.Token) (reread bool, err error) {
	if len(fresh) > reindexMax {
		gi.enqueue(r)
		return false, nil
	}
	if err := gi.reindex(live, r.key.Root, fresh, tok); err != nil {
		return false, err
	}
	if ls := live.Stats(); ls.Overlay > max(reindexMax, ls.Files/16) {
		gi.enqueue(r)
	}
	return true, nil
}

// fedRunsAhead bounds the runs serveLimited decides ahead of the search
// workers: deciding is cheap, but a grep that stops early should not have
// decided much of the tree past its answer.
const fedRunsAhead = 8

// fedMountsFrom is the run from which serveLimited reads the mount table
// (mountsFrom for a fed search): reading it costs about as much as opening
// a few dozen directories, and a repeated grep whose answer lies in its
// first files never gets there, while a rare pattern's candidates are
// mostly alone in their directories.
const fedMountsFrom = 8

// fedInline is the number of files serveLimited searches on the calling
// goroutine before its workers start (fedSearch).
const fedInline = 32

// fedInlineEntries is the number of snap's entries after which
// serveLimited's workers start whatever was searched inline: the files
// that hold the answer are spread out (a rare pattern), and searching
// them in parallel with the deciding pays for waking the workers.
const fedInlineEntries = 1024

// indexQuery is the call's pattern as a query of trigrams.
func (g *grepper) indexQuery() index.Query {
	return index.Compile(search.Needs(search.Options{Pattern: g.o.Pattern, IgnoreCase: g.o.IgnoreCase,
		Multiline: g.o.Multiline}, index.MinLit))
}

// narrow returns the files of files that r's index (live) cannot rule out
// for the query q, and the number it ruled out; files changed since the
// index last heard of them are read again first (or, too many, searched
// as they are while the index is rebuilt). ok is false when the index was
// lost (dropped): the caller searches without it. idsOf returns the ids
// of files in a plan's index (Plan.Lookup's, -1: not listed).
func (g *grepper) narrow(gi *grepIndexes, r *indexedRoot, live *index.Live, q index.Query, files []*walk.Entry, idsOf func(*index.Plan) []int32) (search []*walk.Entry, skipped int, ok bool, err error) {
	fwm := g.o.Mode == ModeFilesWithMatches
	plan := live.Plan(q, fwm)
	if plan == nil {
		gi.drop(r, live, "")
		return nil, 0, false, nil
	}
	ids := idsOf(plan)
	// One decision per file, kept for the search below unless files are
	// read again (which changes the plan).
	decided := make([]index.Decision, len(files))
	var fresh []*walk.Entry
	for i, f := range files {
		if i&1023 == 0 && g.tok.Poll() || g.tok.Stopped() {
			return nil, 0, true, g.tok.Err()
		}
		decided[i] = plan.DecideAt(f.Path, int(ids[i]))
	}
	lc := newLinkCheck(plan, live, r.key.Root)
	lc.all(files, ids, decided, g.tok, g.panicked)
	lc.close()
	if g.tok.Stopped() {
		return nil, 0, true, g.tok.Err()
	}
	for i, f := range files {
		if decided[i] == index.Fresh {
			fresh = append(fresh, f)
		}
	}
	if len(fresh) > 0 {
		reread, err := gi.readFresh(r, live, fresh, g.tok)
		if err != nil {
			return nil, 0, true, err
		}
		if reread {
			next := live.Plan(q, fwm)
			if next == nil {
				gi.drop(r, live, "")
				return nil, 0, false, nil
			}
			// The files read again are decided by the new plan; the
			// others keep their decision (a file with hard links was
			// confirmed by its metadata above).
			nids := idsOf(next)
			for i, f := range files {
				if decided[i] == index.Fresh {
					if decided[i] = next.DecideAt(f.Path, int(nids[i])); decided[i] == index.Fresh {
						decided[i] = index.Search
					}
				}
			}
		}
	}
	if gi.policy.onQuery != nil {
		gi.policy.onQuery(g.tok)
	}
	search = files[:0:0]
	before := make([]int32, 0, len(files))
	defer func() { g.skipBefore = before }()
	for i, f := range files {
		if i&255 == 0 && g.tok.Poll() || g.tok.Stopped() {
			return nil, 0, true, g.tok.Err()
		}
		if d := decided[i]; d == index.Skip {
			skipped++
		} else {
			search = append(search, f)
			before = append(before, int32(skipped))
		}
	}
	return search, skipped, true, nil
}

// snapFiles returns the candidates among snap's entries lo to hi-1 (see
// candidates) with their positions. Without a glob or a type filter they
// are the files among them: kept with the snapshot (immutable), so that a
// repeated grep of an unchanged tree does not select them again. The
// slices returned are shared: read only.
func (g *grepper) snapFiles(snap *scancache.Snapshot, lo, hi, cut int) ([]*walk.Entry, []int32, error) {
	if g.glob != nil || g.types.on {
		return g.candidatesAt(snap.Between(lo, hi), hi-lo, cut, true)
	}
	key := snapFilesKey{lo, hi}
	if v, ok := snap.Kept(key); ok {
		kf := v.(*keptFiles)
		return kf.files[:len(kf.files):len(kf.files)], kf.at, nil
	}
	files, at, err := g.candidatesAt(snap.Between(lo, hi), hi-lo, cut, true)
	if err == nil {
		snap.Keep(key, &keptFiles{files: files, at: at})
	}
	return files[:len(files):len(files)], at, err
}

// snapFilesKey keys the files of a snapshot's entries lo to hi-1
// (snapFiles).
type snapFilesKey struct{ lo, hi int }

// keptFiles are the files of a range of a snapshot's entries, with their
// positions.
type keptFiles struct {
	files []*walk.Entry
	at    []int32
}

// snapIDs returns the ids in p's index of the entries of snap at the
// positions at (-1: not listed). The ids of all of snap's entries are
// looked up once per snapshot and index, and kept with the snapshot (both
// are immutable, so the ids stay true): a repeated grep of an unchanged
// tree spares a lookup by path per file.
func snapIDs(snap *scancache.Snapshot, p *index.Plan, at []int32) []int32 {
	all := snapAllIDs(snap, p)
	ids := make([]int32, len(at))
	for k, i := range at {
		ids[k] = all[i]
	}
	return ids
}

// snapAllIDs returns the ids in p's index of all of snap's entries, by
// position (see snapIDs). Shared: read only.
func snapAllIDs(snap *scancache.Snapshot, p *index.Plan) []int32 {
	ix := p.Index()
	key := snapIDsKey{weak.Make(ix)}
	var all []int32
	if v, ok := snap.Kept(key); ok && v.(*keptIDs).ix.Value() == ix {
		all = v.(*keptIDs).ids
	} else {
		all = make([]int32, snap.Len())
		for i, e := range snap.All() {
			all[i] = int32(p.Lookup(e.Path))
		}
		snap.Keep(key, &keptIDs{ix: key.ix, ids: all})
	}
	return all
}

// snapIDsKey keys the ids of a snapshot's entries in an index (snapIDs);
// weak, so that a snapshot does not keep an index it outlives (and its
// mapping) alive.
type snapIDsKey struct{ ix weak.Pointer[index.Index] }

// keptIDs are the ids of a snapshot's entries in the index ix; checked
// against the index asked for, should a new index ever share a reclaimed
// one's weak pointer.
type keptIDs struct {
	ix  weak.Pointer[index.Index]
	ids []int32
}

// ancestor returns the indexed root with a live index of which key's root
// is a subdirectory (the deepest, with the same scan options) and the
// relative path of key's root in it; nil when there is none.
func (gi *grepIndexes) ancestor(key scancache.Key) (*indexedRoot, *index.Live, string) {
	gi.mu.Lock()
	defer gi.mu.Unlock()
	var best *indexedRoot
	rel := ""
	for _, r := range gi.roots {
		k := r.key
		k.Root = key.Root
		if r.live == nil || k != key || (best != nil && len(r.key.Root) <= len(best.key.Root)) {
			continue
		}
		if sub, ok := relBelow(key.Root, r.key.Root); ok {
			best, rel = r, sub
		}
	}
	if best == nil {
		return nil, nil, ""
	}
	return best, best.live, rel
}

// relBelow returns path relative to dir when path is strictly below dir.
func relBelow(path, dir string) (string, bool) {
	if dir == "/" {
		return path[1:], len(path) > 1 && path[0] == '/'
	}
	if len(path) > len(dir)+1 && path[len(dir)] == '/' && strings.HasPrefix(path, dir) {
		return path[len(dir)+1:], true
	}
	return "", false
}

// subtree returns the range [lo, hi) of a root's scan that holds the
// entries below its directory rel: a scan of rel gives the same entries
// (paths without "rel/"). It is false when the scan does not list rel as a
// directory (it is then hidden, ignored or pruned in the root's scan, and
// a scan of rel would differ) or rel's raw name differs from its displayed
// one (then every raw path below it starts with rel's raw bytes, not rel).
func subtree(snap *scancache.Snapshot, rel string) (lo, hi int, ok bool) {
	i := snap.Search(rel)
	if i == snap.Len() {
		return 0, 0, false
	}
	if e := snap.At(i); e.Path != rel || e.Type != walk.Dir || e.RawPath != "" {
		return 0, 0, false
	}
	lo, hi = snap.Under(rel)
	return lo, hi, true
}

// reindex reads files again and installs their entries in live.
func (gi *grepIndexes) reindex(live *index.Live, root string, files []*walk.Entry, tok *cancel.Token) error {
	j := live.Begin()
	buf := getReadBuf()
	defer readBufs.Put(buf)
	for _, f := range files {
		if err := tok.Err(); err != nil {
			j.Abort()
			return err
		}
		abs := root + "/" + f.FSPath()
		m := fileMeta(abs) // before the read (index.Job.Add)
		data, ok := readFile(abs, (*buf)[:0])
		if cap(data) > cap(*buf) {
			*buf = data[:0]
		}
		j.Add(f.Path, data, ok && f.FSPath() == f.Path, m)
	}
	j.Commit()
	gi.mu.Lock()
	gi.st.reindexed += int64(len(files))
	gi.mu.Unlock()
	return nil
}
