package fscache

import (
	"time"

	"github.com/fscache/fscache/internal/engine"
)

// Stats describes the process-wide scan cache: what it holds, what it
// watches, and what keeping it current has cost.
type Stats struct {
	// Entries is the number of cached scans; Watched of them are kept
	// current by change notifications, the others are served by TTL.
	Entries, Watched int
	// RootsWatched is the number of roots with a watcher; Watches the
	// number of directory watches they hold.
	RootsWatched, Watches int
	// Watching reports whether watching is enabled and supported here;
	// when not, WatchOff says why ("disabled" or "unsupported").
	Watching bool
	WatchOff string
	// Fallbacks counts, by reason, the times a root or scan fell back to
	// the TTL policy; FallbackRoots maps the roots that stay on it to the
	// reason.
	Fallbacks     map[string]int64
	FallbackRoots map[string]string
	// Hits is the number of cached answers, EventsApplied the number of
	// change events applied.
	Hits, EventsApplied int64
	// Refreshes counts the targeted refreshes (one directory or subtree),
	// RefreshEntries the entries they read, RefreshTime their total time.
	Refreshes, RefreshEntries int64
	RefreshTime               time.Duration
	// FullScans counts the scans of a whole root, FullScanEntries the
	// entries they read, FullScanTime their total time.
	FullScans, FullScanEntries int64
	FullScanTime               time.Duration
}

// CacheStats returns the scan cache's statistics now.
func CacheStats() Stats { return Stats(engine.CacheStats()) }
