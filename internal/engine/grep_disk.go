package engine

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/fence"
	"github.com/fscache/fscache/internal/idxstore"
	"github.com/fscache/fscache/internal/index"
	"github.com/fscache/fscache/internal/scancache"
	"github.com/fscache/fscache/internal/walk"
)

// Persisted indexes. With the disk policy (the default; FS_GREP_INDEX=memory
// keeps every index in the heap), a build writes the root's index to a
// file of the user's cache directory (internal/idxstore), published by an
// atomic rename under a lock, and uses it through a read-only mapping
// (internal/index's Open). Any process, watching or not, then uses it:
//
//   - Validated by metadata. A grep without `cache` on a root with no live
//     index walks the root with full detail (size, mtime in ns) and trusts
//     an entry only when the file's size and mtime are the ones recorded
//     when it was read, and that mtime is older than the build's start by
//     racySlack (a rewrite of the same size within the file system's
//     timestamp granularity cannot hide behind it: git's "racy clean"
//     rule). Every other file (new, changed, racy) is searched as without
//     an index.
//   - Adopted by a watched build. A root whose scan is watched builds its
//     Live from the published index: the entries the walk (after the Live
//     started hearing events) does not confirm are marked stale, and read
//     again as any stale entry.
//
// A build reads every file only when there is no usable published index,
// or when too many of its entries are no longer confirmed.

// racySlack: an entry whose recorded mtime is not older than its build's
// start by this much is never trusted (FAT's 2 s granularity, and the
// coarse clock file systems stamp with).
const racySlack = index.RacySlack

// Disk fallback reasons (stats).
const (
	idxDiskError = "disk_error" // the index directory or file could not be used
	idxLocked    = "locked"     // another process is writing the root's index
	// idxManyCandidates: a grep with a limit whose pattern the published
	// index cannot narrow much: searched without it (viaDisk).
	idxManyCandidates = "many_candidates"
)

// diskState is the grep indexes' persisted side.
type diskState struct {
	once  sync.Once
	store *idxstore.Store
	err   error

	mu     sync.Mutex
	opened map[scancache.Key]*diskIndex
	st     diskCounters
	// distrust: invalidated paths (grep_disk_distrust.go).
	distrust          []distrust
	distrustAllBefore int64
}

type diskCounters struct {
	queries, untrusted, published, adopted, merged int64
	lastError                                      string
}

// diskIndex is a published index mapped by this process, and the identity
// of the file it was opened from.
type diskIndex struct {
	ix *index.Index
	id os.FileInfo
}

// storeFor returns the index store, opened once (dir: the policy's, or
// idxstore.Dir()).
func (d *diskState) storeFor(dir string) (*idxstore.Store, error) {
	d.once.Do(func() {
		if dir == "" {
			if dir, d.err = idxstore.Dir(); d.err != nil {
				return
			}
		}
		d.store, d.err = idxstore.Open(dir)
	})
	return d.store, d.err
}

// diskKey describes key's scan policy in the index's header.
func diskKey(k scancache.Key) string {
	return fmt.Sprintf("grep-v1 hidden=%t gitignore=%t skipnm=%t follow=%t", k.Hidden, k.Gitignore,
		k.SkipNodeModules, k.FollowLinks)
}

// noteError records a failure of the disk side.
func (gi *grepIndexes) noteError(err error) {
	gi.disk.mu.Lock()
	gi.disk.st.lastError = err.Error()
	gi.disk.mu.Unlock()
	gi.countFallback(idxDiskError)
}

// countFallback is fallback with gi.mu not held.
func (gi *grepIndexes) countFallback(reason string) {
	gi.mu.Lock()
	gi.fallback(reason)
	gi.mu.Unlock()
}

// persisted returns the published index of key, mapped, nil when there is
// none (or it cannot be used: the reason is recorded). The mapping is kept
// while the published file stays the same.
func (gi *grepIndexes) persisted(key scancache.Key) *index.Index {
	st, err := gi.disk.storeFor(gi.policy.dir)
	if err != nil {
		gi.noteError(err)
		return nil
	}
	name := st.Name(key.Root, diskKey(key))
	f, err := st.OpenIndex(name)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			gi.noteError(err)
		}
		return nil
	}
	fi, err := f.Stat()
	f.Close()
	if err != nil {
		gi.noteError(err)
		return nil
	}
	d := &gi.disk
	d.mu.Lock()
	if o := d.opened[key]; o != nil && os.SameFile(o.id, fi) && o.id.ModTime().Equal(fi.ModTime()) && o.id.Size() == fi.Size() {
		d.mu.Unlock()
		return o.ix
	}
	d.mu.Unlock()
	ix, err := index.Open(st.Path(name))
	if err == nil {
		if h := ix.Header(); h.Root != key.Root || h.Key != diskKey(key) {
			ix.Close()
			err = fmt.Errorf("index %s is of %q (%s), not of %q", st.Path(name), h.Root, h.Key, key.Root)
		}
	}
	if err != nil {
		gi.noteError(err)
		return nil
	}
	d.mu.Lock()
	if d.opened == nil {
		d.opened = map[scancache.Key]*diskIndex{}
	}
	// The mapping of the file it replaces is released once unreachable
	// (a query in flight still holds it).
	d.opened[key] = &diskIndex{ix: ix, id: fi}
	d.mu.Unlock()
	return ix
}

// fullWalk walks key's root with full detail (size, mtime in ns). pause,
// when set, is called before each directory is read: a background build
// passes its wait, so that its walk yields to foreground calls as its
// reads of files do (on two cores, a build's walk beside a call's walk
// doubled the call's time).
func fullWalk(key scancache.Key, tok *cancel.Token, pause func()) ([]walk.Entry, error) {
	o := key.Options(tok)
	o.Full = true
	if pause != nil {
		o.OnDir = func(string) error {
			pause()
			return nil
		}
	}
	return walk.Scan(o)
}

// validator tells which entries of a published index a walk confirms.
type validator struct {
	ix         *index.Index
	racyFrom   int64    // the build's start less racySlack
	distrusted []string // invalidated paths (gi.disk.distrusted)
	now        int64    // when the validation started (unread entries' retry)
}

func newValidator(ix *index.Index, distrusted []string) validator {
	return validator{ix: ix, racyFrom: ix.Header().BuiltNs - int64(racySlack), distrusted: distrusted,
		now: time.Now().UnixNano()}
}

// confirms reports whether the index's entry id (Plan.Lookup's answer for
// e, -1: none) still describes e: same size and mtime, that mtime older
// than the build's start by racySlack, no invalidated path above it, and,
// for an entry recorded as not read, its retry not due
// (index.UnreadRetry): such an entry then counts as untrusted, and brings
// a rebuild that reads it again as any other.
func (v validator) confirms(id int, e *walk.Entry) bool {
	if id < 0 || e.RawPath != "" {
		return false
	}
	m := v.ix.FileMeta(id)
	return m.Size == e.Size && m.MtimeNs == e.Mtime && m.MtimeNs < v.racyFrom && !under(e.Path, v.distrusted) &&
		!v.ix.RetryDue(id, v.now)
}

// confirmsLinked is confirms for a build that keeps the entry (a watching
// process's Live relies on it, a merge reuses it): an entry of a file with
// hard links also needs the inode and ctime it recorded, which the walk
// does not give (fileMeta, one lstat), so that a Live's check of such
// entries at each query (index.Plan.Confirms) passes. m is the file's
// metadata, taken here for such a file (for Builder.Keep).
func (v validator) confirmsLinked(id int, e *walk.Entry, root string) (ok bool, m index.Meta) {
	m = index.Meta{Size: e.Size, MtimeNs: e.Mtime}
	if !v.confirms(id, e) {
		return false, m
	}
	rec := v.ix.FileMeta(id)
	if rec.Links <= 1 {
		return true, m
	}
	now := fileMeta(root + "/" + e.FSPath())
	return now.Ino == rec.Ino && now.CtimeNs == rec.CtimeNs && now.Size == rec.Size && now.MtimeNs == rec.MtimeNs, now
}

// untrustedOf returns the files of entries that ix (of the root root) has
// but does not describe as they are now, or that are under one of
// distrusted (files it lacks are fresh to any Plan).
func untrustedOf(ix *index.Index, root string, entries []walk.Entry, distrusted []string) []string {
	v := newValidator(ix, distrusted)
	plan := ix.Plan(index.Query{}, false)
	var out []string
	for i := range entries {
		e := &entries[i]
		if e.Type != walk.File {
			continue
		}
		if id := plan.Lookup(e.Path); id >= 0 {
			if ok, _ := v.confirmsLinked(id, e, root); !ok {
				out = append(out, e.Path)
			}
		}
	}
	return out
}

// viaDisk runs the search of root with ix, its published index (from
// persisted), validated by a walk with full detail, and reports whether it
// did. Files whose entries the walk does not confirm are searched; too
// many of them queue a rebuild (r).
func (g *grepper) viaDisk(gi *grepIndexes, r *indexedRoot, root string, key scancache.Key, ix *index.Index) (bool, error) {
	q := g.indexQuery()
	if q.All() {
		// Nothing to rule out: searched as without an index, without the
		// cost of a walk with full detail.
		gi.countFallback(idxNoTrigram)
		return false, nil
	}
	distrusted, all := gi.disk.distrusted(root, ix.Header().BuiltNs)
	if all {
		return false, nil
	}
	fwm := g.o.Mode == ModeFilesWithMatches
	if limitNeed(g.o) > 0 {
		// The answer may be complete after the first few matching files
		// in path order: where the index leaves many of the first files
		// to search, a search without it reaches them after a plain
		// walk, cheaper than the walk with full detail. Decided from the
		// first manyProbe files, which is what such a grep reads first
		// and costs a tenth of the whole plan on a large tree (Open left
		// the file table's entries unread: this costs no Check either).
		n := min(ix.Len(), manyProbe)
		if ix.CandidatesAmongFirst(q, fwm, n) > n/manyCandidates {
			gi.countFallback(idxManyCandidates)
			return false, nil
		}
	}
	plan := ix.Plan(q, fwm)
	if err := ix.Check(); err != nil {
		gi.discard(key, fmt.Errorf("index of %s: %w", root, err))
		return false, nil // searched without it
	}
	if limitNeed(g.o) > 0 && !g.outOfReach(plan.Candidates()) {
		// The answer may be complete after the first files in path order:
		// validated as the walk reaches them, in path order, and no
		// further (grep_stream.go).
		if done, err := g.viaDiskStream(gi, r, root, key, ix, plan, distrusted); done {
			return true, err
		}
		if ix.Corrupt() {
			return false, nil // discarded: searched without it
		}
	}
	entries, err := fullWalk(key, g.tok, nil)
	if err != nil {
		return true, err
	}
	if len(entries) >= releaseFrom {
		gi.releaseIdle()
	}
	files, err := g.candidates(pointers(entries), len(entries), 0)
	if err != nil {
		return true, err
	}
	v := newValidator(ix, distrusted)
	if gi.policy.onQuery != nil {
		gi.policy.onQuery(g.tok)
	}
	sel := files[:0:0]
	before := make([]int32, 0, len(files))
	skipped, untrusted := 0, 0
	for i, f := range files {
		if i&255 == 0 && g.tok.Poll() || g.tok.Stopped() {
			return true, g.tok.Err()
		}
		id := plan.Lookup(f.Path)
		switch {
		case !v.confirms(id, f):
			untrusted++
		case plan.DecideID(id) == index.Skip:
			skipped++
			continue
		}
		sel = append(sel, f)
		before = append(before, int32(skipped))
	}
	if ix.Corrupt() {
		// A posting list did not decode: the index is not used again.
		gi.discard(key, fmt.Errorf("index of %s: corrupt posting list", root))
		return true, g.searchAll(root, files, 0)
	}
	gi.noteDiskQuery(r, len(sel), skipped, untrusted, len(files))
	g.skipBefore = before
	err = g.searchAll(root, sel, 0)
	g.countSkipped(skipped)
	return true, err
}

// viaDiskStream is viaDisk for a grep with a limit: the walk streams in
// path order with full detail, each file is validated and decided by the
// plan as the walk emits it, and the walk and the reads stop once the
// answer is complete. done is false, with nothing kept, when the walk
// gives no order (the caller validates the full walk) or the index proved
// corrupt (discarded: the caller searches without it).
func (g *grepper) viaDiskStream(gi *grepIndexes, r *indexedRoot, root string, key scancache.Key, ix *index.Index, plan *index.Plan, distrusted []string) (bool, error) {
	sx := &streamIndex{plan: plan, v: newValidator(ix, distrusted)}
	if gi.policy.onStream != nil {
		gi.policy.onStream()
	}
	if gi.policy.onQuery != nil {
		gi.policy.onQuery(g.tok)
	}
	n, err := g.searchStream(root, key, sx)
	if errors.Is(err, walk.ErrUnordered) {
		return false, nil
	}
	if err == nil && n >= releaseFrom {
		gi.releaseIdle()
	}
	if ix.Corrupt() {
		// A posting list did not decode: the index is not used again,
		// and nothing it decided is kept.
		gi.discard(key, fmt.Errorf("index of %s: corrupt posting list", root))
		g.mu.Lock()
		g.results, g.unread, g.searched, g.read, g.listed = nil, nil, 0, 0, 0
		g.skipBefore = nil
		g.mu.Unlock()
		if err != nil {
			return true, err
		}
		return false, nil
	}
	if err != nil {
		return true, err
	}
	g.mu.Lock()
	g.searched += sx.skipped // skipped files were read and hold no match
	searched := g.listed
	g.mu.Unlock()
	gi.noteDiskQuery(r, searched, sx.skipped, sx.untrusted, searched+sx.skipped)
	return true, nil
}

// releaseFrom is the number of entries from which a call that walked
// (a grep validated by a walk, viaDisk; an uncached call where nothing
// watches, scan) has the heap returned to the system once calls pause
// (releaseIdle). A variable for the tests.
var releaseFrom = 50_000

// releaseIdle returns the heap to the system (debug.FreeOSMemory) once no
// call has run for quietAfter, from one goroutine at a time, which then
// ends. A walk leaves its garbage, ~100 MB on a tree of 200k files, which
// the runtime otherwise keeps resident: where nothing watches (macOS,
// Windows), at every uncached call; and the builder, when its queue
// empties after a build.
func (gi *grepIndexes) releaseIdle() {
	if !gi.releasing.CompareAndSwap(false, true) {
		return
	}
	fence.Background(fence.HeapRelease, func() {
		defer gi.releasing.Store(false)
		for d := gi.busyFor(); d > 0; d = gi.busyFor() {
			time.Sleep(d)
		}
		fence.Point(fence.HeapRelease)
		debug.FreeOSMemory()
		gi.releases.Add(1)
	})
}

// outOfReach reports whether a grep's limit is beyond what c files can
// give it (each at most g.perFile), so that its answer cannot be complete
// before the whole tree is searched: the walk in path order that would
// stop early then only costs more than the unordered walk (babel, the
// agent's grep of a rare literal with the published index: 110-146 ms
// against 134-304 in path order). Files the index does not confirm are
// searched too and may reach the limit after all: the answer is the same
// either way, only the walk differs.
func (g *grepper) outOfReach(c int) bool {
	return g.perFile > 0 && int64(c)*int64(g.perFile) < int64(limitNeed(g.o))
}

// manyCandidates: a grep with a limit does not use a published index whose
// plan leaves more than 1/manyCandidates of the first manyProbe files (in
// path order) to search.
const manyCandidates = 8

// manyProbe is how many of the first files decide manyCandidates (a
// variable for the tests).
var manyProbe = 1 << 14

// noteDiskQuery records a query served from a published index, and queues
// a rebuild when too many of its entries are no longer confirmed.
func (gi *grepIndexes) noteDiskQuery(r *indexedRoot, searched, skipped, untrusted, files int) {
	gi.disk.mu.Lock()
	gi.disk.st.queries++
	gi.disk.st.untrusted += int64(untrusted)
	gi.disk.mu.Unlock()
	gi.noteQuery(r, searched, skipped)
	if untrusted > staleMax(files) {
		gi.enqueue(r)
	}
}

// staleMax is how many of a root's files may be untrusted or stale before
// its index is rebuilt.
func staleMax(files int) int { return max(reindexMax, files/16) }

// discard forgets key's mapped index and removes the published file (it
// failed a check).
func (gi *grepIndexes) discard(key scancache.Key, why error) {
	gi.noteError(why)
	d := &gi.disk
	d.mu.Lock()
	delete(d.opened, key)
	d.mu.Unlock()
	st, err := d.storeFor(gi.policy.dir)
	if err != nil {
		return
	}
	name := st.Name(key.Root, diskKey(key))
	if lk, ok, err := st.TryLock(name); err == nil && ok {
		_ = st.Remove(name)
		_ = lk.Unlock()
	}
}

// beforePublish, when set (tests), is called by a build between writing
// its index file and publishing it.
var beforePublish func()

// adopt returns key's published index when entries (a walk after the
// index was last heard of) confirm all but a few of its entries, with the
// paths they do not confirm.
func (gi *grepIndexes) adopt(key scancache.Key, entries []walk.Entry) (*index.Index, []string, bool) {
	ix := gi.persisted(key)
	if ix == nil {
		return nil, nil, false
	}
	if err := ix.Check(); err != nil {
		gi.discard(key, fmt.Errorf("index of %s: %w", key.Root, err))
		return nil, nil, false
	}
	rels, all := gi.disk.distrusted(key.Root, ix.Header().BuiltNs)
	un := untrustedOf(ix, key.Root, entries, rels)
	if all || len(un) > staleMax(len(entries)) {
		return nil, nil, false
	}
	gi.disk.mu.Lock()
	gi.disk.st.adopted++
	gi.disk.mu.Unlock()
	return ix, un, true
}

// racyEntries counts the files of entries an index built from t0 would not
// trust (their mtime is within racySlack of t0, or later).
func racyEntries(entries []walk.Entry, t0 time.Time) int {
	from := t0.UnixNano() - int64(racySlack)
	n := 0
	for i := range entries {
		if entries[i].Type == walk.File && entries[i].Mtime >= from {
			n++
		}
	}
	return n
}

// sleep waits d, or less when r's build is stopped or tok cancelled.
func (gi *grepIndexes) sleep(r *indexedRoot, tok *cancel.Token, d time.Duration) error {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if r.stop.Load() {
			return errStopped
		}
		if err := tok.Err(); err != nil {
			return err
		}
	}
	return nil
}

// errLocked ends a build that another process is doing.
var errLocked = errors.New("another process is writing this root's index")

// readDisk returns the index of r's root for a build: the published one
// when the walk (done now, after the caller's Live began hearing events)
// still confirms all but a few of its entries, with the paths it does not
// confirm; else a new one, read from every file, written and published.
func (gi *grepIndexes) readDisk(r *indexedRoot, tok *cancel.Token, yield bool) (*index.Index, []string, error) {
	st, err := gi.disk.storeFor(gi.policy.dir)
	if err != nil {
		return nil, nil, err
	}
	t0 := time.Now()
	pause := func() { gi.wait(r, yield) }
	entries, err := fullWalk(r.key, tok, pause)
	if err != nil {
		return nil, nil, err
	}
	if ix, un, ok := gi.adopt(r.key, entries); ok {
		return ix, un, nil
	}
	if yield && racyEntries(entries, t0) > staleMax(len(entries)) {
		// Most files were written just now (a checkout): an index read
		// now would trust none of them, and be rebuilt at once. Built in
		// the background, it waits until they are no longer racy.
		if err := gi.sleep(r, tok, racySlack); err != nil {
			return nil, nil, err
		}
		t0 = time.Now()
		if entries, err = fullWalk(r.key, tok, pause); err != nil {
			return nil, nil, err
		}
	}
	name := st.Name(r.key.Root, diskKey(r.key))
	lk, ok, err := st.TryLock(name)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, errLocked
	}
	defer lk.Unlock()
	// Another process may have published since the walk.
	if ix, un, ok := gi.adopt(r.key, entries); ok {
		return ix, un, nil
	}
	merged, err := gi.publish(st, name, r, entries, t0, tok, yield)
	if err != nil {
		return nil, nil, err
	}
	ix, err := index.Open(st.Path(name))
	if err == nil {
		if err = ix.VerifyBlobs(); err != nil {
			ix.Close()
			_ = st.Remove(name)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	gi.disk.mu.Lock()
	gi.disk.st.published++
	if merged {
		gi.disk.st.merged++
	}
	gi.disk.mu.Unlock()
	// Mapped through persisted's cache, so that greps share it (checked:
	// a mapping persisted makes now has not read its file table yet).
	if m := gi.persisted(r.key); m != nil && m.Check() == nil {
		ix.Close()
		ix = m
	}
	return ix, nil, nil
}

// publish writes r's index of entries (a walk started at t0) and
// publishes it as name in st, which the caller has locked: merged from
// the published index when it can be (mergeBase; merged reports it), else
// read from every file.
func (gi *grepIndexes) publish(st *idxstore.Store, name string, r *indexedRoot, entries []walk.Entry, t0 time.Time, tok *cancel.Token, yield bool) (merged bool, err error) {
	st.Sweep(name)
	base, distrusted := gi.mergeBase(r.key)
	p, err := st.Create(name)
	if err != nil {
		return false, err
	}
	err = gi.writeIndex(r, p.File(), entries, t0, tok, yield, base, distrusted)
	if err != nil && base != nil && !errors.Is(err, errStopped) && tok.Err() == nil {
		// Merging the published index failed (a list of it does not
		// decode): every file is read instead.
		gi.noteError(err)
		p.Abort()
		if p, err = st.Create(name); err != nil {
			return false, err
		}
		base = nil
		err = gi.writeIndex(r, p.File(), entries, t0, tok, yield, nil, nil)
	}
	if err != nil {
		p.Abort()
		return false, err
	}
	if beforePublish != nil {
		beforePublish()
	}
	return base != nil, p.Publish()
}

// mergeBase returns the published index of key for a rebuild to merge
// from (its entries of unchanged files reused, not read again), with the
// paths under which it is distrusted (invalidateFsScanCache); nil when
// there is none, it is wholly distrusted, or its posting lists fail their
// checksums.
func (gi *grepIndexes) mergeBase(key scancache.Key) (*index.Index, []string) {
	ix := gi.persisted(key)
	if ix == nil || ix.Corrupt() {
		return nil, nil
	}
	distrusted, all := gi.disk.distrusted(key.Root, ix.Header().BuiltNs)
	if all {
		return nil, nil
	}
	if err := ix.VerifyBlobs(); err != nil {
		gi.noteError(fmt.Errorf("index of %s: %w", key.Root, err))
		return nil, nil
	}
	return ix, distrusted
}

// writeIndex reads the files of entries into an index written to f. With
// a base (mergeBase), the files whose entries it still describes (trusted,
// not under distrusted) keep them, unread.
func (gi *grepIndexes) writeIndex(r *indexedRoot, f *os.File, entries []walk.Entry, t0 time.Time, tok *cancel.Token, yield bool, base *index.Index, distrusted []string) error {
	b := index.Builder{Pause: func() { gi.wait(r, yield) }, BuiltNs: t0.UnixNano()}
	b.Spill(f)
	var keep func(e *walk.Entry) bool
	if base != nil {
		b.Base(base)
		plan := base.Plan(index.Query{}, false)
		v := newValidator(base, distrusted)
		keep = func(e *walk.Entry) bool {
			id := plan.Lookup(e.Path)
			ok, m := v.confirmsLinked(id, e, r.key.Root)
			return ok && b.Keep(e.Path, id, m)
		}
	}
	if err := gi.addFiles(r, &b, pointers(entries), tok, yield, nil, keep); err != nil {
		b.Abort()
		return err
	}
	return b.WriteFile(f, index.Header{Root: r.key.Root, Key: diskKey(r.key), BuiltNs: t0.UnixNano()})
}

// buildUnwatched builds r's published index for a process that does not
// watch (its greps validate it by metadata): no Live.
func (gi *grepIndexes) buildUnwatched(r *indexedRoot, tok *cancel.Token, yield bool) error {
	gi.wait(r, yield)
	t0 := time.Now()
	_, _, err := gi.readDisk(r, tok, yield)
	if err != nil {
		reason := ""
		switch {
		case errors.Is(err, errLocked):
			reason = idxLocked
		case !errors.Is(err, errStopped) && tok.Err() == nil:
			gi.noteError(err) // counted as disk_error
		}
		gi.failed(r, reason, false)
		return err
	}
	d := time.Since(t0)
	gi.mu.Lock()
	gi.st.builds++
	gi.st.buildTime += d
	gi.st.lastBuild = d
	gi.mu.Unlock()
	return nil
}

// diskIndexDir is where the published indexes are, for stats ("" when
// the disk policy is off or the directory is unusable).
func (gi *grepIndexes) diskIndexDir() string {
	if !gi.policy.disk {
		return ""
	}
	st, err := gi.disk.storeFor(gi.policy.dir)
	if err != nil {
		return ""
	}
	return st.Location()
}
