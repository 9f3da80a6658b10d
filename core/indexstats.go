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
	// LinkedWatched counts the index entries of files with hard links that
	// an inotify watch of the file itself keeps current (no stat of them
	// at each grep; docs/indexed-grep.md, "Files with hard links").
	LinkedWatched int
	// Fallbacks counts, by reason, the greps or roots an index could not
	// serve.
	Fallbacks map[string]int64
	// FallbackRoots maps the roots not indexed for good to the reason.
	FallbackRoots map[string]string
	// Persisted describes the indexes kept on disk.
	Persisted PersistedIndexStats
}

// PersistedIndexStats describes grep's indexes published on disk (see
// docs/indexed-grep.md).
type PersistedIndexStats struct {
	// Dir is their directory ("" when they are off or it is unusable).
	Dir string
	// Queries counts the greps served from a published index, validated
	// by file metadata.
	Queries int64
	// Untrusted counts the files those greps searched because the walk did
	// not confirm their index entries.
	Untrusted int64
	// Published counts the indexes this process wrote.
	Published int64
	// Adopted counts the builds that took a published index instead of
	// reading every file.
	Adopted int64
	// Merged counts the indexes published that reused the entries of the
	// one they replaced for the files unchanged since, reading only the
	// others.
	Merged int64
	// LastError is the latest failure to use the directory or an index
	// file ("" when none).
	LastError string
}

// GrepIndexStats returns the statistics of grep's content indexes now.
func GrepIndexStats() IndexStats {
	s := engine.IndexStats()
	return indexStats(&s)
}
