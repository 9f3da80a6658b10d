package scancache

import (
	"sync"
	"sync/atomic"

	"github.com/fscache/fscache/internal/walk"
)

// derivedSet holds values computed from a block's entries on first use
// (pre-encoded results, fuzzy masks). The zero value is empty and ready.
type derivedSet struct {
	mu sync.Mutex
	m  map[any]*derivedValue
}

type derivedValue struct {
	once sync.Once
	v    any
	done atomic.Bool // v is built
}

// Derived returns the value derived from b's entries under key, calling
// build once per block and key (concurrent callers wait for that one
// build). Nothing is computed until asked for, so making a snapshot (a new
// scan, a patched one) stays as cheap as before; the value lives as long as
// the block, in every snapshot that shares it. key must be comparable;
// build must not modify the entries.
func (b *Block) Derived(key any, build func(entries []walk.Entry) any) any {
	d := &b.derived
	d.mu.Lock()
	if d.m == nil {
		d.m = map[any]*derivedValue{}
	}
	v := d.m[key]
	if v == nil {
		v = &derivedValue{}
		d.m[key] = v
	}
	d.mu.Unlock()
	v.once.Do(func() {
		v.v = build(b.entries)
		v.done.Store(true)
	})
	return v.v
}

// DerivedIfBuilt returns the value derived from b's entries under key when
// Derived has built it, without building it; ok is false otherwise.
func (b *Block) DerivedIfBuilt(key any) (v any, ok bool) {
	d := &b.derived
	d.mu.Lock()
	dv := d.m[key]
	d.mu.Unlock()
	if dv == nil || !dv.done.Load() {
		return nil, false
	}
	return dv.v, true
}
