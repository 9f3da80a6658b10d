package engine

import (
	"slices"
	"strings"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/fuzzy"
	"github.com/fscache/fscache/internal/scancache"
	"github.com/fscache/fscache/internal/walk"
)

// FuzzyFindOptions are FuzzyFind's options, documented field by field on
// the public fscache.FuzzyFindOptions (capi's TestSchema* check both
// against schema/options.json).
type FuzzyFindOptions struct {
	Query      string
	Path       string
	Hidden     bool
	Gitignore  *bool
	Cache      bool
	MaxResults *int
	Cancel
}

// FuzzyFindMatch is one scored path. A directory's path ends with '/'.
type FuzzyFindMatch struct {
	Path        string
	IsDirectory bool
	Score       int
}

// FuzzyFindResult is the result of FuzzyFind.
type FuzzyFindResult struct {
	// Matches holds the best MaxResults matches, by score then path.
	Matches []FuzzyFindMatch
	// TotalMatches counts every entry that scored.
	TotalMatches int
}

// FuzzyFind scores every entry under o.Path (links followed, node_modules
// skipped) against o.Query for autocomplete.
func FuzzyFind(o FuzzyFindOptions) (res FuzzyFindResult, err error) {
	defer foreground()()
	tok, root, err := start(o.Cancel, o.Path)
	if err != nil {
		return res, err
	}
	defer tok.Release()
	limit := 100
	if o.MaxResults != nil {
		limit = *o.MaxResults
	}
	res.Matches = []FuzzyFindMatch{}
	q := fuzzy.NewQuery(o.Query)
	if limit <= 0 || q.Impossible() {
		return res, nil
	}
	key := scancache.Key{Root: root, Hidden: o.Hidden, Gitignore: orTrue(o.Gitignore),
		SkipNodeModules: true, FollowLinks: true}
	type scored struct {
		best  []FuzzyFindMatch
		total int
	}
	_, sc, _, err := scanUse(key, o.Cache, false, tok, nil, func(s *scancache.Snapshot, cached bool) (scored, bool, error) {
		best, total, err := score(q, s, cached, limit, tok)
		return scored{best, total}, total == 0 && !q.Empty(), err
	})
	if err != nil {
		return res, asError(err)
	}
	best, total := sc.best, sc.total
	slices.SortFunc(best, func(a, b FuzzyFindMatch) int {
		if better(&a, &b) {
			return -1
		}
		return 1
	})
	res.TotalMatches = total
	res.Matches = best
	return res, nil
}

func worseMatch(a, b *FuzzyFindMatch) bool { return better(b, a) }

// better orders matches by score, then path (paths are unique).
func better(a, b *FuzzyFindMatch) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.Path < b.Path
}

// fuzzyMasks are the character masks (fuzzy.Masks) of a cached snapshot's
// entries, derived once per snapshot: a cached query scores only the
// entries that have every character it needs.
type fuzzyMasks struct{ base, whole []uint64 }

// fuzzyMasksKey is the key of fuzzyMasks in scancache.Snapshot.Derived.
type fuzzyMasksKey struct{}

func buildFuzzyMasks(entries []walk.Entry) any {
	m := &fuzzyMasks{base: make([]uint64, len(entries)), whole: make([]uint64, len(entries))}
	for i := range entries {
		m.base[i], m.whole[i] = fuzzy.Masks(entries[i].Path)
	}
	return m
}

// entryMask is the mask of path's basename (onBase) or of path.
func entryMask(path string, onBase bool) uint64 {
	if onBase {
		path = path[strings.LastIndexByte(path, '/')+1:]
	}
	return fuzzy.Mask(path)
}

// score scores the entries of snap and returns the limit best matches
// (unsorted) and the number of entries that scored: a bounded heap whose
// root is the worst kept match, so only the kept matches are materialised
// and sorted. With cached, the snapshot's character masks skip the entries
// that cannot match (building them once per block of the snapshot, so a
// patched snapshot builds only its new blocks'); on a scan used once each
// entry's mask is computed as it is met.
func score(q fuzzy.Query, snap *scancache.Snapshot, cached bool, limit int, tok *cancel.Token) ([]FuzzyFindMatch, int, error) {
	need, onBase := q.Need()
	h := make([]FuzzyFindMatch, 0, min(limit, 1024))
	total := 0
	for sp := range snap.Spans() {
		var masks []uint64
		if cached && need != 0 {
			// Per block, so a patched snapshot builds only its new blocks'.
			fm := sp.Block.Derived(fuzzyMasksKey{}, buildFuzzyMasks).(*fuzzyMasks)
			masks = fm.whole[sp.Lo:]
			if onBase {
				masks = fm.base[sp.Lo:]
			}
		}
		for j := range sp.Entries {
			if (sp.Start+j)&255 == 0 && tok.Poll() || tok.Stopped() {
				return nil, 0, tok.Err()
			}
			e := &sp.Entries[j]
			switch {
			case masks != nil:
				if !fuzzy.MayMatch(masks[j], need) {
					continue
				}
			case need != 0:
				// A scan used once: the mask, computed here, is still
				// cheaper than the scorer.
				if !fuzzy.MayMatch(entryMask(e.Path, onBase), need) {
					continue
				}
			}
			h, total = scoreEntry(q, e, h, total, limit)
		}
	}
	return h, total, nil
}

// scoreEntry scores e and keeps it in the heap h of the limit best
// matches; total counts the entries that scored.
func scoreEntry(q fuzzy.Query, e *walk.Entry, h []FuzzyFindMatch, total, limit int) ([]FuzzyFindMatch, int) {
	if e.Type == walk.Symlink {
		return h, total
	}
	isDir := e.Type == walk.Dir
	s := q.Score(e.Path, isDir)
	if s <= 0 {
		return h, total
	}
	total++
	if len(h) == limit && (s < h[0].Score || s == h[0].Score && e.Path >= h[0].Path) {
		return h, total // not better than the worst kept (a trailing '/' never changes that)
	}
	p := e.Path
	if isDir {
		p += "/"
	}
	m := FuzzyFindMatch{Path: p, IsDirectory: isDir, Score: s}
	if len(h) < limit {
		h = append(h, m)
		siftUp(h, len(h)-1, worseMatch)
		return h, total
	}
	if better(&m, &h[0]) {
		h[0] = m
		siftDown(h, 0, worseMatch)
	}
	return h, total
}
