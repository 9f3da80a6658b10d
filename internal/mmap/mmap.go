// Package mmap maps whole files into memory, read-only: on unix systems
// with mmap(2) (PROT_READ, MAP_SHARED), elsewhere by reading the file into
// memory. Windows reads too: it refuses to rename a file over one that a
// process maps (even with FILE_SHARE_DELETE, as under wine 8), and a
// persisted index must be replaceable while other processes use it.
//
// The bytes of a Mapping must never be written to (the pages are
// read-only: a write faults), and the file must not be truncated while it
// is mapped (on unix a read past the new end faults with SIGBUS): replace
// such files by renaming a new file over them instead.
package mmap

import (
	"fmt"
	"math"
	"os"
	"sync"
)

// Mapping is a read-only view of a whole file's content.
type Mapping struct {
	mu     sync.Mutex
	data   []byte
	closed bool
}

// Map maps the whole content of f, read-only. The mapping stays valid after
// f is closed, until Close. An empty file maps to an empty slice.
func Map(f *os.File) (*Mapping, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("mmap: %w", err)
	}
	size := fi.Size()
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("mmap %s: not a regular file", f.Name())
	}
	if size == 0 {
		return &Mapping{}, nil
	}
	if size < 0 || uint64(size) > math.MaxInt {
		return nil, fmt.Errorf("mmap %s: size %d does not fit in memory", f.Name(), size)
	}
	data, err := mapFile(f, int(size))
	if err != nil {
		return nil, fmt.Errorf("mmap %s: %w", f.Name(), err)
	}
	return &Mapping{data: data}, nil
}

// Bytes returns the mapped content (empty after Close). The slice must not
// be written to, nor used after Close.
func (m *Mapping) Bytes() []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.data
}

// Evict tells the system that the mapped pages are not needed soon: on
// unix they leave the process's resident set (they stay in the page cache,
// and a later read maps them again); elsewhere it does nothing. For after
// a pass over the whole file (a checksum), so that the process does not
// keep resident what its queries never read. The bytes stay valid.
func (m *Mapping) Evict() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.closed && len(m.data) > 0 {
		evict(m.data)
	}
}

// Close releases the mapping. It may be called more than once; the calls
// after the first do nothing and return nil.
func (m *Mapping) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil
	}
	m.closed = true
	data := m.data
	m.data = nil
	if len(data) == 0 {
		return nil
	}
	if err := unmapFile(data); err != nil {
		return fmt.Errorf("mmap: unmap: %w", err)
	}
	return nil
}
