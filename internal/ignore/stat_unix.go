//go:build unix

package ignore

import "syscall"

// statRegular stats path, following symlinks, without allocating an error:
// ok when it exists, regular when it is a regular file.
func statRegular(path string) (regular, ok bool) {
	var st syscall.Stat_t
	for {
		err := syscall.Stat(path, &st)
		if err == nil {
			return uint32(st.Mode)&syscall.S_IFMT == syscall.S_IFREG, true
		}
		if err != syscall.EINTR {
			return false, false
		}
	}
}
