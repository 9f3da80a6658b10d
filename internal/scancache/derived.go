package scancache

import (
	"sync"
	"sync/atomic"

	"github.com/fscache/fscache/internal/walk"
)

// derivedSet holds values computed from a snapshot's entries on first use
// (pre-encoded results, indexes). The zero value is empty and ready.
type derivedSet struct {
	mu sync.Mutex
	m  map[any]*derivedValue
}

type derivedValue struct {
	once sync.Once
	v    any
	done atomic.Bool // v is built
}

// Derived returns the value derived from s's entries under key, calling
// build once per snapshot and key (concurrent callers wait for that one
// build). Nothing is computed until asked for, so making a snapshot (a new
// scan, a patched copy) stays as cheap as before; the value lives as long as
// the snapshot. key must be comparable; build must not modify the entries.
func (s *Snapshot) Derived(key any, build func(entries []walk.Entry) any) any {
	d := &s.derived
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
		v.v = build(s.Entries)
		v.done.Store(true)
	})
	return v.v
}

// DerivedIfBuilt returns the value derived from s's entries under key when
// Derived has built it, without building it; ok is false otherwise.
func (s *Snapshot) DerivedIfBuilt(key any) (v any, ok bool) {
	d := &s.derived
	d.mu.Lock()
	dv := d.m[key]
	d.mu.Unlock()
	if dv == nil || !dv.done.Load() {
		return nil, false
	}
	return dv.v, true
}
