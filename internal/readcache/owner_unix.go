//go:build unix

package readcache

import (
	"io/fs"
	"syscall"
)

// fileOwner is the uid owning the file.
func fileOwner(fi fs.FileInfo) (int, bool) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid), true
	}
	return 0, false
}

// permOK: neither group nor others may write the store.
func permOK(fi fs.FileInfo) bool { return fi.Mode().Perm()&0o022 == 0 }
