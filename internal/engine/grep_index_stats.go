package engine

import (
	"sort"
	"time"

	"github.com/fscache/fscache/internal/scancache"
)

// GrepIndexStats describes the content indexes of grep.
type GrepIndexStats struct {
	// Enabled reports whether indexing is on (FS_GREP_INDEX is not "0").
	Enabled bool
	// Roots is the number of roots with a live index, Building the number
	// queued or being built.
	Roots, Building int
	// Files and Bytes are the files and text bytes indexed; IndexBytes the
	// memory the indexes hold, CapBytes its cap (FS_GREP_INDEX_MB).
	Files                       int
	Bytes, IndexBytes, CapBytes int64
	// Builds counts the builds done, BuildFailures the ones abandoned;
	// BuildTime is their total time, LastBuildTime the latest's.
	Builds, BuildFailures    int64
	BuildTime, LastBuildTime time.Duration
	// Queries counts the greps served with an index; Candidates the files
	// they searched, Skipped the files the index ruled out, Reindexed the
	// files read again to bring their entries up to date.
	Queries, Candidates, Skipped, Reindexed int64
	// Restored counts the files re-read whose content hash was their
	// entry's (an identical rewrite): brought back without re-indexing.
	Restored int64
	// LinkedWatched counts the entries of files with hard links that a
	// watch of the file itself covers (index.Live.Cover): the next greps
	// need no stat of them (core.IndexStats; not in cacheStats).
	LinkedWatched int
	// Fallbacks counts, by reason, the greps or roots the index could not
	// serve; FallbackRoots maps the roots not indexed for good to why.
	Fallbacks     map[string]int64
	FallbackRoots map[string]string
	// Persisted describes the indexes kept on disk.
	Persisted PersistedIndexStats
}

// PersistedIndexStats describes the indexes published on disk
// (grep_disk.go).
type PersistedIndexStats struct {
	// Dir is their directory ("" when they are off or it is unusable).
	Dir string
	// Queries counts the greps served from a published index, validated
	// by metadata; Untrusted the files they searched because the walk did
	// not confirm their entries.
	Queries, Untrusted int64
	// Published counts the indexes this process wrote; Adopted the builds
	// that took a published index instead of reading every file; Merged
	// the indexes published that reused the entries of the one they
	// replaced for the files unchanged since, reading only the others.
	Published, Adopted, Merged int64
	// LastError is the latest failure to use the directory or an index
	// file ("" when none).
	LastError string
}

// IndexStats returns the statistics of grep's content indexes.
func IndexStats() GrepIndexStats {
	gi := grepIndex()
	if gi == nil {
		return GrepIndexStats{Fallbacks: map[string]int64{}, FallbackRoots: map[string]string{}}
	}
	dir := gi.diskIndexDir()
	gi.disk.mu.Lock()
	ds := gi.disk.st
	gi.disk.mu.Unlock()
	gi.mu.Lock()
	defer gi.mu.Unlock()
	s := GrepIndexStats{Persisted: PersistedIndexStats{Dir: dir, Queries: ds.queries, Untrusted: ds.untrusted,
		Published: ds.published, Adopted: ds.adopted, Merged: ds.merged, LastError: ds.lastError},
		Enabled: true, CapBytes: gi.policy.capMem, Builds: gi.st.builds,
		BuildFailures: gi.st.buildFails, BuildTime: gi.st.buildTime, LastBuildTime: gi.st.lastBuild,
		Queries: gi.st.queries, Candidates: gi.st.candidates, Skipped: gi.st.skipped,
		Reindexed: gi.st.reindexed, Fallbacks: map[string]int64{}, FallbackRoots: map[string]string{}}
	keys := make([]scancache.Key, 0, len(gi.roots))
	for k := range gi.roots {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].Root < keys[j].Root })
	for _, k := range keys {
		r := gi.roots[k]
		if r.queued {
			s.Building++
		}
		if r.live == nil {
			continue
		}
		ls := r.live.Stats()
		s.Roots++
		s.Files += ls.Files
		s.Bytes += ls.Bytes
		s.IndexBytes += ls.Size
		s.Restored += ls.Restored
		s.LinkedWatched += ls.Watched
	}
	for k, v := range gi.st.fallbacks {
		s.Fallbacks[k] = v
	}
	for k, v := range gi.st.fallbackRoots {
		s.FallbackRoots[k] = v
	}
	return s
}
