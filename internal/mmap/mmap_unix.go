//go:build aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris

package mmap

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps the first size bytes of f read-only and shared.
func mapFile(f *os.File, size int) ([]byte, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var data []byte
	var merr error
	if err := rc.Control(func(fd uintptr) {
		data, merr = unix.Mmap(int(fd), 0, size, unix.PROT_READ, unix.MAP_SHARED)
	}); err != nil {
		return nil, err
	}
	if merr != nil {
		return nil, merr
	}
	return data, nil
}

// unmapFile releases a mapping made by mapFile.
func unmapFile(data []byte) error { return unix.Munmap(data) }

// evict drops data's pages from the resident set (MADV_DONTNEED: on a
// shared read-only file mapping, a later read faults them in from the page
// cache, unchanged).
func evict(data []byte) { _ = unix.Madvise(data, unix.MADV_DONTNEED) }
