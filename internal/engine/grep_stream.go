package engine

import (
	"errors"
	"math"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/fscache/fscache/internal/fence"
	"github.com/fscache/fscache/internal/index"
	"github.com/fscache/fscache/internal/scancache"
	"github.com/fscache/fscache/internal/walk"
)

// The first grep of a root. Where no scan of the root is at hand (no
// watched partition, no cache: the first uncached grep of a process, or
// every grep where nothing watches), a grep with a limit does not walk the
// whole tree before it reads: the walk emits the files in path order
// (walk.ScanOrdered), they are cut into runs of one directory as they
// come, and the search workers take the runs as they are formed. Once the
// files before the frontier complete the answer (grep_limit.go), the
// workers stop and so does the walk: a grep whose answer lies in the first
// files of a large tree reads those files and lists a few directories
// past them. The answer is the one of the full walk: the same files in
// the same order, trimmed and counted by position (TestGrepStreamMatchesFullWalk).

// streamAhead is the number of files the walk may emit ahead of the runs
// the workers have taken: it waits beyond, so that a grep that stops has
// not listed much of the tree past its answer.
const streamAhead = 512

// errStreamStop is the emit error that stops the walk once the answer is
// complete (or the call fails): not an error of the call.
var errStreamStop = errors.New("grep: answer complete")

// streamFeed is the list of files of a streamed grep, growing as the walk
// emits them, and its runs of one directory each.
type streamFeed struct {
	mu    sync.Mutex
	cond  sync.Cond
	files []*walk.Entry
	runs  []dirRun
	lo    int    // the first file of the run being built
	dir   string // its directory
	taken int    // runs handed to workers
	done  bool   // the walk is over: no more files
	quit  int    // workers gone
	block []walk.Entry
	// runsAhead, when not 0, also bounds the runs formed and not taken
	// (a feed whose files cost nothing to list: a snapshot's).
	runsAhead int
}

// add appends a copy of e to the list (see addPtr). f.mu held.
func (f *streamFeed) add(e walk.Entry) {
	if len(f.block) == cap(f.block) {
		f.block = make([]walk.Entry, 0, 256)
	}
	f.block = append(f.block, e)
	f.addPtr(&f.block[len(f.block)-1])
}

// addPtr appends p (not modified, kept until the search ends) to the
// list, publishing the run being built when p starts another one. f.mu
// held.
func (f *streamFeed) addPtr(p *walk.Entry) {
	fs := p.FSPath()
	if n := len(f.files); f.lo < n && (n-f.lo >= runMax || !inDir(fs, f.dir)) {
		f.cut()
	}
	if f.lo == len(f.files) {
		f.dir = fs[:max(0, strings.LastIndexByte(fs, '/'))]
	}
	f.files = append(f.files, p)
}

// cut publishes the run being built. f.mu held.
func (f *streamFeed) cut() {
	if f.lo < len(f.files) {
		f.runs = append(f.runs, dirRun{f.lo, len(f.files), f.dir})
		f.lo = len(f.files)
		f.cond.Signal()
	}
}

// take returns the next run, its number and the list it indexes; ok false
// when there is none left and the walk is over. It waits for the walk
// otherwise.
func (f *streamFeed) take() (run dirRun, i int, files []*walk.Entry, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for f.taken == len(f.runs) && !f.done {
		f.cond.Wait()
	}
	if f.taken == len(f.runs) {
		return dirRun{}, 0, nil, false
	}
	i = f.taken
	f.taken++
	f.cond.Broadcast() // the walk may be waiting for room
	return f.runs[i], i, f.files, true
}

// ahead reports whether the walk is streamAhead files or more ahead of
// the runs taken. f.mu held.
func (f *streamFeed) ahead() bool {
	takenTo := 0
	if f.taken > 0 {
		takenTo = f.runs[f.taken-1].hi
	}
	return len(f.files)-takenTo >= streamAhead || f.runsAhead > 0 && len(f.runs)-f.taken >= f.runsAhead
}

// streamIndex is what a streamed grep with a published index (viaDisk)
// needs to rule files out as the walk reaches them: the query's plan, and
// the validator that trusts an entry of the index only when the walk's
// full detail confirms it. Only the files the walk emits are validated:
// a grep that stops validates no more of the tree than it walked.
type streamIndex struct {
	plan *index.Plan
	v    validator
	// skipped counts the files ruled out so far, untrusted those the
	// walk did not confirm; both as the walk emits (the walk's goroutine
	// only).
	skipped, untrusted int
}

// skip reports whether the file e is ruled out by the index: confirmed
// unchanged since the build, and holding no match of the query.
func (sx *streamIndex) skip(e *walk.Entry) bool {
	id := sx.plan.Lookup(e.Path)
	switch {
	case !sx.v.confirms(id, e):
		sx.untrusted++
	case sx.plan.DecideID(id) == index.Skip:
		sx.skipped++
		return true
	}
	return false
}

// fedSearch is the search of a list of files fed in path order as it is
// formed (a walk's, or a snapshot's files an index does not rule out):
// workers take the runs of one directory as they are cut, and everything
// stops once the files before the frontier complete the answer
// (grep_limit.go).
//
// With inline (a feed whose files cost nothing to list), the feeding
// goroutine searches the first runs itself, and the workers start only
// once inline files have been searched (or the feeder calls parallel): a
// grep whose answer lies in its first files then runs on one thread. Waking a worker thread costs more
// than searching a few files on a machine whose CPUs sleep between calls
// (from C, ten milliseconds apart, grep `err` with a limit of 1 on Go's
// src: 0.66 ms with four workers, 0.30 on one thread).
type fedSearch struct {
	g       *grepper
	f       *streamFeed
	prog    *progress
	root    string
	cut     int
	workers int
	started bool // the workers run (else the feeding goroutine searches)
	inline  int  // files left to search inline before the workers start
	mounts  atomic.Pointer[mountTable]
	mountsN sync.Once
	// mountsAt is the run from which the mount table is read (searchRun:
	// a directory of few files is then not opened).
	mountsAt int
	rootDir  int
	abort    atomic.Bool // keep nothing: the caller starts over
	wg       fence.Group // the workers: a panic fails the call (g.panicked)
	// The inline search's buffers.
	buf *[]byte
	big bigRead
}

// startFed starts a fed search of files under root, reported without their
// first cut bytes (see candidates): its workers, or with inline > 0 none
// yet (see fedSearch). runsAhead, when not 0, bounds the runs fed ahead of
// the workers (streamFeed); the mount table is read once the search
// reaches run mountsAt.
func (g *grepper) startFed(root string, cut, runsAhead, inline, mountsAt int) *fedSearch {
	s := &fedSearch{g: g, f: &streamFeed{runsAhead: runsAhead}, prog: newProgress(limitNeed(g.o), 64),
		root: root, cut: cut, workers: max(1, numWorkers()), inline: inline, rootDir: cwdDir, mountsAt: mountsAt}
	s.f.cond.L = &s.f.mu
	s.wg.Stop = g.panicked
	if fd, ok := openDir(root); ok {
		s.rootDir = fd
	}
	if inline > 0 {
		s.buf = getReadBuf()
	} else {
		s.start()
	}
	return s
}

// start starts the workers.
func (s *fedSearch) start() {
	s.started = true
	g := s.g
	for range s.workers {
		s.wg.Go(fence.GrepFed, func() {
			buf := getReadBuf()
			defer readBufs.Put(buf)
			var big bigRead
			defer big.put()
			defer func() {
				s.f.mu.Lock()
				s.f.quit++
				s.f.cond.Broadcast()
				s.f.mu.Unlock()
			}()
			for g.check() == nil && !s.prog.stopped() && !s.abort.Load() {
				run, i, files, ok := s.f.take()
				if !ok {
					return
				}
				fence.Point(fence.GrepFed)
				s.search(run, i, files, buf, &big)
			}
		})
	}
}

// search searches run, number i of files, with the buffers buf and big.
func (s *fedSearch) search(run dirRun, i int, files []*walk.Entry, buf *[]byte, big *bigRead) {
	if i >= s.mountsAt {
		// As searchAll: a tree of many directories is opened after the
		// mount table, read once the search reaches that many.
		s.mountsN.Do(func() { s.mounts.Store(readMounts()) })
	}
	*buf = s.g.searchRun(s.root, s.rootDir, files, run, i, s.prog, *buf, big, s.mounts.Load(), s.cut)
}

// searchInline searches the runs cut and not taken on the feeding
// goroutine, as long as inline files are left, and starts the workers
// once none are. f.mu not held (nor held while searching).
func (s *fedSearch) searchInline() {
	f := s.f
	for {
		f.mu.Lock()
		if s.started || f.taken >= len(f.runs) || s.stopped() || s.g.check() != nil {
			f.mu.Unlock()
			return
		}
		i := f.taken
		run, files := f.runs[i], f.files
		f.taken++
		f.mu.Unlock()
		s.search(run, i, files, s.buf, &s.big)
		if s.inline -= run.hi - run.lo; s.inline <= 0 {
			s.parallel()
		}
	}
}

// parallel starts the workers if they have not started: the feed goes on
// long enough to share out.
func (s *fedSearch) parallel() {
	s.f.mu.Lock()
	if !s.started {
		s.start()
	}
	s.f.mu.Unlock()
}

// stopped reports whether the search needs no more files: the answer is
// complete, or the call was stopped.
func (s *fedSearch) stopped() bool { return s.prog.stopped() || s.g.tok.Stopped() }

// feed appends the file e (a copy when own, else e itself, which must
// stay unmodified until the search ends) once the workers are less than
// streamAhead files behind, and returns errStreamStop when the search
// needs no more files. skipped, with an index, is the number of files it
// ruled out so far (skipBefore); -1 without.
func (s *fedSearch) feed(e *walk.Entry, own bool, skipped int) error {
	f := s.f
	f.mu.Lock()
	for s.started && f.ahead() && f.quit < s.workers && !s.stopped() {
		f.cond.Wait()
	}
	if s.started && f.quit == s.workers || s.stopped() {
		f.mu.Unlock()
		return errStreamStop
	}
	if own {
		f.add(*e)
	} else {
		f.addPtr(e)
	}
	if skipped >= 0 {
		// (read by trimToLimit once the workers are done)
		s.g.skipBefore = append(s.g.skipBefore, int32(skipped))
	}
	inline := !s.started
	f.mu.Unlock()
	if inline {
		s.searchInline()
	}
	return nil
}

// end tells the workers that no more files come, waits for them, and
// records the number of files fed (g.listed). With abort the workers stop
// first and nothing they found is kept.
func (s *fedSearch) end(abort bool) {
	f := s.f
	f.mu.Lock()
	f.cut()
	started := s.started
	f.mu.Unlock()
	if !abort && !started {
		s.inline = math.MaxInt // the last runs: inline too
		s.searchInline()
	}
	f.mu.Lock()
	f.done = true
	f.cond.Broadcast()
	f.mu.Unlock()
	if abort {
		s.abort.Store(true)
	}
	s.wg.Wait()
	if s.buf != nil {
		readBufs.Put(s.buf)
		s.big.put()
	}
	if s.rootDir != cwdDir {
		closeDir(s.rootDir)
	}
	g := s.g
	if abort {
		g.mu.Lock()
		g.results, g.unread, g.searched, g.read = nil, nil, 0, 0
		g.skipBefore = nil
		g.mu.Unlock()
		return
	}
	f.mu.Lock()
	g.listed = len(f.files)
	f.mu.Unlock()
}

// searchStream searches the directory root (scan key key) while walking
// it in path order, and returns the number of entries the walk emitted.
// With sx (a published index), the walk reads full detail and the files
// sx rules out are counted as searched (skipBefore) instead of read. A
// walk that cannot give the order (walk.ErrUnordered) is returned as
// such, before any result: the caller searches the full walk instead.
func (g *grepper) searchStream(root string, key scancache.Key, sx *streamIndex) (int, error) {
	s := g.startFed(root, 0, 0, 0, mountsFrom)
	emitted := 0
	o := key.Options(g.tok)
	if sx != nil {
		o.Full = true
	}
	err := walk.ScanOrdered(o, func(e walk.Entry) error {
		emitted++
		if emitted&63 == 0 && (s.prog.stopped() || g.tok.Poll()) {
			return errStreamStop
		}
		if !g.candidate(&e, e.Path) {
			return nil
		}
		skipped := -1
		if sx != nil {
			if sx.skip(&e) {
				return nil
			}
			skipped = sx.skipped
		}
		return s.feed(&e, true, skipped)
	})
	unordered := errors.Is(err, walk.ErrUnordered)
	if errors.Is(err, errStreamStop) {
		err = nil
	}
	// Unordered: stop the workers before any result is kept; the caller
	// starts over with the full walk.
	s.end(unordered)
	if unordered {
		return emitted, walk.ErrUnordered
	}
	if err != nil {
		return emitted, err
	}
	return emitted, g.check()
}
