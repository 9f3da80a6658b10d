package walk

import "syscall"

// lstatPath returns the modification time (ms since the epoch, ns when
// ns) of path,
// not following a final link, and its size when it is a regular file; -1
// for what cannot be read. It is os.Lstat without the FileInfo.
func lstatPath(path string, ns bool) (mtime, size int64) {
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
	return statTimes(&st, ns)
}

// statTimes converts a stat result: mtime in ms (in ns when ns) and the
// size of a regular file (-1 otherwise).
func statTimes(st *syscall.Stat_t, ns bool) (mtime, size int64) {
	sec, nsec := st.Mtim.Unix()
	mtime = sec*1000 + nsec/1e6
	if ns {
		mtime = sec*1e9 + nsec
	}
	size = -1
	if st.Mode&syscall.S_IFMT == syscall.S_IFREG {
		size = st.Size
	}
	return mtime, size
}
