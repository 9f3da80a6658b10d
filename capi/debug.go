package main

/*
#include <stdint.h>
*/
import "C"

import (
	"bytes"
	"runtime"

	"github.com/fscache/fscache/internal/engine"
)

// Diagnostics for tests: the stress tests check that goroutines come back
// to their baseline once calls settle and that the scan cache stays within
// its bound. See "Diagnostics" in include/fscache.h.

//export fscache_go_debug_goroutines
func fscache_go_debug_goroutines() C.int64_t {
	return C.int64_t(runtime.NumGoroutine() - cThreadGoroutines(allStacks()))
}

//export fscache_go_debug_goroutines_total
func fscache_go_debug_goroutines_total() C.int64_t {
	return C.int64_t(runtime.NumGoroutine())
}

//export fscache_go_debug_cache_entries
func fscache_go_debug_cache_entries() C.int64_t {
	return C.int64_t(engine.DebugCacheStats().Entries)
}

//export fscache_go_debug_cache_max_entries
func fscache_go_debug_cache_max_entries() C.int64_t {
	return C.int64_t(engine.DebugCacheStats().MaxEntries)
}

//export fscache_go_debug_goroutine_stacks
func fscache_go_debug_goroutine_stacks() *C.char {
	return cBytes(allStacks())
}

// allStacks returns runtime.Stack's text for every goroutine.
func allStacks() []byte {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// cThreadGoroutines counts, in runtime.Stack's text, the goroutines that
// only stand for a C thread which has called into the library and returned
// (Go keeps one per such thread, parked in a system call, until the thread
// exits): their one frame is runtime.goexit.
func cThreadGoroutines(stacks []byte) int {
	n := 0
	for _, g := range bytes.Split(stacks, []byte("\n\n")) {
		_, body, ok := bytes.Cut(g, []byte("\n"))
		if ok && bytes.HasPrefix(body, []byte("runtime.goexit(")) && bytes.Count(body, []byte("\n")) <= 1 {
			n++
		}
	}
	return n
}
