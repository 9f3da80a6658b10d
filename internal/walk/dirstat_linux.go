//go:build linux && (amd64 || arm64)

package walk

import (
	"syscall"
	"unsafe"
)

// oPath is O_PATH (the same on amd64 and arm64; amd64's syscall package
// lacks the constant).
const oPath = 0x200000

// dirStat lstats the entries of one directory relative to a descriptor of
// it, which spares the kernel the lookup of the directory's path for every
// entry.
type dirStat struct{ fd int }

// openDirStat opens dir (following links) for dirStat.lstat; ok is false
// when it cannot.
func openDirStat(dir string) (d dirStat, ok bool) {
	for {
		fd, err := syscall.Open(dir, oPath|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err == nil {
			return dirStat{fd}, true
		}
		if err != syscall.EINTR {
			return dirStat{}, false
		}
	}
}

// lstat is lstatPath for the entry name of the directory; path is the
// entry's full path, used for names too long for the stack buffer.
func (d dirStat) lstat(name, path string) (mtime, size int64) {
	var buf [256]byte
	if len(name) >= len(buf) {
		return lstatPath(path)
	}
	copy(buf[:], name)
	buf[len(name)] = 0
	var st syscall.Stat_t
	for {
		_, _, errno := syscall.Syscall6(sysFstatat, uintptr(d.fd), uintptr(unsafe.Pointer(&buf[0])),
			uintptr(unsafe.Pointer(&st)), _AT_SYMLINK_NOFOLLOW, 0, 0)
		if errno == 0 {
			return statTimes(&st)
		}
		if errno != syscall.EINTR {
			return -1, -1
		}
	}
}

func (d dirStat) close() { syscall.Close(d.fd) }

// dirStatOf is a dirStat over fd, a directory the caller keeps open.
func dirStatOf(fd int) dirStat { return dirStat{fd} }

const _AT_SYMLINK_NOFOLLOW = 0x100
