//go:build unix

package readcache

import (
	"os"
	"syscall"
)

// openFlags: never block opening a FIFO that a regular file was swapped for
// between the check and the open.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK

// noFollow opens an object without following a symlink planted in its
// place.
const noFollow = syscall.O_NOFOLLOW
