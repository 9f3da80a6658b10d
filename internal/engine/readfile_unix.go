//go:build unix

package engine

import (
	"slices"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// openat opens the NUL-terminated name relative to dir for reading,
// retrying when interrupted. The name is the caller's bytes: no string is
// converted per file.
func openat(dir int, name []byte) (int, error) {
	for {
		fd, _, errno := unix.Syscall6(unix.SYS_OPENAT, uintptr(dir), uintptr(unsafe.Pointer(&name[0])),
			uintptr(unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NONBLOCK), 0, 0, 0)
		switch errno {
		case 0:
			return int(fd), nil
		case unix.EINTR:
			continue
		}
		return -1, errno
	}
}

// openDir opens the directory path for readFileAt; ok is false when it
// cannot.
func openDir(path string) (dir int, ok bool) {
	for {
		fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err == nil {
			return fd, true
		}
		if err != unix.EINTR {
			return -1, false
		}
	}
}

// cwdDir makes readFileAt open its name as readFile does (an absolute
// name, or relative to the working directory).
const cwdDir = unix.AT_FDCWD

// closeDir closes a directory from openDir.
func closeDir(dir int) { unix.Close(dir) }

// readFile reads the file at path into buf (grown as needed) with plain
// system calls: open, read until end of file, close. It skips what os.File
// adds per file (registering with the poller, a finalizer), which is most
// of grep's time on a tree of small files. O_NONBLOCK keeps a file that
// became a FIFO since the walk from blocking the open. ok is false when the
// file cannot be read or holds more than maxFileSize bytes.
func readFile(path string, buf []byte) (data []byte, ok bool) {
	return readFileAt(unix.AT_FDCWD, path, buf, false)
}

// readFileAt is readFile for the file name relative to the directory
// descriptor dir (an absolute name ignores dir): opening by a name relative
// to an open directory spares the kernel the lookup of every component of
// the directory's path, file after file. With shortEOF (see
// shortReadIsEOF) a read that does not fill the buffer ends the file,
// sparing the read that would return 0.
func readFileAt(dir int, name string, buf []byte, shortEOF bool) (data []byte, ok bool) {
	if strings.IndexByte(name, 0) >= 0 {
		return buf, false // no file has that name
	}
	return readFileNamed(dir, append([]byte(name), 0), buf, shortEOF, nil)
}

// readFileNamed is readFileAt for a name given NUL-terminated in name (the
// bytes of a buffer grep reuses from file to file). With big, a file
// larger than bigReadFrom is read into big's buffer, outside the Go heap
// (bigread_unix.go), instead of growing buf.
func readFileNamed(dir int, name []byte, buf []byte, shortEOF bool, big *bigRead) (data []byte, ok bool) {
	fd, err := openat(dir, name)
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
			if big != nil && len(buf)+grow > bigReadFrom {
				buf = big.grow(buf, len(buf)+grow)
			} else {
				buf = slices.Grow(buf, grow)
			}
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
		if shortEOF && len(buf) < cap(buf) {
			return buf, len(buf) <= maxFileSize
		}
	}
}
