package core

import (
	"time"

	"github.com/fscache/fscache/internal/engine"
	"github.com/fscache/fscache/internal/fence"
)

// Stats describes the process-wide scan cache: what it holds, what it
// watches, the fallbacks to the TTL policy, and what keeping it current
// has cost. The counters run from the start of the process.
type Stats struct {
	// Entries is the number of cached scans.
	Entries int
	// Watched is the number of cached scans kept current by change
	// notifications; the others are served by TTL.
	Watched int
	// RootsWatched is the number of roots with a watcher.
	RootsWatched int
	// Watches is the number of directory watches the roots' watchers hold.
	Watches int
	// Watching reports whether watching is enabled and supported here.
	Watching bool
	// WatchOff says why watching is off ("disabled" or "unsupported"); ""
	// when Watching.
	WatchOff string
	// Fallbacks counts, by reason ("overflow", "watch_limit", "root_gone",
	// "symlinks_followed", "remote_fs", "error", ...), the times a root or
	// scan fell back to the TTL policy.
	Fallbacks map[string]int64
	// FallbackRoots maps the roots that stay on the TTL policy to the
	// reason.
	FallbackRoots map[string]string
	// Hits is the number of calls answered from a cached scan.
	Hits int64
	// EventsApplied is the number of change events applied to cached
	// scans.
	EventsApplied int64
	// Refreshes counts the targeted refreshes (one directory or subtree).
	Refreshes int64
	// RefreshEntries counts the entries the refreshes read.
	RefreshEntries int64
	// RefreshTime is the refreshes' total time.
	RefreshTime time.Duration
	// FullScans counts the scans of a whole root.
	FullScans int64
	// FullScanEntries counts the entries the full scans read.
	FullScanEntries int64
	// FullScanTime is the full scans' total time.
	FullScanTime time.Duration
	// UncachedServed counts the calls made without Cache that were
	// answered from a watched scan (current as of the call) instead of
	// walking.
	UncachedServed int64
	// UncachedWalks counts, by reason, the calls made without Cache that
	// walked: "first_call" (the directory's first such call in five
	// minutes), "watch_started" (the second, which starts watching it),
	// "not_watched", or why watching is off or fell back.
	UncachedWalks map[string]int64
	// Dropped counts, by kind of goroutine ("indexBuild", "watchedFill",
	// "globJSON", "heapRelease", "watchClose", "finalizer"), the
	// background work a panic dropped, with the latest one's reason. A
	// panic in work a call waits for is that call's error instead. Empty
	// when nothing was dropped.
	Dropped map[string]Dropped
}

// Dropped is what Stats.Dropped reports of one kind of background
// goroutine.
type Dropped struct {
	// Count is the number of times a panic dropped its work.
	Count int64
	// Reason is the latest panic's value, as text ("panic: ...").
	Reason string
}

// CacheStats returns the scan cache's statistics now.
func CacheStats() Stats {
	s := engine.CacheStats()
	st := cacheStats(&s)
	st.Dropped = map[string]Dropped{}
	for k, d := range fence.Dropped() {
		st.Dropped[k] = Dropped{Count: d.Count, Reason: d.Reason}
	}
	return st
}
