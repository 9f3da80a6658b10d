//go:build !linux

package walk

import "os"

// lstatPath returns the modification time (ms since the epoch, ns when
// ns) of path,
// not following a final link, and its size when it is a regular file; -1
// for what cannot be read.
func lstatPath(path string, ns bool) (mtime, size int64) {
	info, err := os.Lstat(path)
	if err != nil {
		return -1, -1
	}
	size = -1
	if info.Mode().IsRegular() {
		size = info.Size()
	}
	if ns {
		return info.ModTime().UnixNano(), size
	}
	return info.ModTime().UnixMilli(), size
}
