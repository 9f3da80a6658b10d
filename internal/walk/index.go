package walk

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
)

// indexSlots is the size of the direct-mapped cache in front of a
// pathIndex's map. The directories being listed at any time are few (one
// per fastwalk worker) and their entries are looked up right after the
// directory was stored, so collisions are rare.
const indexSlots = 256

// pathIndex maps directory paths to values for the walk callbacks: a
// mutex-protected map behind a lock-free direct-mapped cache, cheaper than
// sync.Map for this pattern (few stores, many lookups of recent keys).
type pathIndex[T any] struct {
	seed  maphash.Seed
	slots [indexSlots]atomic.Pointer[indexed[T]]
	mu    sync.Mutex
	m     map[string]*indexed[T]
}

type indexed[T any] struct {
	path string
	v    T
}

func newPathIndex[T any]() *pathIndex[T] {
	return &pathIndex[T]{seed: maphash.MakeSeed(), m: make(map[string]*indexed[T])}
}

func (x *pathIndex[T]) slot(path string) *atomic.Pointer[indexed[T]] {
	return &x.slots[maphash.String(x.seed, path)%indexSlots]
}

// store records v for path.
func (x *pathIndex[T]) store(path string, v T) {
	e := &indexed[T]{path, v}
	x.mu.Lock()
	x.m[path] = e
	x.mu.Unlock()
	x.slot(path).Store(e)
}

// load returns the value stored for path.
func (x *pathIndex[T]) load(path string) (v T, ok bool) {
	slot := x.slot(path)
	if e := slot.Load(); e != nil && e.path == path {
		return e.v, true
	}
	x.mu.Lock()
	e := x.m[path]
	x.mu.Unlock()
	if e == nil {
		return v, false
	}
	slot.Store(e)
	return e.v, true
}
