package scancache

import (
	"iter"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/fscache/fscache/internal/walk"
)

// A snapshot's entries, sorted by path, are held in blocks of at most
// blockSize entries, and a snapshot is a list of runs, each a range of one
// block. Blocks are never modified once made, so a patched snapshot shares
// every block the change did not touch with the snapshot it came from:
// making it costs the changed entries plus a few words per run, not a copy
// of the tree (issue 20). What is derived from entries (pre-encoded
// results, fuzzy masks) is kept per block (Block.Derived), so it is shared
// with the blocks and a change rebuilds only the new blocks' share.
const (
	// blockSize bounds a block: the most one change's neighbours cost to
	// derive again, and the unit in which a fresh scan is cut.
	blockSize = 4096
	// smallRun: adjacent runs shorter than this are copied into one block
	// when a snapshot is patched, so that repeated changes in one place do
	// not leave a trail of tiny runs (the number of runs stays below
	// 2*len/smallRun+1).
	smallRun = 512
)

// Block is a run of consecutive entries of one or more snapshots, and the
// values derived from them. Its entries are never modified.
type Block struct {
	entries []walk.Entry
	derived derivedSet // see Derived (derived.go)
}

// Entries returns the block's entries; they must not be modified.
func (b *Block) Entries() []walk.Entry { return b.entries }

// run is the range [lo, hi) of a block's entries.
type run struct {
	b      *Block
	lo, hi int
}

// Snapshot is one completed scan. It must not be modified once published:
// a change produces a new Snapshot (NewSnapshot, or a patch that shares
// the unchanged blocks).
type Snapshot struct {
	Created time.Time
	runs    []run
	// starts[i] is the position in the snapshot of runs[i]'s first entry;
	// starts[len(runs)] is the number of entries.
	starts []int
	// kept are values derived from the whole snapshot (Keep).
	kept struct {
		mu sync.Mutex
		m  map[any]any
	}
}

// maxKept bounds the values a snapshot keeps (Keep): past it, a new key
// is not kept.
const maxKept = 16

// Kept returns the value kept under key (Keep), if any.
func (s *Snapshot) Kept(key any) (any, bool) {
	s.kept.mu.Lock()
	defer s.kept.mu.Unlock()
	v, ok := s.kept.m[key]
	return v, ok
}

// Keep keeps v, a value derived from the snapshot's entries alone (a
// glob's selection), under key for as long as the snapshot lives (at most
// maxKept keys). The snapshot's entries never change, so neither does v's
// truth; v must not be modified once kept.
func (s *Snapshot) Keep(key, v any) {
	s.kept.mu.Lock()
	defer s.kept.mu.Unlock()
	if s.kept.m == nil {
		s.kept.m = map[any]any{}
	}
	if _, ok := s.kept.m[key]; ok || len(s.kept.m) < maxKept {
		s.kept.m[key] = v
	}
}

// NewSnapshot wraps entries (sorted by path, owned by the snapshot from now
// on: never modified again) as a snapshot created at created.
func NewSnapshot(entries []walk.Entry, created time.Time) *Snapshot {
	return build(cut(nil, entries), created)
}

// cut appends entries to rs as runs of new blocks of at most blockSize
// entries (views of entries' array: nothing is copied).
func cut(rs []run, entries []walk.Entry) []run {
	for len(entries) > 0 {
		n := min(len(entries), blockSize)
		rs = append(rs, run{b: &Block{entries: entries[:n:n]}, lo: 0, hi: n})
		entries = entries[n:]
	}
	return rs
}

// build makes the snapshot of runs rs (none empty).
func build(rs []run, created time.Time) *Snapshot {
	starts := make([]int, len(rs)+1)
	for i, r := range rs {
		starts[i+1] = starts[i] + r.hi - r.lo
	}
	return &Snapshot{Created: created, runs: rs, starts: starts}
}

// Len returns the number of entries.
func (s *Snapshot) Len() int { return s.starts[len(s.runs)] }

// runOf returns the index of the run holding entry i (0 <= i < Len).
func (s *Snapshot) runOf(i int) int {
	return sort.Search(len(s.runs), func(r int) bool { return s.starts[r+1] > i })
}

// At returns entry i (0 <= i < Len); it must not be modified.
func (s *Snapshot) At(i int) *walk.Entry {
	r := s.runOf(i)
	x := s.runs[r]
	return &x.b.entries[x.lo+i-s.starts[r]]
}

// Locate returns the block holding entry i, its position k in the block,
// and the position in the snapshot where the run of the block's entries
// that holds i ends: entries i to end-1 are the block's k to k+end-i-1.
func (s *Snapshot) Locate(i int) (b *Block, k, end int) {
	r := s.runOf(i)
	x := s.runs[r]
	return x.b, x.lo + i - s.starts[r], s.starts[r+1]
}

// Span is a range of a snapshot's entries that lie consecutively in one
// block: the snapshot's entries Start to Start+len(Entries)-1.
type Span struct {
	Block   *Block
	Lo      int          // Entries is Block.Entries()[Lo:...]
	Start   int          // position in the snapshot of Entries[0]
	Entries []walk.Entry // must not be modified
}

// Spans yields the snapshot's entries in order, a span at a time.
func (s *Snapshot) Spans() iter.Seq[Span] {
	return func(yield func(Span) bool) {
		for i, r := range s.runs {
			if !yield(Span{Block: r.b, Lo: r.lo, Start: s.starts[i], Entries: r.b.entries[r.lo:r.hi]}) {
				return
			}
		}
	}
}

// All yields the snapshot's entries in order with their positions; the
// entries must not be modified.
func (s *Snapshot) All() iter.Seq2[int, *walk.Entry] { return s.Between(0, s.Len()) }

// Between yields the entries lo to hi-1 in order with their positions; the
// entries must not be modified.
func (s *Snapshot) Between(lo, hi int) iter.Seq2[int, *walk.Entry] {
	return func(yield func(int, *walk.Entry) bool) {
		at := lo
		for x := range s.clip(lo, hi) {
			es := x.b.entries[x.lo:x.hi]
			for j := range es {
				if !yield(at+j, &es[j]) {
					return
				}
			}
			at += len(es)
		}
	}
}

// clip yields the runs that hold s's entries [lo, hi), cut to that range.
func (s *Snapshot) clip(lo, hi int) iter.Seq[run] {
	return func(yield func(run) bool) {
		if lo >= hi {
			return
		}
		for r := s.runOf(lo); r < len(s.runs) && s.starts[r] < hi; r++ {
			x := s.runs[r]
			a, b := max(lo, s.starts[r]), min(hi, s.starts[r+1])
			if !yield(run{b: x.b, lo: x.lo + a - s.starts[r], hi: x.lo + b - s.starts[r]}) {
				return
			}
		}
	}
}

// Entries returns a copy of all the entries, in order (tests, and callers
// that need one slice; the others walk Spans or All).
func (s *Snapshot) Entries() []walk.Entry {
	out := make([]walk.Entry, 0, s.Len())
	for sp := range s.Spans() {
		out = append(out, sp.Entries...)
	}
	return out
}

// Search returns the first position whose entry's path is >= p (Len when
// there is none): the first run whose last entry is >= p, then within it.
func (s *Snapshot) Search(p string) int {
	r := sort.Search(len(s.runs), func(r int) bool {
		x := s.runs[r]
		return x.b.entries[x.hi-1].Path >= p
	})
	if r == len(s.runs) {
		return s.Len()
	}
	x := s.runs[r]
	es := x.b.entries[x.lo:x.hi]
	return s.starts[r] + sort.Search(len(es), func(i int) bool { return es[i].Path >= p })
}

// Under returns the range [lo, hi) of the entries strictly below the
// directory rel (all of them for ""): entries are sorted by path, so a
// subtree is contiguous, from "rel/" up to "rel0" ('0' follows '/').
func (s *Snapshot) Under(rel string) (lo, hi int) {
	if rel == "" {
		return 0, s.Len()
	}
	return s.Search(rel + "/"), s.Search(rel + "0")
}

// piece is part of a patched snapshot: fresh entries, or (fresh nil) the
// old snapshot's entries lo to hi-1.
type piece struct {
	fresh  []walk.Entry
	lo, hi int
}

// splice returns a snapshot whose entries are s's with the range [lo, hi)
// replaced by pieces, sharing s's blocks wherever it keeps s's entries.
func (s *Snapshot) splice(lo, hi int, pieces []piece, created time.Time) *Snapshot {
	rs := make([]run, 0, len(s.runs)+len(pieces)+2)
	rs = slices.AppendSeq(rs, s.clip(0, lo))
	for _, p := range pieces {
		if p.fresh != nil {
			rs = cut(rs, p.fresh)
		} else {
			rs = slices.AppendSeq(rs, s.clip(p.lo, p.hi))
		}
	}
	rs = slices.AppendSeq(rs, s.clip(hi, s.Len()))
	return build(compact(rs), created)
}

// compact copies each sequence of adjacent runs shorter than smallRun into
// one new block (of at most blockSize entries), in place.
func compact(rs []run) []run {
	out := rs[:0]
	for i := 0; i < len(rs); {
		if rs[i].hi-rs[i].lo >= smallRun {
			out = append(out, rs[i])
			i++
			continue
		}
		j, n := i, 0
		for j < len(rs) && rs[j].hi-rs[j].lo < smallRun && n+rs[j].hi-rs[j].lo <= blockSize {
			n += rs[j].hi - rs[j].lo
			j++
		}
		if j-i == 1 {
			out = append(out, rs[i])
			i++
			continue
		}
		es := make([]walk.Entry, 0, n)
		for _, x := range rs[i:j] {
			es = append(es, x.b.entries[x.lo:x.hi]...)
		}
		out = append(out, run{b: &Block{entries: es}, lo: 0, hi: n})
		i = j
	}
	return out
}
