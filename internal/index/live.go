package index

import (
	"errors"
	"maps"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/fscache/fscache/internal/watch"
)

// Freshness. A Live is the index of one watched root. It receives every
// batch of change events its root's watcher yields, as the scan cache
// drains them before answering any call (scancache.Listener), and Lost
// when that watcher closes (overflow, watch limit, root gone, eviction):
// from then on events may be missing and the Live answers nothing.
//
// Events are applied at once: a file named by an event (created, written,
// truncated, deleted, renamed, its attributes changed), and every file
// under a directory named by one (created, deleted, moved, its attributes
// changed), loses its entry, so Plan says Fresh for it and grep searches
// it as without an index. An entry is only ever made from content read
// after the job that reads it has begun (Begin), and is kept only when no
// event has named the file or a directory above it since then; an event
// for a write is queued before the write returns, so any write after the
// read names the file in an event that the next drain delivers, before the
// next answer. So every entry a Plan uses is the content the file has when
// the call's drain is done.

// Files with hard links. A write through a name of a file in another
// directory raises no event in this one, so the entry of a file that had
// more than one name when read (flagLinked) is relied on only once the
// file's metadata now confirms it (NeedsCheck, Confirms): the inode, size,
// mtime and ctime recorded before the read, and an mtime older than the
// read by RacySlack (a write within the file system's timestamp
// granularity of the read could leave the mtime as it was).
//
// Files not read. An entry recorded as not read (the file could not be
// read) is read again (Plan says Fresh) once UnreadRetry has passed since
// the read, or at any event naming it; for a file with hard links, at any
// change of its metadata (NeedsCheck). Files larger than UnreadMaxSize are
// not read by rule, and never retried.

// RacySlack is how much older than its read a file's mtime must be for
// its entry to be trusted by metadata: FAT's 2 s granularity, and the
// coarse clock file systems stamp with.
const RacySlack = 2 * time.Second

// UnreadMaxSize is grep's size limit: a larger file is not read, by rule.
const UnreadMaxSize = 4 << 20

// UnreadRetry is how long after its read an entry recorded as not read is
// read again. A variable for the tests.
var UnreadRetry = time.Minute

// Watching files with hard links. The check of a linked file's metadata
// costs a stat at each query, so that a rare grep over a tree of linked
// files (`cp -al`) would cost a stat per file. Instead, the first check of
// such an entry (by the build that installs it, else by a query) places
// an inotify watch on the file itself (WatchFile, before the stat), on one
// inotify instance per Live: inotify watches inodes, so a change made through any
// of the file's names is an event, which Plan drains first, as the scan
// cache drains the directories' events before a call, and which drops the
// entry as a directory's event does. Once the stat after the watch
// confirmed the entry (Cover), later plans rely on it without a check
// until such an event. Where no watch can be placed (the watch limit,
// another system), the check stays a stat at each query.

// WatchLinked turns the watches of files with hard links on (a variable
// for the tests, which check the stat path too).
var WatchLinked = true

// maxFileWatches bounds the watches of files a Live places: they count
// against the user's inotify watch limit, which the scan cache's
// directory watches (and the user's other tools) need too. Go's src has
// 11,478 files; past the bound, files are checked by a stat.
const maxFileWatches = 16384

// Decision is what Plan says of one file.
type Decision uint8

// The decisions.
const (
	// Fresh: the index has no current entry for the file; search it.
	Fresh Decision = iota
	// Search: the file may hold a match (or its content is unknown to the
	// index); search it.
	Search
	// Skip: the file was read, holds no match, and is counted as searched.
	Skip
)

// overFile is a file read again since the base was built.
type overFile struct {
	flags uint8
	tris  []uint32
	// sum is the content's xxhash; same says that the content is the
	// base entry's (tris not read): Commit brings that entry back.
	sum  uint64
	same bool
	// meta is the file's metadata before the read, readNs when the job
	// that read it began.
	meta   Meta
	readNs int64
	bloom  bloom // a binary file's trigrams
}

// Live is a root's index kept current from its watcher's events.
type Live struct {
	root string

	mu    sync.Mutex
	base  *Index
	stale bitset // base ids without a current entry
	over  map[string]*overFile
	// overSize is the memory of over's trigram sets.
	overSize int64
	jobs     map[*Job]struct{}
	lost     string
	st       struct{ restored int64 }
	// The watches of files with hard links (WatchFile): files is made at
	// the first, filesOff once none can be (limit reached, unsupported);
	// byWD names the files of each watch; watched are the base ids, and
	// overWatched the overlay entries, that a watch covers (Cover).
	files       *watch.Files
	filesOff    bool
	byWD        map[int32][]string
	watched     bitset
	overWatched map[string]*overFile
}

// NewLive returns an empty Live for the root directory root (absolute,
// canonical, as the scan cache's events name it).
func NewLive(root string) *Live {
	return &Live{root: root, over: map[string]*overFile{}, jobs: map[*Job]struct{}{}}
}

// Root returns the root directory.
func (l *Live) Root() string { return l.root }

// Events applies a batch of the root's change events (scancache.Listener).
func (l *Live) Events(_ string, events []watch.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, ev := range events {
		rel, ok := relOf(l.root, ev.Dir)
		if !ok {
			continue // an ancestor: ignore rules, the scan cache's business
		}
		switch {
		case ev.Gone, ev.Name == "":
			l.touch(rel, true)
		case ev.IsDir:
			l.touch(join(rel, ev.Name), true)
		default:
			l.touch(join(rel, ev.Name), false)
		}
	}
}

// Lost marks the Live as unusable: its watcher closed (scancache.Listener).
// Its watches of files are released.
func (l *Live) Lost(reason string) {
	l.mu.Lock()
	if l.lost == "" {
		l.lost = reason
	}
	l.closeFiles()
	l.mu.Unlock()
}

// Close releases the Live's watches of files and makes it unusable, as
// Lost does: for a Live dropped by its owner.
func (l *Live) Close() { l.Lost("closed") }

// closeFiles releases the watches of files. l.mu held.
func (l *Live) closeFiles() {
	if l.files != nil {
		l.files.Close()
	}
	l.files, l.byWD, l.watched, l.overWatched = nil, nil, nil, nil
}

// WatchFile places a watch on the file rel, at the absolute path abs,
// itself, before the check of its metadata that makes Cover rely on it;
// false when it cannot (the file stays checked by a stat at each query).
func (l *Live) WatchFile(rel, abs string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !WatchLinked || l.filesOff || l.lost != "" {
		return false
	}
	if l.files == nil {
		f, err := watch.NewFiles()
		if err != nil {
			l.filesOff = true
			return false
		}
		l.files, l.byWD = f, map[int32][]string{}
	}
	if len(l.byWD) >= maxFileWatches {
		l.filesOff = true
		return false
	}
	wd, err := l.files.Add(abs)
	if err != nil {
		if errors.Is(err, watch.ErrLimit) {
			l.filesOff = true
		}
		return false
	}
	if !slices.Contains(l.byWD[wd], rel) {
		l.byWD[wd] = append(l.byWD[wd], strings.Clone(rel)) // kept: not a string of a caller's buffer
	}
	return true
}

// Cover records that the watch WatchFile placed on the file rel covers
// the entry p decided rel (id: its id in p's index) by, which a check of
// the file's metadata made after the watch confirmed: later plans rely on
// it without a check, until an event on the watch drops the entry. Nothing
// is recorded when that entry is no longer the Live's current one.
func (l *Live) Cover(p *Plan, rel string, id int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.files == nil || l.lost != "" {
		return
	}
	if of, ok := p.linked[rel]; ok {
		if l.over[rel] == of {
			if l.overWatched == nil {
				l.overWatched = map[string]*overFile{}
			}
			l.overWatched[rel] = of
		}
		return
	}
	if p.base != l.base || id < 0 || id >= l.base.Files || l.stale.has(uint32(id)) || l.over[rel] != nil {
		return
	}
	if len(l.watched) == 0 {
		l.watched = newBitset(l.base.Files)
	}
	l.watched.set(uint32(id))
}

// drainFiles applies the events of the watches of files: each file named
// loses its entry, as for a directory's event. An overflow, or a watcher
// that fails, drops every entry a watch covered, and the watches. l.mu
// held.
func (l *Live) drainFiles() {
	if l.files == nil {
		return
	}
	wds, overflow, err := l.files.Drain()
	if overflow || err != nil {
		for _, rels := range l.byWD {
			for _, rel := range rels {
				l.touch(rel, false)
			}
		}
		l.closeFiles()
		l.filesOff = err != nil
		return
	}
	for _, wd := range wds {
		for _, rel := range l.byWD[wd] {
			l.touch(rel, false)
		}
	}
}

// LostReason returns why the Live was lost, "" while it is current.
func (l *Live) LostReason() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lost
}

// Touch drops the entries of the file or directory at the absolute path
// abs (everything under the root when abs is the root or above it): what
// invalidateFsScanCache(abs) does to an index, for changes no event
// reports.
func (l *Live) Touch(abs string) {
	rel, ok := relOf(l.root, abs)
	if !ok {
		if _, above := relOf(abs, l.root); !above {
			return
		}
		rel = ""
	}
	l.mu.Lock()
	l.touch(rel, true)
	l.mu.Unlock()
}

// touch drops the entries of rel (a file), or of everything under rel (a
// directory, "" for the root), and records it in the running jobs. l.mu
// held.
func (l *Live) touch(rel string, dir bool) {
	for j := range l.jobs {
		if dir {
			j.prefixes = append(j.prefixes, rel)
		} else {
			j.paths[rel] = struct{}{}
		}
	}
	if !dir {
		if of := l.over[rel]; of != nil {
			l.overSize -= of.size()
			delete(l.over, rel)
		}
		if l.base != nil {
			if id := l.base.find(rel); id >= 0 {
				l.stale.set(uint32(id))
			}
		}
		return
	}
	if l.base != nil && rel != "" {
		if id := l.base.find(rel); id >= 0 {
			l.stale.set(uint32(id))
		}
	}
	for p, of := range l.over {
		if under(p, rel) {
			l.overSize -= of.size()
			delete(l.over, p)
		}
	}
	if l.base == nil {
		return
	}
	if rel == "" {
		l.stale.fill(l.base.Files)
		return
	}
	pre := rel + "/"
	ps := l.base.paths
	i, _ := slices.BinarySearch(ps, pre)
	for ; i < len(ps) && strings.HasPrefix(ps[i], pre); i++ {
		l.stale.set(uint32(i))
	}
}

func (of *overFile) size() int64 { return int64(cap(of.tris))*4 + int64(cap(of.bloom))*8 + 64 }

// under reports whether the relative path p is dir or lies below it.
func under(p, dir string) bool {
	return dir == "" || p == dir || strings.HasPrefix(p, dir) && p[len(dir)] == '/'
}

func relOf(root, path string) (string, bool) {
	switch {
	case path == root:
		return "", true
	case root == "/":
		return path[1:], strings.HasPrefix(path, "/")
	case strings.HasPrefix(path, root) && len(path) > len(root) && path[len(root)] == '/':
		return path[len(root)+1:], true
	}
	return "", false
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// Job reads files for a Live: the whole root (Install) or a few files
// (Commit). Events that arrive while it runs are recorded, and the files
// they name are left out of what it installs.
type Job struct {
	l        *Live
	paths    map[string]struct{}
	prefixes []string
	items    map[string]*overFile
	began    int64 // ns since the Unix epoch
}

// Begin starts a job; every file it reads must be read after Begin.
func (l *Live) Begin() *Job {
	j := &Job{l: l, paths: map[string]struct{}{}, items: map[string]*overFile{}, began: time.Now().UnixNano()}
	l.mu.Lock()
	l.jobs[j] = struct{}{}
	l.mu.Unlock()
	return j
}

// touched reports whether an event named rel since the job began. l.mu
// held.
func (j *Job) touched(rel string) bool {
	if _, ok := j.paths[rel]; ok {
		return true
	}
	for _, d := range j.prefixes {
		if under(rel, d) {
			return true
		}
	}
	return false
}

var gramSets = sync.Pool{New: func() any { return new(gramSet) }}

// Add records the content of the file rel, read after Begin (ok false:
// it could not be read), to be installed by Commit; m is its metadata
// taken before the read. A file with hard links is marked (flagLinked):
// its entry is relied on only once its metadata confirms it, and Commit
// drops the entries of its other names that are not so marked.
func (j *Job) Add(rel string, data []byte, ok bool, m Meta) {
	of := &overFile{flags: classify(rel, data, ok) | linkedIf(m), meta: m, readNs: j.began}
	if of.flags != 0 && of.flags&flagLinked == 0 {
		of.sum = xxhash.Sum64(data)
		l := j.l
		l.mu.Lock()
		if l.base != nil {
			if id := l.base.find(rel); id >= 0 && l.base.flags[id] == of.flags && l.base.sums[id] == of.sum {
				of.same = true // an identical rewrite: no re-index
			}
		}
		l.mu.Unlock()
	}
	if kindOf(of.flags) != 0 && !of.same {
		gs := gramSets.Get().(*gramSet)
		if kindOf(of.flags) == flagText {
			of.tris = slices.Clone(gs.of(data))
			slices.Sort(of.tris)
		} else {
			of.bloom = newBloom(gs.of(data))
		}
		gramSets.Put(gs)
	}
	j.items[rel] = of
}

// Commit installs the files the job read into the overlay, except those an
// event named since Begin, and ends the job.
func (j *Job) Commit() {
	l := j.l
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.jobs, j)
	if l.lost != "" || l.base == nil {
		return
	}
	l.dropNamesOf(j.items)
	for rel, of := range j.items {
		if j.touched(rel) {
			continue
		}
		if of.same {
			// The base entry holds this content, unless Install replaced
			// the base since Add: checked again.
			if id := l.base.find(rel); id >= 0 && l.base.sums[id] == of.sum && l.base.flags[id] == of.flags {
				l.stale.clear(uint32(id))
				if old := l.over[rel]; old != nil {
					l.overSize -= old.size()
					delete(l.over, rel)
				}
				l.st.restored++
				continue
			}
			continue // the base changed meanwhile: left Fresh
		}
		if old := l.over[rel]; old != nil {
			l.overSize -= old.size()
		}
		l.over[rel] = of
		l.overSize += of.size()
		if id := l.base.find(rel); id >= 0 {
			l.stale.set(uint32(id)) // the overlay has the current entry
		}
	}
}

// dropNamesOf drops the entries, not marked as of a file with hard links,
// of the other names of the files of items that have hard links: a link
// made in the tree to a file read before (with one name) raises an event
// for the new name only, and a write through it none for the old name,
// whose entry relied on events. Entries marked flagLinked are checked by
// their metadata at each query, and kept. l.mu held.
func (l *Live) dropNamesOf(items map[string]*overFile) {
	var inos map[uint64]string
	for rel, of := range items {
		if of.flags&flagLinked != 0 && of.meta.Ino != 0 {
			if inos == nil {
				inos = map[uint64]string{}
			}
			inos[of.meta.Ino] = rel
		}
	}
	if inos == nil {
		return
	}
	l.base.complete()
	for i, x := range l.base.inos {
		if rel, ok := inos[x]; ok && l.base.flags[i]&flagLinked == 0 && l.base.paths[i] != rel {
			l.stale.set(uint32(i))
		}
	}
	for p, of := range l.over {
		if rel, ok := inos[of.meta.Ino]; ok && of.flags&flagLinked == 0 && p != rel {
			l.overSize -= of.size()
			delete(l.over, p)
		}
	}
}

// Abort ends the job without installing anything.
func (j *Job) Abort() {
	j.l.mu.Lock()
	delete(j.l.jobs, j)
	j.l.mu.Unlock()
}

// Install makes ix, built by the job from files read after Begin, the base
// of the Live, with the entries of the files an event named since Begin
// marked stale, and ends the job.
func (j *Job) Install(ix *Index) {
	ix.complete() // before the lock: the Live reads its entries
	l := j.l
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.jobs, j)
	if l.lost != "" {
		return
	}
	stale := newBitset(ix.Files)
	for p := range j.paths {
		if id := ix.find(p); id >= 0 {
			stale.set(uint32(id))
		}
	}
	for _, d := range j.prefixes {
		if d == "" {
			stale.fill(ix.Files)
			break
		}
		pre := d + "/"
		i, _ := slices.BinarySearch(ix.paths, pre)
		for ; i < len(ix.paths) && strings.HasPrefix(ix.paths[i], pre); i++ {
			stale.set(uint32(i))
		}
	}
	// An overlay entry of a file the new base has current is redundant.
	for p, of := range l.over {
		if id := ix.find(p); id >= 0 && !stale.has(uint32(id)) {
			l.overSize -= of.size()
			delete(l.over, p)
		} else if id >= 0 {
			stale.set(uint32(id))
		}
	}
	l.base, l.stale, l.watched = ix, stale, nil
}

// Ready reports whether the Live has a base and is not lost.
func (l *Live) Ready() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.base != nil && l.lost == ""
}

// LiveStats describes a Live.
type LiveStats struct {
	// Files and Bytes are the files listed and the content indexed;
	// Size the memory held; Stale the base entries superseded or dropped;
	// Overlay the files read again since the base was built.
	Files          int
	Bytes, Size    int64
	Stale, Overlay int
	// Restored counts the entries brought back by an identical rewrite
	// (same content hash) without reading their trigrams.
	Restored int64
	// Watched counts the entries of files with hard links that a watch
	// of the file covers (Cover).
	Watched int
}

// Stats returns the Live's figures now.
func (l *Live) Stats() LiveStats {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := LiveStats{Overlay: len(l.over), Size: l.overSize, Restored: l.st.restored, Watched: len(l.overWatched)}
	s.Size += int64(len(l.byWD))*64 + int64(cap(l.watched))*8 // the watches of files (the paths are the scan's)
	for rel, of := range l.overWatched {
		if l.over[rel] != of {
			s.Watched-- // superseded since
		}
	}
	if l.base != nil {
		s.Files, s.Bytes = l.base.Files, l.base.Bytes
		s.Size += l.base.Size() + int64(cap(l.stale))*8
		s.Stale = l.stale.count()
		for i, w := range l.watched {
			if i < len(l.stale) {
				w &^= l.stale[i]
			}
			s.Watched += bits.OnesCount64(w)
		}
	}
	return s
}

// Plan is a Live's (or an Index's) answer for one query, as of the moment
// it was made.
type Plan struct {
	base  *Index
	stale bitset
	match bitset // nil: every text file of base may match
	over  map[string]Decision
	// linked are the overlay's entries of files with hard links;
	// watched and overWatched the Live's (Cover) as of the plan.
	linked      map[string]*overFile
	watched     bitset
	overWatched map[string]*overFile
	fwm         bool
	q           Query
	cur         int
	prev        string
	now         int64 // when the plan was made, ns since the Unix epoch
}

// Plan returns the decisions for q, nil when the Live cannot answer (not
// built yet, or lost). filesWithMatches is grep's mode of that name, where
// binary files are searched too.
func (l *Live) Plan(q Query, filesWithMatches bool) *Plan {
	l.mu.Lock()
	if l.base == nil || l.lost != "" {
		l.mu.Unlock()
		return nil
	}
	l.drainFiles()
	p := &Plan{base: l.base, stale: slices.Clone(l.stale), over: make(map[string]Decision, len(l.over)),
		fwm: filesWithMatches, q: q, now: time.Now().UnixNano(), watched: slices.Clone(l.watched),
		overWatched: maps.Clone(l.overWatched)}
	for rel, of := range l.over {
		if of.flags&flagLinked != 0 {
			if p.linked == nil {
				p.linked = map[string]*overFile{}
			}
			p.linked[rel] = of
		}
		if kindOf(of.flags) == 0 && p.retryDue(of.meta.Size, of.readNs) {
			p.over[rel] = Fresh
			continue
		}
		p.over[rel] = p.decide(of.flags, func() bool {
			if kindOf(of.flags) == flagBinary {
				return q.mayBloom(of.bloom)
			}
			return q.match(of.tris)
		})
	}
	l.mu.Unlock()
	p.match = p.base.matchOf(q)
	return p
}

func (p *Plan) decide(flags uint8, may func() bool) Decision {
	switch k := kindOf(flags); {
	case k == flagText && !may():
		return Skip
	case k == flagBinary && (!p.fwm || !may()):
		return Skip
	}
	return Search
}

// retryDue reports whether an entry recorded as not read, of a file of
// size bytes read at readNs, is to be read again (UnreadRetry).
func (p *Plan) retryDue(size, readNs int64) bool {
	return size <= UnreadMaxSize && p.now-readNs >= int64(UnreadRetry)
}

// NeedsCheck reports whether the decision d for the file rel (id: its id
// in the plan's index, Lookup's answer) rests on the entry of a file that
// had hard links when read, which no event covers: a Skip, or an entry
// recorded as not read (whose metadata tells when to read it again). The
// caller relies on d only when Confirms says that the file's metadata now
// is the entry's; else it takes the file as Fresh.
func (p *Plan) NeedsCheck(rel string, id int, d Decision) bool {
	if d == Fresh {
		return false
	}
	var f uint8
	if of, ok := p.linked[rel]; ok {
		if p.overWatched[rel] == of {
			return false // a watch covers it
		}
		f = of.flags
	} else if id >= 0 && id < p.base.Files {
		// The base's flag first: most files have one name, and their
		// decision needs no lookup in the overlay.
		if f = p.base.flags[id]; f&flagLinked == 0 {
			return false
		}
		runtime.KeepAlive(p)
		if _, over := p.over[rel]; over {
			return false // decided by the overlay's entry, with one name
		}
		if int(id>>6) < len(p.watched) && p.watched.has(uint32(id)) {
			return false // a watch covers it
		}
	}
	return f&flagLinked != 0 && (d == Skip || kindOf(f) == 0)
}

// Confirms reports whether now, the metadata of the file rel (id: its id
// in the plan's index) taken now, is the one recorded with its entry
// (inode, size, mtime, ctime), and that mtime older than the entry's read
// by RacySlack.
func (p *Plan) Confirms(rel string, id int, now Meta) bool {
	var m Meta
	var readNs int64
	if of, ok := p.linked[rel]; ok {
		m, readNs = of.meta, of.readNs
	} else {
		if _, over := p.over[rel]; over || id < 0 || id >= p.base.Files {
			return false
		}
		m, readNs = p.base.FileMeta(id), p.base.hdr.BuiltNs
	}
	return m.Ino == now.Ino && m.Size == now.Size && m.MtimeNs == now.MtimeNs && m.CtimeNs == now.CtimeNs &&
		m.MtimeNs < readNs-int64(RacySlack)
}

// Plan returns the decisions of the index alone for q: no entry is stale
// and there is no overlay. filesWithMatches is grep's mode of that name,
// where binary files are searched too.
func (ix *Index) Plan(q Query, filesWithMatches bool) *Plan {
	p := &Plan{base: ix, fwm: filesWithMatches, q: q, now: time.Now().UnixNano()}
	p.match = ix.matchOf(q)
	return p
}

// Decide returns the decision for the file rel. Calls in increasing order
// of rel are the fastest.
func (p *Plan) Decide(rel string) Decision {
	if d, ok := p.over[rel]; ok {
		return d
	}
	return p.DecideID(p.Lookup(rel))
}

// DecideAt is Decide for the file rel whose id in the plan's index is id
// (Lookup's answer for rel, -1: not listed), sparing the lookup.
func (p *Plan) DecideAt(rel string, id int) Decision {
	if d, ok := p.over[rel]; ok {
		return d
	}
	return p.DecideID(id)
}

// Index returns the index the plan decides from (for its Lookup ids).
func (p *Plan) Index() *Index { return p.base }

// DecideID returns the decision for the file of the plan's index with the
// id id (Lookup), Fresh for an id out of range. The overlay of a Live's
// plan is not consulted: the base entries it supersedes are stale, so
// Fresh.
func (p *Plan) DecideID(id int) Decision {
	if id < 0 || id >= p.base.Files {
		return Fresh
	}
	return p.decideID(uint32(id))
}

// Candidates counts the files of the plan's index that DecideID does not
// skip (Search or Fresh), as deciding each would, without the calls. It
// reads no file's entry: on an index from Open, it costs no Check.
func (p *Plan) Candidates() int {
	c := p.base.candidates(len(p.base.flags), p.match, p.stale, p.q, p.fwm)
	runtime.KeepAlive(p) // the base's mapping (disk.go) stays while used
	return c
}

// CandidatesAmongFirst counts, among the first n files of ix (in path
// order; all of them when n >= Len), those the decisions of ix.Plan(q,
// filesWithMatches) would not skip, without making the plan: the posting
// lists are read only as far as those files' documents, so that counting
// the first 16k of 200k files reads a twelfth of the lists. It reads no
// file's entry: on an index from Open, it costs no Check.
func (ix *Index) CandidatesAmongFirst(q Query, filesWithMatches bool, n int) int {
	n = max(0, min(n, ix.Files))
	lim := ix.docs
	if n < ix.Files {
		first, _ := ix.docRange(n)
		lim = int(first)
	}
	c := ix.candidates(n, q.eval(ix, lim), nil, q, filesWithMatches)
	runtime.KeepAlive(ix) // the mapping (disk.go) stays while used
	return c
}

// candidates counts the first n files of ix a plan would not skip: those
// in stale (Fresh), the text files in match (nil: all of them), the
// binary files q's filter does not rule out in filesWithMatches, and the
// files not read.
func (ix *Index) candidates(n int, match, stale bitset, q Query, filesWithMatches bool) int {
	c := 0
	for id, f := range ix.flags[:n] {
		switch {
		case id>>6 < len(stale) && stale.has(uint32(id)):
			c++ // Fresh
		case kindOf(f) == flagText:
			if match == nil || match.has(uint32(id)) {
				c++
			}
		case kindOf(f) == flagBinary:
			if filesWithMatches && q.mayBloom(ix.blooms.get(uint32(id))) {
				c++
			}
		default:
			c++ // not read: searched
		}
	}
	return c
}

// Lookup returns the id of the file rel in the plan's index, -1 when the
// index does not list it (a Live's overlay is not consulted). Calls in
// increasing order of rel are the fastest: a gallop from the previous
// answer.
func (p *Plan) Lookup(rel string) int {
	p.base.complete()
	ps := p.base.paths
	// In order, the file is most often the index's current or next one
	// (the same strings, which compare equal at once).
	switch c := p.cur; {
	case c < len(ps) && ps[c] == rel:
		p.prev = rel
		return c
	case c+1 < len(ps) && ps[c+1] == rel:
		p.cur, p.prev = c+1, rel
		return c + 1
	}
	if rel < p.prev {
		p.cur = 0
	}
	p.prev = rel
	if p.cur < len(ps) && ps[p.cur] < rel {
		// Gallop, then search.
		step := 1
		for p.cur+step < len(ps) && ps[p.cur+step] < rel {
			p.cur += step
			step *= 2
		}
		p.cur += sortSearch(ps[p.cur:min(len(ps), p.cur+step+1)], rel)
	}
	if p.cur >= len(ps) || ps[p.cur] != rel {
		return -1
	}
	return p.cur
}

// decideID is Decide for the file of the base index with the id id.
func (p *Plan) decideID(id uint32) Decision {
	if int(id>>6) < len(p.stale) && p.stale.has(id) {
		return Fresh
	}
	if kindOf(p.base.flags[id]) == 0 && p.base.RetryDue(int(id), p.now) {
		return Fresh
	}
	d := p.decide(p.base.flags[id], func() bool {
		if kindOf(p.base.flags[id]) == flagBinary {
			return p.q.mayBloom(p.base.blooms.get(id))
		}
		return p.match == nil || p.match.has(id)
	})
	runtime.KeepAlive(p) // the base's mapping (disk.go) stays while used
	return d
}

func sortSearch(ps []string, rel string) int {
	i, _ := slices.BinarySearch(ps, rel)
	return i
}
