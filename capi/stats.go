package main

/*
#include <stdlib.h>
*/
import "C"

import (
	"encoding/json"

	"github.com/fscache/fscache/internal/engine"
	fencing "github.com/fscache/fscache/internal/fence"
)

// cacheStatsJSON is the JSON shape of fscache_cache_stats (camelCase, as
// the JS CacheStats type).
type cacheStatsJSON struct {
	Entries        int    `json:"entries"`
	WatchedEntries int    `json:"watchedEntries"`
	RootsWatched   int    `json:"rootsWatched"`
	Watches        int    `json:"watches"`
	Watching       bool   `json:"watching"`
	WatchOff       string `json:"watchOff,omitempty"`
	fallbacksJSON
	Hits            int64         `json:"hits"`
	EventsApplied   int64         `json:"eventsApplied"`
	Refreshes       int64         `json:"refreshes"`
	RefreshEntries  int64         `json:"refreshEntries"`
	RefreshMs       float64       `json:"refreshMs"`
	FullScans       int64         `json:"fullScans"`
	FullScanEntries int64         `json:"fullScanEntries"`
	FullScanMs      float64       `json:"fullScanMs"`
	GrepIndex       grepIndexJSON `json:"grepIndex"`
	Uncached        uncachedJSON  `json:"uncached"`
	// Dropped is the background work a panic dropped, by kind of
	// goroutine (fence.Dropped).
	Dropped map[string]droppedJSON `json:"dropped"`
}

// droppedJSON is one kind's member of fscache_cache_stats' dropped.
type droppedJSON struct {
	Count  int64  `json:"count"`
	Reason string `json:"reason"`
}

func droppedStats() map[string]droppedJSON {
	out := map[string]droppedJSON{}
	for k, d := range fencing.Dropped() {
		out[k] = droppedJSON(d)
	}
	return out
}

// uncachedJSON is the uncached member of fscache_cache_stats: the calls
// made without the cache, answered from a watched scan or walked (by
// reason).
type uncachedJSON struct {
	Served int64            `json:"served"`
	Walks  map[string]int64 `json:"walks"`
}

// grepIndexJSON is the grepIndex member of fscache_cache_stats: grep's
// content indexes (engine.GrepIndexStats).
type grepIndexJSON struct {
	Enabled            bool    `json:"enabled"`
	Roots              int     `json:"roots"`
	Building           int     `json:"building"`
	Files              int     `json:"files"`
	Bytes              int64   `json:"bytes"`
	IndexBytes         int64   `json:"indexBytes"`
	CapBytes           int64   `json:"capBytes"`
	Builds             int64   `json:"builds"`
	BuildFailures      int64   `json:"buildFailures"`
	BuildMs            float64 `json:"buildMs"`
	LastBuildMs        float64 `json:"lastBuildMs"`
	Queries            int64   `json:"queries"`
	Candidates         int64   `json:"candidates"`
	CandidatesPerQuery float64 `json:"candidatesPerQuery"`
	Skipped            int64   `json:"skipped"`
	Reindexed          int64   `json:"reindexed"`
	Restored           int64   `json:"restored"`
	fallbacksJSON
	Persisted persistedJSON `json:"persisted"`
}

// persistedJSON is grepIndex's persisted member: the indexes on disk
// (engine.PersistedIndexStats).
type persistedJSON struct {
	Dir       string `json:"dir"`
	Queries   int64  `json:"queries"`
	Untrusted int64  `json:"untrusted"`
	Published int64  `json:"published"`
	Adopted   int64  `json:"adopted"`
	Merged    int64  `json:"merged"`
	LastError string `json:"lastError"`
}

// fallbacksJSON is what the scan cache and the grep index each report of
// the roots they stopped keeping current: a count by reason, and each
// root's reason.
type fallbacksJSON struct {
	Fallbacks     map[string]int64  `json:"fallbacks"`
	FallbackRoots map[string]string `json:"fallbackRoots"`
}

func grepIndexStats() grepIndexJSON {
	s := engine.IndexStats()
	per := 0.0
	if s.Queries > 0 {
		per = float64(s.Candidates) / float64(s.Queries)
	}
	return grepIndexJSON{Enabled: s.Enabled, Roots: s.Roots, Building: s.Building, Files: s.Files,
		Bytes: s.Bytes, IndexBytes: s.IndexBytes, CapBytes: s.CapBytes, Builds: s.Builds,
		BuildFailures: s.BuildFailures, BuildMs: float64(s.BuildTime.Microseconds()) / 1000,
		LastBuildMs: float64(s.LastBuildTime.Microseconds()) / 1000, Queries: s.Queries,
		Candidates: s.Candidates, CandidatesPerQuery: per, Skipped: s.Skipped, Reindexed: s.Reindexed, Restored: s.Restored,
		fallbacksJSON: fallbacksJSON{s.Fallbacks, s.FallbackRoots}, Persisted: persistedJSON(s.Persisted)}
}

//export fscache_go_cache_stats
func fscache_go_cache_stats() (out *C.char) {
	defer fence(&out)
	s := engine.CacheStats()
	b, err := json.Marshal(cacheStatsJSON{
		Entries: s.Entries, WatchedEntries: s.Watched, RootsWatched: s.RootsWatched, Watches: s.Watches,
		Watching: s.Watching, WatchOff: s.WatchOff, fallbacksJSON: fallbacksJSON{s.Fallbacks, s.FallbackRoots},
		Hits: s.Hits, EventsApplied: s.EventsApplied, Refreshes: s.Refreshes, RefreshEntries: s.RefreshEntries,
		RefreshMs: float64(s.RefreshTime.Microseconds()) / 1000, FullScans: s.FullScans,
		FullScanEntries: s.FullScanEntries, FullScanMs: float64(s.FullScanTime.Microseconds()) / 1000,
		GrepIndex: grepIndexStats(), Uncached: uncachedJSON{Served: s.UncachedServed, Walks: s.UncachedWalks},
		Dropped: droppedStats(),
	})
	return result(b, err)
}
