package walk

import "syscall"

// lstatPath returns the modification time (ns since the epoch) of path,
// not following a final link, and its size when it is a regular file; -1
// for what cannot be read. It is os.Lstat without the FileInfo.
func lstatPath(path string) (mtime, size int64) {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(path, &st)
		if err == nil {
			break
		}
		if err != syscall.EINTR {
			return -1, -1
		}
	}
	return statTimes(&st)
}

// statTimes converts a stat result: mtime in ns and the size of a regular
// file (-1 otherwise).
func statTimes(st *syscall.Stat_t) (mtime, size int64) {
	mtime = Nanos(st.Mtim.Unix())
	size = -1
	if st.Mode&syscall.S_IFMT == syscall.S_IFREG {
		size = st.Size
	}
	return mtime, size
}
