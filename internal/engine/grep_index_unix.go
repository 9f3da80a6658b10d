//go:build unix

package engine

import (
	"github.com/fscache/fscache/internal/index"
	"golang.org/x/sys/unix"
)

// fileMeta returns the inode number and link count of the file at path
// (zero when it cannot be read).
func fileMeta(path string) index.Meta {
	var st unix.Stat_t
	if unix.Lstat(path, &st) != nil {
		return index.Meta{}
	}
	return index.Meta{Ino: uint64(st.Ino), Links: uint64(st.Nlink)}
}
