package main

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of a transparent huge page on the platforms we
// build for (x86-64 and arm64 with 4 KiB base pages).
const hugePage = 2 << 20

// roundRegion rounds n up to whole huge pages.
func roundRegion(n uintptr) uintptr { return (n + hugePage - 1) &^ (hugePage - 1) }

// mapRegion maps n bytes (a multiple of hugePage) aligned on a huge page
// and asks for transparent huge pages (honoured when the system's policy is
// "madvise" or "always"); nil when the mapping fails.
func mapRegion(n uintptr) unsafe.Pointer {
	p, err := unix.MmapPtr(-1, 0, nil, n+hugePage, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return nil
	}
	head := (hugePage - uintptr(p)%hugePage) % hugePage
	r := unsafe.Add(p, head)
	// Give back the unaligned head and the tail beyond n.
	if head > 0 {
		_ = unix.MunmapPtr(p, head)
	}
	if tail := hugePage - head; tail > 0 {
		_ = unix.MunmapPtr(unsafe.Add(r, n), tail)
	}
	return r
}

// unmapRegion releases a region from mapRegion.
func unmapRegion(p unsafe.Pointer, n uintptr) { _ = unix.MunmapPtr(p, n) }
