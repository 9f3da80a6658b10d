//go:build unix

package core

import (
	"slices"
	"syscall"
)

// readFile reads the file at path into buf (grown as needed) with plain
// system calls: open, read until end of file, close. It skips what os.File
// adds per file (registering with the poller, a finalizer), which is most
// of grep's time on a tree of small files. O_NONBLOCK keeps a file that
// became a FIFO since the walk from blocking the open. ok is false when the
// file cannot be read or holds more than maxFileSize bytes.
func readFile(path string, buf []byte) (data []byte, ok bool) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		return buf, false
	}
	defer syscall.Close(fd)
	if cap(buf) == 0 {
		buf = make([]byte, 0, 64<<10)
	}
	sized := false
	for {
		if len(buf) == cap(buf) {
			if len(buf) > maxFileSize {
				return buf, false
			}
			grow := len(buf)
			if !sized {
				// The file fills the buffer: size it once from fstat
				// rather than doubling (and copying) repeatedly.
				sized = true
				var st syscall.Stat_t
				if syscall.Fstat(fd, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFREG {
					if st.Size > maxFileSize {
						return buf, false
					}
					// One byte more, so that the read seeing the end
					// of the file needs no growth.
					grow = max(grow, int(st.Size)+1-len(buf))
				}
			}
			buf = slices.Grow(buf, grow)
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf, false
		}
		if n == 0 {
			return buf, len(buf) <= maxFileSize
		}
		buf = buf[:len(buf)+n]
	}
}
