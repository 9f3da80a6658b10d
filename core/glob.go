package core

import (
	"slices"
	"strings"

	"github.com/fscache/fscache/core/cancel"
	"github.com/fscache/fscache/core/pattern"
	"github.com/fscache/fscache/core/scancache"
	"github.com/fscache/fscache/core/walk"
)

// GlobOptions are the options of Glob (GlobOptions in pi-natives).
type GlobOptions struct {
	// Pattern is the glob to match relative paths against.
	Pattern string
	// Path is the directory to search, relative to the working directory
	// or absolute.
	Path string
	// FileType keeps only entries of that kind (0: all). A symlink passes a
	// File or Dir filter when its target is of that kind.
	FileType FileType
	// Recursive prefixes simple patterns with "**/" (default true).
	Recursive *bool
	// Hidden includes dot entries (default false).
	Hidden bool
	// MaxResults caps the result (nil: unlimited; 0: nothing, no scan).
	MaxResults *int
	// Gitignore honours ignore files (default true).
	Gitignore *bool
	// Cache uses the shared scan cache (default false).
	Cache bool
	// SortByMtime sorts by modification time, newest first, before the cap.
	SortByMtime bool
	// IncludeNodeModules includes node_modules (default: only when the
	// pattern mentions node_modules).
	IncludeNodeModules *bool
	Cancel
}

// GlobMatch is one glob result. Mtime and Size are -1 when absent (they
// are present only with SortByMtime; Size only for regular files).
type GlobMatch = walk.Entry

// GlobResult is the result of Glob.
type GlobResult struct {
	Matches []GlobMatch
	// TotalMatches is len(Matches).
	TotalMatches int
}

// Glob finds the entries under o.Path whose relative path matches
// o.Pattern. onMatch, when not nil, is called with each accepted match, in
// path order, while filtering (before any mtime sort and cap).
func Glob(o GlobOptions, onMatch func(GlobMatch) error) (res GlobResult, err error) {
	tok, root, err := start(o.Cancel, o.Path)
	if err != nil {
		return res, err
	}
	norm := pattern.Normalize(o.Pattern, orTrue(o.Recursive))
	m, err := pattern.Compile(norm)
	if err != nil {
		return res, errorf(CodeInvalidGlob, "Invalid glob pattern: %v", err)
	}
	if o.MaxResults != nil && *o.MaxResults <= 0 {
		return GlobResult{Matches: []GlobMatch{}}, nil
	}
	includeNM := strings.Contains(norm, "node_modules")
	if o.IncludeNodeModules != nil {
		includeNM = *o.IncludeNodeModules
	}
	key := scancache.Key{Root: root, Hidden: o.Hidden, Gitignore: orTrue(o.Gitignore),
		SkipNodeModules: !includeNM, Full: o.SortByMtime}
	snap, age, err := scan(key, o.Cache, tok)
	if err != nil {
		return res, asError(err)
	}
	limit := -1
	if o.MaxResults != nil && !o.SortByMtime {
		limit = *o.MaxResults
	}
	g := globFilter{root: root, m: m, fileType: o.FileType, limit: limit, tok: tok, onMatch: onMatch}
	matches, err := g.filter(snap.Entries)
	if err == nil && len(matches) == 0 && recheck(o.Cache, age) {
		if snap, err = scanCache().Rescan(key, true, tok); err == nil {
			matches, err = g.filter(snap.Entries)
		}
	}
	if err != nil {
		return res, asError(err)
	}
	if o.SortByMtime {
		slices.SortStableFunc(matches, func(a, b GlobMatch) int {
			return cmpDesc(max(a.Mtime, 0), max(b.Mtime, 0))
		})
		if o.MaxResults != nil && len(matches) > *o.MaxResults {
			matches = matches[:*o.MaxResults]
		}
	}
	return GlobResult{Matches: matches, TotalMatches: len(matches)}, nil
}

func cmpDesc(a, b int64) int {
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
	m        *pattern.Matcher
	fileType FileType
	limit    int // -1: none
	tok      *cancel.Token
	onMatch  func(GlobMatch) error
}

func (g *globFilter) filter(entries []walk.Entry) ([]GlobMatch, error) {
	out := []GlobMatch{}
	for i := range entries {
		if i%pollEvery == 0 {
			if err := g.tok.Err(); err != nil {
				return nil, err
			}
		}
		e := entries[i]
		if !g.m.Match(e.Path) {
			continue
		}
		if g.fileType != 0 && e.Type != g.fileType {
			if e.Type != Symlink || g.fileType == Symlink {
				continue
			}
			t := walk.Stat(g.root, e.Path)
			if t != g.fileType {
				continue
			}
			e.Type = t
		}
		if g.onMatch != nil {
			if err := g.onMatch(e); err != nil {
				return nil, err
			}
		}
		out = append(out, e)
		if g.limit >= 0 && len(out) >= g.limit {
			break
		}
	}
	return out, nil
}
