package core

import (
	"github.com/fscache/fscache/internal/engine"
	"github.com/fscache/fscache/internal/scancache"
)

// Stats describes the process-wide scan cache: what it holds (Entries
// cached scans, Watched of them kept current by change notifications, the
// others served by TTL), what it watches (RootsWatched, Watches; Watching
// and, when off, WatchOff), the fallbacks to the TTL policy by reason, and
// what keeping it current has cost (Hits, EventsApplied, Refreshes and
// FullScans with their entries and times).
type Stats = scancache.Stats

// CacheStats returns the scan cache's statistics now.
func CacheStats() Stats { return engine.CacheStats() }
