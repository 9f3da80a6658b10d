package engine

import (
	"errors"
	"strings"
	"sync"
	"sync/atomic"

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
}

// add appends e to the list, publishing the run being built when e starts
// another one. f.mu held.
func (f *streamFeed) add(e walk.Entry) {
	if len(f.block) == cap(f.block) {
		f.block = make([]walk.Entry, 0, 256)
	}
	f.block = append(f.block, e)
	p := &f.block[len(f.block)-1]
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
	return len(f.files)-takenTo >= streamAhead
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

// searchStream searches the directory root (scan key key) while walking
// it in path order, and returns the number of entries the walk emitted.
// With sx (a published index), the walk reads full detail and the files
// sx rules out are counted as searched (skipBefore) instead of read. A
// walk that cannot give the order (walk.ErrUnordered) is returned as
// such, before any result: the caller searches the full walk instead.
func (g *grepper) searchStream(root string, key scancache.Key, sx *streamIndex) (int, error) {
	f := &streamFeed{}
	f.cond.L = &f.mu
	prog := newProgress(limitNeed(g.o), 64)
	var mounts atomic.Pointer[mountTable]
	rootDir := cwdDir
	if fd, ok := openDir(root); ok {
		rootDir = fd
		defer closeDir(fd)
	}
	var abort atomic.Bool // the walk gave no order: keep nothing
	var wg sync.WaitGroup
	for range max(1, numWorkers()) {
		wg.Go(func() {
			buf := getReadBuf()
			defer readBufs.Put(buf)
			var big bigRead
			defer big.put()
			defer func() {
				f.mu.Lock()
				f.quit++
				f.cond.Broadcast()
				f.mu.Unlock()
			}()
			for g.check() == nil && !prog.stopped() && !abort.Load() {
				run, i, files, ok := f.take()
				if !ok {
					return
				}
				*buf = g.searchRun(root, rootDir, files, run, i, prog, *buf, &big, mounts.Load(), 0)
			}
		})
	}
	emitted, unordered := 0, false
	workers := max(1, numWorkers())
	o := key.Options(g.tok)
	if sx != nil {
		o.Full, o.FullNanos = true, true
	}
	err := walk.ScanOrdered(o, func(e walk.Entry) error {
		emitted++
		if emitted&63 == 0 && (prog.stopped() || g.tok.Poll()) {
			return errStreamStop
		}
		if !g.candidate(&e, e.Path) {
			return nil
		}
		if sx != nil && sx.skip(&e) {
			return nil
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		for f.ahead() && f.quit < workers && !prog.stopped() && !g.tok.Stopped() {
			f.cond.Wait()
		}
		if f.quit == workers || prog.stopped() || g.tok.Stopped() {
			return errStreamStop
		}
		f.add(e)
		if sx != nil {
			// (read by trimToLimit once the workers are done)
			g.skipBefore = append(g.skipBefore, int32(sx.skipped))
		}
		if len(f.runs) == mountsFrom && mounts.Load() == nil {
			// As searchAll: a tree of many directories is opened
			// after the mount table.
			mounts.Store(readMounts())
		}
		return nil
	})
	switch {
	case errors.Is(err, walk.ErrUnordered):
		unordered = true
	case errors.Is(err, errStreamStop):
		err = nil
	}
	f.mu.Lock()
	f.cut()
	f.done = true
	f.cond.Broadcast()
	f.mu.Unlock()
	if unordered {
		// Stop the workers before any result is kept: the caller starts
		// over with the full walk.
		abort.Store(true)
	}
	wg.Wait()
	if unordered {
		g.mu.Lock()
		g.results, g.unread, g.searched, g.read = nil, nil, 0, 0
		g.skipBefore = nil
		g.mu.Unlock()
		return emitted, walk.ErrUnordered
	}
	f.mu.Lock()
	g.listed = len(f.files)
	f.mu.Unlock()
	if err != nil {
		return emitted, err
	}
	return emitted, g.check()
}
