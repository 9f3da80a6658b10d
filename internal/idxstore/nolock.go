//go:build (!unix && !windows) || aix

package idxstore

import (
	"errors"
	"os"
	"runtime"
)

// errNoLocks: this platform has no lock implementation here, so nothing
// can be published (Lock fails, and callers fall back to not persisting).
var errNoLocks = errors.New("file locks are not supported on " + runtime.GOOS)

// lockFile fails: no locks on this platform.
func lockFile(f *os.File, try bool) (bool, error) {
	return false, errNoLocks
}

// unlockFile fails: no locks on this platform.
func unlockFile(f *os.File) error {
	return errNoLocks
}
