//go:build cgo

package main

import (
	"runtime"
	"testing"
	"unsafe"
)

// TestResultMemPool checks that large results get regions that are reused
// after fscache_free, that the pool stays within its bounds, and that
// small results are plain malloc'd memory.
func TestResultMemPool(t *testing.T) {
	size := func() (live, free int, freeBytes uintptr) {
		resultMem.Lock()
		defer resultMem.Unlock()
		return len(resultMem.live), len(resultMem.free), resultMem.freeBytes
	}
	live0, _, _ := size()

	tag := func(p unsafe.Pointer) uint64 { return *(*uint64)(unsafe.Add(p, -hdr)) }
	small := cAlloc(100)
	if l, _, _ := size(); l != live0 {
		t.Fatalf("a small allocation was tracked as a region")
	}
	if tag(small) != tagMalloc || uintptr(small)%16 != 0 {
		t.Fatalf("a small result: tag %#x at %p, want %#x and 16-byte alignment (fscache_free frees it in C)", tag(small), small, tagMalloc)
	}
	cFree(small)

	p := cAlloc(bigMin + 1)
	if p == nil {
		t.Fatal("cAlloc returned nil")
	}
	if want := map[bool]uint64{true: tagRegion, false: tagMalloc}[runtime.GOOS == "linux"]; tag(p) != want {
		t.Fatalf("a large result: tag %#x, want %#x", tag(p), want)
	}
	b := unsafe.Slice((*byte)(p), bigMin+1)
	b[0], b[bigMin] = 1, 2 // the whole length is writable
	cFree(p)
	_, f1, _ := size()
	q := cAlloc(bigMin + 1)
	if _, f2, _ := size(); runtime.GOOS == "linux" && f2 != f1-1 {
		t.Errorf("a freed region was not reused: %d pooled before, %d after", f1, f2)
	}
	cFree(q)

	// Many regions freed at once: the pool keeps at most its bounds.
	var ps []unsafe.Pointer
	for range poolMaxRegions * 2 {
		ps = append(ps, cAlloc(bigMin))
	}
	for _, p := range ps {
		cFree(p)
	}
	live, free, freeBytes := size()
	if live != live0 || free > poolMaxRegions || freeBytes > poolMaxBytes {
		t.Errorf("after freeing: %d live (want %d), %d pooled (max %d), %d bytes pooled (max %d)",
			live, live0, free, poolMaxRegions, freeBytes, poolMaxBytes)
	}
	cFree(nil) // a no-op
}
