package scancache

import (
	"sync"

	"github.com/fscache/fscache/core/walk"
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
	v.once.Do(func() { v.v = build(s.Entries) })
	return v.v
}
