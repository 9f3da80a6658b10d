package engine

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/glob"
	"github.com/fscache/fscache/internal/scancache"
	"github.com/fscache/fscache/internal/walk"
)

// GlobOptions are Glob's options, documented field by field on the public
// fscache.GlobOptions (capi's TestSchema* check both against
// schema/options.json).
type GlobOptions struct {
	Pattern            string
	Path               string
	FileType           walk.FileType
	Recursive          *bool
	Hidden             bool
	MaxResults         *int
	Gitignore          *bool
	Cache              bool
	SortByMtime        bool
	IncludeNodeModules *bool
	Cancel
}

// GlobMatch is one glob result. Mtime (in ns: walk.MtimeMs gives the
// milliseconds reported) and Size are -1 when absent (they are present
// only with SortByMtime; Size only for regular files).
type GlobMatch = walk.Entry

// GlobResult is the result of Glob (see fscache.GlobResult).
type GlobResult struct {
	Matches      []GlobMatch
	TotalMatches int
}

// Glob finds the entries under o.Path whose relative path matches
// o.Pattern.
//
// onMatch, when not nil, is called with matches as they are found, never
// concurrently. When Glob runs the walk itself (no cache, or a cache miss)
// it streams during the walk, in the walk's order: without SortByMtime,
// each match once (but with MaxResults, see below); with SortByMtime and
// MaxResults, each match admitted to the bounded newest-first top N when
// it is admitted (it may be displaced later; every match of the final
// result has been delivered); with SortByMtime alone, each match once.
// On a cache hit (or an uncached call served from a watched scan), and for
// MaxResults without SortByMtime (whose result is the first matches in
// path order, known only after the walk), the matches are delivered after
// the walk, in path order, before the sort and cap; but with SortByMtime
// and MaxResults, only the result's, newest first. An error from onMatch
// stops the call.
func Glob(o GlobOptions, onMatch func(GlobMatch) error) (res GlobResult, err error) {
	defer foreground()()
	sel, err := GlobSelect(o, onMatch)
	if err != nil {
		return res, err
	}
	matches := make([]GlobMatch, len(sel.Index))
	for i := range sel.Index {
		matches[i] = sel.Match(i)
	}
	return GlobResult{Matches: matches, TotalMatches: len(matches)}, nil
}

// GlobSelection is the result of a glob as positions in the scan it was
// taken from, so that a caller can encode it without copying entries.
type GlobSelection struct {
	// Snapshot is the scan; its entries are shared and must not be modified.
	// Nil when nothing was scanned.
	Snapshot *scancache.Snapshot
	// Hit is true when Snapshot came from the cache (it may be served
	// again, so data derived from it is worth keeping).
	Hit bool
	// Index holds the positions in Snapshot of the matches, in result
	// order.
	Index []int32
	// Retyped holds, by position, the symlinks that passed a File or Dir
	// filter: they are reported with their target's type.
	Retyped map[int32]walk.FileType
}

// Match returns the i-th match of the selection.
func (s *GlobSelection) Match(i int) GlobMatch {
	j := s.Index[i]
	e := *s.Snapshot.At(int(j))
	if t, ok := s.Retyped[j]; ok {
		e.Type = t
	}
	return e
}

// GlobSelect is Glob returning positions in the scan (see GlobSelection)
// instead of copies of the entries; onMatch is as for Glob.
func GlobSelect(o GlobOptions, onMatch func(GlobMatch) error) (sel GlobSelection, err error) {
	tok, root, err := start(o.Cancel, o.Path)
	if err != nil {
		return sel, err
	}
	defer tok.Release()
	norm := glob.Normalize(o.Pattern, orTrue(o.Recursive))
	m, err := glob.Compile(norm)
	if err != nil {
		return sel, errorf(CodeInvalidGlob, "Invalid glob pattern: %v", err)
	}
	if o.MaxResults != nil && *o.MaxResults <= 0 {
		return sel, nil
	}
	includeNM := strings.Contains(norm, "node_modules")
	if o.IncludeNodeModules != nil {
		includeNM = *o.IncludeNodeModules
	}
	key := scancache.Key{Root: root, Hidden: o.Hidden, Gitignore: orTrue(o.Gitignore),
		SkipNodeModules: !includeNM, Full: o.SortByMtime}
	limit := -1
	if o.MaxResults != nil && !o.SortByMtime {
		limit = *o.MaxResults
	}
	g := globFilter{root: root, m: m, fileType: o.FileType, limit: limit, tok: tok}
	var st *globStream
	var obs []scancache.Observer
	if onMatch != nil && limit < 0 {
		st = &globStream{g: &g, onMatch: onMatch}
		if o.SortByMtime && o.MaxResults != nil {
			st.top = &topN{n: *o.MaxResults}
		}
		obs = append(obs, st.observe)
	}
	// top: with SortByMtime and MaxResults, what was not streamed is the
	// final result, delivered once sorted and cut (not every match).
	top := o.SortByMtime && o.MaxResults != nil
	// filter delivers to onMatch only what the walk did not stream.
	filter := func(snap *scancache.Snapshot) ([]int32, map[int32]walk.FileType, error) {
		g.onMatch = onMatch
		if st != nil && st.observed.Load() || top {
			g.onMatch = nil
		}
		return g.filter(snap)
	}
	sk := globSelKey{norm, o.FileType, limit}
	use := func(s *scancache.Snapshot, cached bool) (picked, bool, error) {
		if !cached {
			idx, retyped, err := filter(s)
			return picked{idx, retyped}, len(idx) == 0, err
		}
		var deliver func(GlobMatch) error
		if !top {
			deliver = onMatch
		}
		p, err := g.selectKept(s, sk, deliver)
		return p, len(p.idx) == 0, err
	}
	var snap *scancache.Snapshot
	var pick picked
	var hit bool
	if !o.Cache && limit > 0 {
		// No scan at hand: walk in path order and stop at the limit
		// (glob_stream.go); else select from the scan it got.
		var done bool
		if sel, snap, hit, done, err = g.firstLimited(key, onMatch); done {
			return sel, asError(err)
		}
		pick, _, err = use(snap, hit)
	} else {
		snap, pick, hit, err = scanUse(key, o.Cache, false, tok, obs, use)
	}
	if err != nil {
		return sel, asError(err)
	}
	idx, retyped := pick.idx, pick.retyped
	if o.SortByMtime {
		idx = g.newestFirst(snap, idx, hit, globSortKey{sk, deref(o.MaxResults)}, o.MaxResults)
	}
	sel = GlobSelection{Snapshot: snap, Hit: hit, Index: idx, Retyped: retyped}
	if top && onMatch != nil && !(st != nil && st.observed.Load()) {
		for i := range idx {
			if i&255 == 0 && tok.Poll() || tok.Stopped() {
				return GlobSelection{}, asError(tok.Err())
			}
			if err := onMatch(sel.Match(i)); err != nil {
				return GlobSelection{}, asError(err)
			}
		}
	}
	return sel, nil
}

// selectKept returns the selection of a snapshot served again, kept with
// it under sk (it depends on nothing else, unless a link's target was
// looked at), made now when it is not; deliver, when not nil, gets its
// matches in path order. The positions returned are the caller's own.
func (g *globFilter) selectKept(s *scancache.Snapshot, sk globSelKey, deliver func(GlobMatch) error) (picked, error) {
	p, ok := s.Kept(sk)
	if !ok {
		g.onMatch = nil
		g.statted.Store(false)
		idx, retyped, err := g.filter(s)
		if err != nil {
			return picked{}, err
		}
		p = picked{idx, retyped}
		if !g.statted.Load() {
			s.Keep(sk, p)
		}
	}
	pk := p.(picked)
	if deliver != nil {
		for k, i := range pk.idx {
			if k&255 == 0 && g.tok.Poll() || g.tok.Stopped() {
				return picked{}, g.tok.Err()
			}
			m := *s.At(int(i))
			if t, ok := pk.retyped[i]; ok {
				m.Type = t
			}
			if err := deliver(m); err != nil {
				return picked{}, err
			}
		}
	}
	return picked{slices.Clone(pk.idx), pk.retyped}, nil
}

// newestFirst sorts idx newest first and cuts it to maxResults; a
// snapshot served again (hit) keeps that order under tk.
func (g *globFilter) newestFirst(snap *scancache.Snapshot, idx []int32, hit bool, tk globSortKey, maxResults *int) []int32 {
	if v, ok := snap.Kept(tk); hit && ok {
		return slices.Clone(v.([]int32))
	}
	sortByMtime(snap, idx)
	if maxResults != nil && len(idx) > *maxResults {
		idx = idx[:*maxResults]
	}
	if hit && !g.statted.Load() {
		snap.Keep(tk, slices.Clone(idx))
	}
	return idx
}

// picked is a glob's selection in a snapshot: the positions of the
// matches, and the links retyped as their targets (FileType filters).
type picked struct {
	idx     []int32
	retyped map[int32]walk.FileType
}

// globSelKey is the key of a selection kept with a snapshot
// (scancache.Snapshot.Keep): the normalised pattern, the type filter and
// the limit (-1 for none).
type globSelKey struct {
	pattern  string
	fileType walk.FileType
	limit    int
}

// globSortKey is the key of a selection's newest-first order, cut to n
// (0: not cut), kept with a snapshot.
type globSortKey struct {
	sel globSelKey
	n   int
}

// sortByMtime sorts idx (positions in snap, ascending) newest first (by
// sortMtime); equal times keep path order (the index order).
func sortByMtime(snap *scancache.Snapshot, idx []int32) {
	type timed struct {
		i     int32
		mtime float64
	}
	ts := make([]timed, 0, len(idx))
	k := 0
	for sp := range snap.Spans() {
		end := int32(sp.Start + len(sp.Entries))
		for ; k < len(idx) && idx[k] < end; k++ {
			ts = append(ts, timed{idx[k], sortMtime(sp.Entries[int(idx[k])-sp.Start].Mtime)})
		}
	}
	slices.SortFunc(ts, func(a, b timed) int {
		if c := cmpDesc(a.mtime, b.mtime); c != 0 {
			return c
		}
		return int(a.i - b.i)
	})
	for k, t := range ts {
		idx[k] = t.i
	}
}

// sortMtime is the time an entry with mtime ns (Entry.Mtime) is sorted
// by: the milliseconds reported (walk.MtimeMs), as pi-natives 18.2 sorts
// by its float64 mtime, so that ns apart within one float64 step tie, as
// in 18.2; 0 when the mtime is unknown or before the epoch (18.2 reports
// none then, and counts a missing mtime as 0).
func sortMtime(ns int64) float64 {
	if ns < 0 {
		return 0
	}
	return walk.MtimeMs(ns)
}

func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// globFilter applies a compiled pattern and a type filter to scan entries.
type globFilter struct {
	root     string
	m        *glob.Matcher
	fileType walk.FileType
	limit    int // -1: none
	tok      *cancel.Token
	onMatch  func(GlobMatch) error
	// statted is set once a link's target was looked at (its selection
	// then depends on more than the snapshot).
	statted atomic.Bool
}

// accept applies the pattern and the type filter to e; a symlink that
// passes a File or Dir filter is returned with its target's type.
func (g *globFilter) accept(e GlobMatch) (GlobMatch, bool) {
	if !g.m.Match(e.Path) {
		return e, false
	}
	if g.fileType != 0 && e.Type != g.fileType {
		if e.Type != walk.Symlink || g.fileType == walk.Symlink {
			return e, false
		}
		g.statted.Store(true)
		t := walk.Stat(g.root, e.Path)
		if t != g.fileType {
			return e, false
		}
		e.Type = t
	}
	return e, true
}

func (g *globFilter) filter(snap *scancache.Snapshot) ([]int32, map[int32]walk.FileType, error) {
	out := make([]int32, 0, 256)
	var retyped map[int32]walk.FileType
	for i, e := range snap.All() {
		if i&255 == 0 && g.tok.Poll() || g.tok.Stopped() {
			return nil, nil, g.tok.Err()
		}
		if !g.m.Match(e.Path) {
			continue
		}
		if g.fileType != 0 && e.Type != g.fileType {
			m, ok := g.accept(*e)
			if !ok {
				continue
			}
			if retyped == nil {
				retyped = map[int32]walk.FileType{}
			}
			retyped[int32(i)] = m.Type
		}
		if g.onMatch != nil {
			m := *e
			if t, ok := retyped[int32(i)]; ok {
				m.Type = t
			}
			if err := g.onMatch(m); err != nil {
				return nil, nil, err
			}
		}
		out = append(out, int32(i))
		if g.limit >= 0 && len(out) >= g.limit {
			break
		}
	}
	return out, retyped, nil
}

// globStream delivers matches to onMatch while the walk runs.
type globStream struct {
	g       *globFilter
	onMatch func(GlobMatch) error
	top     *topN // with SortByMtime and MaxResults: deliver admissions only
	// observed is set once the walk reported an entry: the walk then
	// reports every entry of the snapshot, so the filter after it must not
	// deliver again.
	observed atomic.Bool
	mu       sync.Mutex // serialises top and onMatch
}

// observe is the walk's observer: called concurrently with every kept
// entry.
func (s *globStream) observe(e walk.Entry) error {
	if !s.observed.Load() {
		s.observed.Store(true)
	}
	e, ok := s.g.accept(e)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.top != nil && !s.top.admit(e) {
		return nil
	}
	return s.onMatch(e)
}

// topN tracks the n best matches seen so far in the final order of a
// sortByMtime glob (newest first, then path), as a heap whose root is the
// worst of them.
type topN struct {
	n    int
	heap []GlobMatch
}

// worse reports whether a sorts after b in the result: older, or as old
// with a greater path.
func worse(a, b *GlobMatch) bool {
	am, bm := sortMtime(a.Mtime), sortMtime(b.Mtime)
	if am != bm {
		return am < bm
	}
	return a.Path > b.Path
}

// admit adds e when it is among the n best so far and reports whether it
// did. Every match of the final top n is admitted when it is seen: fewer
// than n matches sort before it.
func (t *topN) admit(e GlobMatch) bool {
	if len(t.heap) < t.n {
		t.heap = append(t.heap, e)
		siftUp(t.heap, len(t.heap)-1, worse)
		return true
	}
	if t.n == 0 || !worse(&t.heap[0], &e) {
		return false
	}
	t.heap[0] = e
	siftDown(t.heap, 0, worse)
	return true
}
