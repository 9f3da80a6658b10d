package main

/*
#include <stdlib.h>
#include "resultmem.h"
*/
import "C"

import (
	"sync"
	"unsafe"
)

// Result memory. Every string the library hands to its caller comes from
// cAlloc and goes back through fscache_free. Each is preceded by a header
// saying how it was allocated (resultmem.h), so that fscache_free releases
// a malloc'd one in C without entering Go. Small ones are malloc'd. Large
// ones (a glob of thousands of paths, a grep with many matches) are
// regions of their own (see bigRegion): filling fresh 4 KiB pages costs a
// page fault each, which on a virtual machine dominated a cached glob (a
// 459 kB result took 1.3 ms to fault in and 0.01 ms to copy), while a
// region backed by a transparent huge page faults once. Freed regions are
// kept in a small pool and handed out again, already faulted in.

// bigMin is the size from which a result gets a region of its own.
const bigMin = 256 << 10

// Bounds of the pool of freed regions: what an idle library keeps.
const (
	poolMaxRegions = 8
	poolMaxBytes   = 32 << 20
)

// resultPool tracks the large result regions handed out and keeps freed
// ones for reuse.
type resultPool struct {
	sync.Mutex
	live      map[unsafe.Pointer]uintptr // region start -> length, handed out
	free      []region                   // freed regions kept for reuse
	freeBytes uintptr
}

// resultMem is, with the scan cache, the library's process state: the
// memory handed to callers must be found again when they free it.
var resultMem resultPool

type region struct {
	p unsafe.Pointer
	n uintptr
}

// hdr is the size of the header in front of every result (resultmem.h).
const hdr = C.FSCACHE_RESULT_HDR

// Tags of the header: how the result was allocated.
const (
	tagMalloc uint64 = C.FSCACHE_RESULT_MALLOC
	tagRegion uint64 = C.FSCACHE_RESULT_REGION
)

// cAlloc returns n bytes the caller releases with fscache_free (cFree in
// Go), or nil when memory is exhausted.
func cAlloc(n int) unsafe.Pointer {
	if n+hdr < bigMin {
		return tagged(C.malloc(C.size_t(n+hdr)), tagMalloc)
	}
	want := roundRegion(uintptr(n + hdr))
	m := &resultMem
	m.Lock()
	// The smallest pooled region that fits.
	best := -1
	for i, r := range m.free {
		if r.n >= want && (best < 0 || r.n < m.free[best].n) {
			best = i
		}
	}
	if best >= 0 {
		r := m.free[best]
		m.free = append(m.free[:best], m.free[best+1:]...)
		m.freeBytes -= r.n
		m.track(r)
		m.Unlock()
		return tagged(r.p, tagRegion)
	}
	m.Unlock()
	p := mapRegion(want)
	if p == nil {
		return tagged(C.malloc(C.size_t(n+hdr)), tagMalloc)
	}
	m.Lock()
	m.track(region{p, want})
	m.Unlock()
	return tagged(p, tagRegion)
}

// tagged writes tag into the header at block and returns the result's
// start after it; nil for a nil block.
func tagged(block unsafe.Pointer, tag uint64) unsafe.Pointer {
	if block == nil {
		return nil
	}
	*(*uint64)(block) = tag
	return unsafe.Add(block, hdr)
}

func (m *resultPool) track(r region) {
	if m.live == nil {
		m.live = make(map[unsafe.Pointer]uintptr)
	}
	m.live[r.p] = r.n
}

// cFree releases memory from cAlloc (fscache_free frees the malloc'd
// ones itself and calls here for the rest).
func cFree(p unsafe.Pointer) {
	if p == nil {
		return
	}
	block := unsafe.Add(p, -hdr)
	switch *(*uint64)(block) {
	case tagMalloc:
		C.free(block)
		return
	case tagRegion:
	default:
		return // not a result of this library: left alone rather than freed wrongly
	}
	m := &resultMem
	m.Lock()
	n, ok := m.live[block]
	if !ok {
		m.Unlock()
		return // tagged as a region but not one handed out: never freed twice
	}
	delete(m.live, block)
	if len(m.free) < poolMaxRegions && m.freeBytes+n <= poolMaxBytes {
		m.free = append(m.free, region{block, n})
		m.freeBytes += n
		m.Unlock()
		return
	}
	m.Unlock()
	unmapRegion(block, n)
}
