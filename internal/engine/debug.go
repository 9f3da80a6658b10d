package engine

// DebugCacheSize reports the process-wide scan cache's size, for tests and
// diagnostics (the C ABI's fscache_debug_* functions).
type DebugCacheSize struct {
	// Entries is the number of cached scans now.
	Entries int
	// MaxEntries is the policy's bound on Entries.
	MaxEntries int
}

// DebugCacheStats returns the scan cache's current size and bound.
func DebugCacheStats() DebugCacheSize {
	c := scanCache()
	return DebugCacheSize{Entries: c.Len(), MaxEntries: c.Policy().MaxEntries}
}
