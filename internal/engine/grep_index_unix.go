//go:build unix

package engine

import (
	"github.com/fscache/fscache/internal/index"
	"golang.org/x/sys/unix"
)

// fileMeta returns the inode number, link count, size, mtime and ctime of
// the file at path (zero when it cannot be read, with size -1).
func fileMeta(path string) index.Meta {
	var st unix.Stat_t
	if unix.Lstat(path, &st) != nil {
		return index.Meta{Size: -1}
	}
	return index.Meta{Ino: uint64(st.Ino), Links: uint64(st.Nlink), Size: st.Size,
		MtimeNs: st.Mtim.Nano(), CtimeNs: st.Ctim.Nano()}
}

// fileMetaAt is fileMeta for the file name relative to the directory
// descriptor dir (openDir; cwdDir: as fileMeta): the kernel looks up the
// name's components only, not the directory's.
func fileMetaAt(dir int, name string) index.Meta {
	var st unix.Stat_t
	if unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return index.Meta{Size: -1}
	}
	return index.Meta{Ino: uint64(st.Ino), Links: uint64(st.Nlink), Size: st.Size,
		MtimeNs: st.Mtim.Nano(), CtimeNs: st.Ctim.Nano()}
}
