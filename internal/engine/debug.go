package engine

// DebugCacheSize reports the process-wide scan cache's size. It exists for
// capi's diagnostic exports (fscache_debug_cache_entries and
// fscache_debug_cache_max_entries), which the C and Node stress tests read;
// nothing else should depend on it.
type DebugCacheSize struct {
	// Entries is the number of cached scans now.
	Entries int
	// MaxEntries is the policy's bound on Entries.
	MaxEntries int
}

// DebugCacheStats returns the scan cache's current size and bound, for
// capi's tests (see DebugCacheSize).
func DebugCacheStats() DebugCacheSize {
	c := scanCache()
	return DebugCacheSize{Entries: c.Len(), MaxEntries: c.Policy().MaxEntries}
}
