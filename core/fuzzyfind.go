package core

import (
	"slices"

	"github.com/fscache/fscache/core/cancel"
	"github.com/fscache/fscache/core/fuzzy"
	"github.com/fscache/fscache/core/scancache"
	"github.com/fscache/fscache/core/walk"
)

// FuzzyFindOptions are the options of FuzzyFind (FuzzyFindOptions in
// pi-natives).
type FuzzyFindOptions struct {
	// Query is matched case-insensitively against paths.
	Query string
	// Path is the directory to search.
	Path string
	// Hidden includes dot entries (default false).
	Hidden bool
	// Gitignore honours ignore files (default true).
	Gitignore *bool
	// Cache uses the shared scan cache (default false).
	Cache bool
	// MaxResults caps Matches (nil: 100).
	MaxResults *int
	Cancel
}

// FuzzyFindMatch is one scored path. Directories end with '/'.
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
	tok, root, err := start(o.Cancel, o.Path)
	if err != nil {
		return res, err
	}
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
	snap, age, err := scan(key, o.Cache, tok)
	if err != nil {
		return res, asError(err)
	}
	best, total, err := score(q, snap.Entries, limit, tok)
	if err == nil && total == 0 && !q.Empty() && recheck(o.Cache, age) {
		if snap, err = scanCache().Rescan(key, true, tok); err == nil {
			best, total, err = score(q, snap.Entries, limit, tok)
		}
	}
	if err != nil {
		return res, asError(err)
	}
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

// score scores every entry and returns the limit best matches (unsorted)
// and the number of entries that scored: a bounded heap whose root is the
// worst kept match, so only the kept matches are materialised and sorted.
func score(q fuzzy.Query, entries []walk.Entry, limit int, tok *cancel.Token) ([]FuzzyFindMatch, int, error) {
	h := make([]FuzzyFindMatch, 0, min(limit, 1024))
	total := 0
	for i := range entries {
		if i%pollEvery == 0 {
			if err := tok.Err(); err != nil {
				return nil, 0, err
			}
		}
		e := &entries[i]
		if e.Type == Symlink {
			continue
		}
		isDir := e.Type == Dir
		s := q.Score(e.Path, isDir)
		if s <= 0 {
			continue
		}
		total++
		if len(h) == limit && (s < h[0].Score || s == h[0].Score && e.Path >= h[0].Path) {
			continue // not better than the worst kept (a trailing '/' never changes that)
		}
		p := e.Path
		if isDir {
			p += "/"
		}
		m := FuzzyFindMatch{Path: p, IsDirectory: isDir, Score: s}
		if len(h) < limit {
			h = append(h, m)
			siftUp(h, len(h)-1, worseMatch)
			continue
		}
		if !better(&m, &h[0]) {
			continue
		}
		h[0] = m
		siftDown(h, 0, worseMatch)
	}
	return h, total, nil
}
