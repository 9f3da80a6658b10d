package main

/*
#include <stdlib.h>
*/
import "C"

import (
	"encoding/json"

	"github.com/fscache/fscache/internal/engine"
)

// cacheStatsJSON is the JSON shape of fscache_cache_stats (camelCase, as
// the JS CacheStats type).
type cacheStatsJSON struct {
	Entries         int               `json:"entries"`
	WatchedEntries  int               `json:"watchedEntries"`
	RootsWatched    int               `json:"rootsWatched"`
	Watches         int               `json:"watches"`
	Watching        bool              `json:"watching"`
	WatchOff        string            `json:"watchOff,omitempty"`
	Fallbacks       map[string]int64  `json:"fallbacks"`
	FallbackRoots   map[string]string `json:"fallbackRoots"`
	Hits            int64             `json:"hits"`
	EventsApplied   int64             `json:"eventsApplied"`
	Refreshes       int64             `json:"refreshes"`
	RefreshEntries  int64             `json:"refreshEntries"`
	RefreshMs       float64           `json:"refreshMs"`
	FullScans       int64             `json:"fullScans"`
	FullScanEntries int64             `json:"fullScanEntries"`
	FullScanMs      float64           `json:"fullScanMs"`
}

//export fscache_go_cache_stats
func fscache_go_cache_stats() (out *C.char) {
	defer fence(&out)
	s := engine.CacheStats()
	b, err := json.Marshal(cacheStatsJSON{
		Entries: s.Entries, WatchedEntries: s.Watched, RootsWatched: s.RootsWatched, Watches: s.Watches,
		Watching: s.Watching, WatchOff: s.WatchOff, Fallbacks: s.Fallbacks, FallbackRoots: s.FallbackRoots,
		Hits: s.Hits, EventsApplied: s.EventsApplied, Refreshes: s.Refreshes, RefreshEntries: s.RefreshEntries,
		RefreshMs: float64(s.RefreshTime.Microseconds()) / 1000, FullScans: s.FullScans,
		FullScanEntries: s.FullScanEntries, FullScanMs: float64(s.FullScanTime.Microseconds()) / 1000,
	})
	return result(b, err)
}
