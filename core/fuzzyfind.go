package core

import (
	"slices"
	"strings"

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
	matches, err := score(q, snap.Entries, tok)
	if err == nil && len(matches) == 0 && !q.Empty() && recheck(o.Cache, age) {
		if snap, err = scanCache().Rescan(key, true, tok); err == nil {
			matches, err = score(q, snap.Entries, tok)
		}
	}
	if err != nil {
		return res, asError(err)
	}
	slices.SortFunc(matches, func(a, b FuzzyFindMatch) int {
		if a.Score != b.Score {
			return b.Score - a.Score
		}
		return strings.Compare(a.Path, b.Path)
	})
	res.TotalMatches = len(matches)
	if len(matches) > limit {
		matches = matches[:limit:limit]
	}
	res.Matches = matches
	return res, nil
}

func score(q fuzzy.Query, entries []walk.Entry, tok *cancel.Token) ([]FuzzyFindMatch, error) {
	out := []FuzzyFindMatch{}
	for i := range entries {
		if i%pollEvery == 0 {
			if err := tok.Err(); err != nil {
				return nil, err
			}
		}
		e := &entries[i]
		if e.Type == Symlink {
			continue
		}
		isDir := e.Type == Dir
		if s := q.Score(e.Path, isDir); s > 0 {
			p := e.Path
			if isDir {
				p += "/"
			}
			out = append(out, FuzzyFindMatch{Path: p, IsDirectory: isDir, Score: s})
		}
	}
	return out, nil
}
