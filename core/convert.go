package core

import (
	"github.com/fscache/fscache/internal/engine"
	"github.com/fscache/fscache/internal/scancache"
	"github.com/fscache/fscache/internal/walk"
)

// The conversions of the engine's results into the public types, made once
// at the boundary so that no internal type or field leaks into the API.
// Strings, the maps of the statistics and MatchCount's int are shared with
// the engine's result, which the engine does not keep; slices of structs
// are copied. Every result slice is non-nil.

// convert returns f of every element of in, in order (an empty slice, not
// nil, when in is empty).
func convert[S, D any](in []S, f func(*S) D) []D {
	out := make([]D, len(in))
	for i := range in {
		out[i] = f(&in[i])
	}
	return out
}

func globMatch(e *engine.GlobMatch) GlobMatch {
	mtime := -1.0
	if e.Mtime >= 0 {
		mtime = walk.MtimeMs(e.Mtime)
	}
	return GlobMatch{Path: e.Path, FileType: FileType(e.Type), Mtime: mtime, Size: e.Size}
}

func globResult(r *engine.GlobResult) GlobResult {
	return GlobResult{Matches: convert(r.Matches, globMatch), TotalMatches: r.TotalMatches}
}

func fuzzyFindMatch(m *engine.FuzzyFindMatch) FuzzyFindMatch {
	return FuzzyFindMatch{Path: m.Path, IsDirectory: m.IsDirectory, Score: m.Score}
}

func fuzzyFindResult(r *engine.FuzzyFindResult) FuzzyFindResult {
	return FuzzyFindResult{Matches: convert(r.Matches, fuzzyFindMatch), TotalMatches: r.TotalMatches}
}

func workspaceEntry(e *engine.WorkspaceEntry) WorkspaceEntry {
	return WorkspaceEntry{Path: e.Path, Type: FileType(e.Type), Mtime: e.Mtime, Size: e.Size}
}

func listWorkspaceResult(r *engine.ListWorkspaceResult) ListWorkspaceResult {
	agents := r.AgentsMdFiles
	if agents == nil {
		agents = []string{}
	}
	return ListWorkspaceResult{Entries: convert(r.Entries, workspaceEntry), AgentsMdFiles: agents,
		Truncated: r.Truncated}
}

// grepResult converts a grep's result, grouped by file or not: its matches
// go into one slice of GrepMatch and their context lines into one slice of
// ContextLine, which each match's ContextBefore and ContextAfter are
// windows of (capped, so that an append copies).
func grepResult(r *engine.GrepResult) GrepResult {
	n, lines := 0, 0
	engine.EachMatch(r, func(m *engine.GrepMatch) error {
		n++
		lines += len(m.ContextBefore) + len(m.ContextAfter)
		return nil
	})
	out := GrepResult{Matches: make([]GrepMatch, 0, n), TotalMatches: r.TotalMatches,
		FilesWithMatches: r.FilesWithMatches, FilesSearched: r.FilesSearched, LimitReached: r.LimitReached}
	pool := make([]ContextLine, 0, lines)
	engine.EachMatch(r, func(m *engine.GrepMatch) error {
		out.Matches = append(out.Matches, grepMatch(m, &pool))
		return nil
	})
	return out
}

// grepMatchAlone converts one match, its context lines in a slice of their
// own (for OnMatch).
func grepMatchAlone(m *engine.GrepMatch) GrepMatch {
	pool := make([]ContextLine, 0, len(m.ContextBefore)+len(m.ContextAfter))
	return grepMatch(m, &pool)
}

// grepMatch converts m, appending its context lines to *pool, which must
// have room for them.
func grepMatch(m *engine.GrepMatch, pool *[]ContextLine) GrepMatch {
	return GrepMatch{Path: m.Path, LineNumber: m.LineNumber, Line: m.Line,
		ContextBefore: contextLines(m.ContextBefore, pool), ContextAfter: contextLines(m.ContextAfter, pool),
		Truncated: m.Truncated, Lossy: m.Lossy, CRBefore: m.CRBefore, MatchCount: m.MatchCount}
}

// contextLines appends in to *pool and returns the part appended, nil when
// in is nil.
func contextLines(in []engine.ContextLine, pool *[]ContextLine) []ContextLine {
	if in == nil {
		return nil
	}
	start := len(*pool)
	for _, c := range in {
		*pool = append(*pool, ContextLine{LineNumber: c.LineNumber, Line: c.Line})
	}
	end := len(*pool)
	return (*pool)[start:end:end]
}

func cacheStats(s *scancache.Stats) Stats {
	return Stats{Entries: s.Entries, Watched: s.Watched, RootsWatched: s.RootsWatched, Watches: s.Watches,
		Watching: s.Watching, WatchOff: s.WatchOff, Fallbacks: s.Fallbacks, FallbackRoots: s.FallbackRoots,
		Hits: s.Hits, EventsApplied: s.EventsApplied, Refreshes: s.Refreshes, RefreshEntries: s.RefreshEntries,
		RefreshTime: s.RefreshTime, FullScans: s.FullScans, FullScanEntries: s.FullScanEntries,
		FullScanTime: s.FullScanTime, UncachedServed: s.UncachedServed, UncachedWalks: s.UncachedWalks}
}

func indexStats(s *engine.GrepIndexStats) IndexStats {
	return IndexStats{Enabled: s.Enabled, Roots: s.Roots, Building: s.Building, Files: s.Files, Bytes: s.Bytes,
		IndexBytes: s.IndexBytes, CapBytes: s.CapBytes, Builds: s.Builds, BuildFailures: s.BuildFailures,
		BuildTime: s.BuildTime, LastBuildTime: s.LastBuildTime, Queries: s.Queries, Candidates: s.Candidates,
		Skipped: s.Skipped, Reindexed: s.Reindexed, Restored: s.Restored, LinkedWatched: s.LinkedWatched, Fallbacks: s.Fallbacks,
		FallbackRoots: s.FallbackRoots, Persisted: PersistedIndexStats(s.Persisted)}
}
