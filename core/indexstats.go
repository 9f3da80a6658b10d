package core

import (
	"time"

	"github.com/fscache/fscache/internal/engine"
)

// IndexStats describes grep's content indexes (see docs/indexed-grep.md).
// The counters run from the start of the process.
type IndexStats struct {
	// Enabled reports whether indexing is on (FS_GREP_INDEX is not "0").
	Enabled bool
	// Roots is the number of roots with a live index.
	Roots int
	// Building is the number of roots whose index is queued or being
	// built.
	Building int
	// Files is the number of files indexed.
	Files int
	// Bytes is the text indexed, in bytes.
	Bytes int64
	// IndexBytes is the memory the indexes hold.
	IndexBytes int64
	// CapBytes is the cap of IndexBytes (FS_GREP_INDEX_MB).
	CapBytes int64
	// Builds counts the builds done.
	Builds int64
	// BuildFailures counts the builds abandoned.
	BuildFailures int64
	// BuildTime is the builds' total time.
	BuildTime time.Duration
	// LastBuildTime is the latest build's time.
	LastBuildTime time.Duration
	// Queries counts the greps served with an index.
	Queries int64
	// Candidates counts the files those greps searched.
	Candidates int64
	// Skipped counts the files the indexes ruled out.
	Skipped int64
	// Reindexed counts the files read again to bring their index entries
	// up to date.
	Reindexed int64
	// Restored counts the files read again whose content was their
	// entry's (an identical rewrite): brought back without re-indexing.
	Restored int64
	// Fallbacks counts, by reason, the greps or roots an index could not
	// serve.
	Fallbacks map[string]int64
	// FallbackRoots maps the roots not indexed for good to the reason.
	FallbackRoots map[string]string
}

// GrepIndexStats returns the statistics of grep's content indexes now.
func GrepIndexStats() IndexStats {
	s := engine.IndexStats()
	return indexStats(&s)
}
