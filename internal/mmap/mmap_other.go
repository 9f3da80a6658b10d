//go:build !(aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris)

package mmap

import (
	"io"
	"os"
)

// mapFile reads the first size bytes of f into memory: this system has no
// mapping the package uses.
func mapFile(f *os.File, size int) ([]byte, error) {
	data := make([]byte, size)
	n, err := f.ReadAt(data, 0)
	if n < size {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF // the file shrank since Stat
		}
		return nil, err
	}
	return data, nil
}

// unmapFile does nothing: the garbage collector frees the copy.
func unmapFile([]byte) error { return nil }

// evict does nothing: the bytes are the process's own copy.
func evict([]byte) {}
