//go:build unix

package engine

import (
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Large files outside the Go heap. A grep reads each file whole into a
// buffer its worker reuses; a file of megabytes (a minified bundle, a
// vendored release) used to grow that buffer on the heap, and the garbage
// of a few such files took the heap past the collector's goal within a
// first call: a collection in the middle of the call, whose mark phase
// waits for the search workers to stop (they run in assembly loops that
// cannot be preempted). A file larger than bigReadFrom is now read into
// an anonymous mapping that the worker keeps for its next large file and
// hands back when it ends (bigFree keeps a few for the next calls). The
// search copies out every line it reports, so nothing refers to the
// mapping once the file is searched.

// bigReadFrom is the size from which a grep reads a file outside the heap.
const bigReadFrom = 1 << 20

// bigKeep is the number of mappings kept between calls.
const bigKeep = 2

// bigFree holds the mappings kept between calls.
var bigFree struct {
	mu   sync.Mutex
	bufs [][]byte
}

// bigRead is one worker's mapping for large files.
type bigRead struct{ b []byte }

// grow returns a buffer of capacity n or more outside the heap holding
// buf's bytes: big's mapping, replaced by a larger one when it is too
// small. It falls back to the heap when the system refuses a mapping.
func (big *bigRead) grow(buf []byte, n int) []byte {
	if cap(big.b) < n {
		nb := bigTake(n)
		if nb == nil {
			out := make([]byte, len(buf), n)
			copy(out, buf)
			return out
		}
		copy(nb, buf) // buf may be big's old mapping: copied before it goes
		big.put()
		big.b = nb
	} else {
		copy(big.b, buf)
	}
	return big.b[:len(buf)]
}

// holds reports whether b is (a prefix of) big's mapping.
func (big *bigRead) holds(b []byte) bool {
	return big != nil && cap(b) > 0 && cap(big.b) > 0 && unsafe.SliceData(b) == unsafe.SliceData(big.b)
}

// put hands big's mapping back (kept for another worker or call, or
// unmapped).
func (big *bigRead) put() {
	if big.b == nil {
		return
	}
	b := big.b[:cap(big.b)]
	big.b = nil
	bigFree.mu.Lock()
	if len(bigFree.bufs) < bigKeep {
		bigFree.bufs = append(bigFree.bufs, b)
		b = nil
	}
	bigFree.mu.Unlock()
	if b != nil {
		_ = unix.Munmap(b)
	}
}

// bigTake returns a kept mapping of at least n bytes, or a new one (n
// rounded up to a MiB), nil when mapping fails.
func bigTake(n int) []byte {
	bigFree.mu.Lock()
	for i, b := range bigFree.bufs {
		if cap(b) >= n {
			bigFree.bufs = append(bigFree.bufs[:i], bigFree.bufs[i+1:]...)
			bigFree.mu.Unlock()
			return b
		}
	}
	bigFree.mu.Unlock()
	size := (n + 1<<20 - 1) &^ (1<<20 - 1)
	b, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return nil
	}
	return b
}
