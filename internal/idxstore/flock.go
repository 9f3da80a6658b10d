//go:build unix && !aix

package idxstore

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// lockFile takes an exclusive flock on f, waiting unless try; with try,
// false when another open file description holds it. flock locks belong
// to the open file description: two opens of the lock file in one process
// exclude each other as two processes do.
func lockFile(f *os.File, try bool) (bool, error) {
	how := unix.LOCK_EX
	if try {
		how |= unix.LOCK_NB
	}
	err := control(f, func(fd int) error {
		for {
			err := unix.Flock(fd, how)
			if err != unix.EINTR {
				return err
			}
		}
	})
	if try && errors.Is(err, unix.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

// unlockFile releases f's flock (explicitly: a copy of the descriptor in
// a forked child would keep it past close).
func unlockFile(f *os.File) error {
	return control(f, func(fd int) error {
		for {
			err := unix.Flock(fd, unix.LOCK_UN)
			if err != unix.EINTR {
				return err
			}
		}
	})
}
