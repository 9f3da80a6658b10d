//go:build !linux

package walk

import "os"

// lstatPath returns the modification time (ns since the epoch) of path,
// not following a final link, and its size when it is a regular file; -1
// for what cannot be read.
func lstatPath(path string) (mtime, size int64) {
	info, err := os.Lstat(path)
	if err != nil {
		return -1, -1
	}
	size = -1
	if info.Mode().IsRegular() {
		size = info.Size()
	}
	t := info.ModTime()
	return Nanos(t.Unix(), int64(t.Nanosecond())), size
}
