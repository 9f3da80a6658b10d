//go:build !linux

package main

import "unsafe"

// roundRegion: regions of their own are a Linux measure; elsewhere large
// results are malloc'd like the rest.
func roundRegion(n uintptr) uintptr { return n }

// mapRegion returns nil: cAlloc falls back to malloc.
func mapRegion(uintptr) unsafe.Pointer { return nil }

// unmapRegion is never called: no region is ever mapped.
func unmapRegion(unsafe.Pointer, uintptr) {}
