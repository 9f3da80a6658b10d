package engine

import (
	"slices"
	"sync"
	"sync/atomic"
)

// Stopping at a complete answer. With a limit (MaxCount), the answer is
// decided by the first files in path order: once they hold offset+MaxCount
// kept matches (matched files in ModeFilesWithMatches), no file after them
// can change the matches returned. Workers search runs of files in path
// order, several at once; a run is "behind the frontier" once it and every
// run before it are done. When the frontier's matches reach the need, the
// call stops reading.
//
// The answer must not depend on which runs happened to be read past that
// point, so shape trims by path order, not by what was read: the results
// of the files after the one where the need was met are dropped, and the
// counts are those of the files up to it, as 18.2.3 reports when it stops:
// totalMatches, filesWithMatches and filesSearched of the files up to the
// one that completed the answer (docs/compat.md). A file an index ruled
// out before that one counts as searched, as without the index.

// limitNeed returns what completes the answer of a directory grep with
// options o: the kept matches (files in ModeFilesWithMatches, per-file
// counts in ModeCount) that the first files must hold; 0 when there is no
// limit, and no stop.
func limitNeed(o GrepOptions) int {
	if o.MaxCount == nil || *o.MaxCount < 1 {
		return 0
	}
	return *o.MaxCount + max(0, deref(o.Offset))
}

// contribution is what file result r adds toward the need: its kept
// matches, its count in ModeCount, 1 in ModeFilesWithMatches.
func (g *grepper) contribution(r *fileResult) int {
	switch g.o.Mode {
	case ModeFilesWithMatches:
		return min(r.count, 1)
	case ModeCount:
		return r.count
	}
	return len(r.matches)
}

// progress is the frontier of one searchAll: which runs are done, and what
// the runs behind the frontier hold.
type progress struct {
	need int
	stop atomic.Bool // the frontier holds the need: read nothing more

	mu   sync.Mutex
	done []bool // per run
	got  []int  // per run: its files' contributions
	next int    // the first run not done
	acc  int    // the contributions of the runs before next
}

func newProgress(need, runs int) *progress {
	if need <= 0 {
		return nil
	}
	return &progress{need: need, done: make([]bool, runs), got: make([]int, runs)}
}

// stopped reports whether the answer is complete (false for nil).
func (p *progress) stopped() bool { return p != nil && p.stop.Load() }

// reached reports, for run i whose files so far contribute got, whether
// every run before i is done and the need is met with run i's files so
// far; it then stops the call.
func (p *progress) reached(i, got int) bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	ok := p.next == i && p.acc+got >= p.need
	p.mu.Unlock()
	if ok {
		p.stop.Store(true)
	}
	return ok
}

// finish records run i as done with contribution got and moves the
// frontier over the runs done (runs past the ones newProgress was told of
// are added).
func (p *progress) finish(i, got int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	if i >= len(p.done) {
		// A streamed grep's runs are numbered as the walk forms them.
		n := max(i+1, 2*len(p.done))
		p.done = append(p.done, make([]bool, n-len(p.done))...)
		p.got = append(p.got, make([]int, n-len(p.got))...)
	}
	p.done[i], p.got[i] = true, got
	for p.next < len(p.done) && p.done[p.next] {
		p.acc += p.got[p.next]
		p.next++
	}
	if p.acc >= p.need {
		p.stop.Store(true)
	}
	p.mu.Unlock()
}

// trimToLimit drops the results after the file at which the first files
// meet the limit's need (results sorted by file position), and reports
// whether it did meet it: g.results then hold the files up to that one,
// and filesSearched counts the files up to it that could be read, and
// those an index ruled out before it (skipBefore).
func (g *grepper) trimToLimit() {
	need := limitNeed(g.o)
	if need == 0 || g.listed == 0 {
		return
	}
	slices.SortFunc(g.results, func(a, b fileResult) int { return a.idx - b.idx })
	sum := 0
	for k := range g.results {
		if sum += g.contribution(&g.results[k]); sum >= need {
			last := g.results[k].idx
			g.results = g.results[:k+1]
			failed := 0
			for _, i := range g.unread {
				if i <= last {
					failed++
				}
			}
			g.searched = last + 1 - failed
			if last < len(g.skipBefore) {
				g.searched += int(g.skipBefore[last])
			}
			return
		}
	}
}
