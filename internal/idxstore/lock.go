package idxstore

import (
	"fmt"
	"os"
)

// Lock is a held exclusive lock on an index name (Store.Lock, TryLock). It
// is not safe for concurrent use.
type Lock struct {
	f    *os.File // the open lock file that holds the lock; nil once unlocked
	path string
}

// Lock takes the exclusive lock of the index name, waiting for its holder
// to release it. The lock is an advisory lock (flock(LOCK_EX) on unix,
// LockFileEx(LOCKFILE_EXCLUSIVE_LOCK) on Windows) on the file "NAME.lock"
// in the store, created with mode 0600 when missing and never deleted
// (deleting a lock file would let two writers lock two different files).
//
// The lock belongs to the Lock value (its open file), not to the process:
// a second Lock of the same name in the same process, through this Store
// or another, waits for the first's Unlock as one of another process
// would. It is released by Unlock, or by the operating system when the
// process exits, however it ends.
func (s *Store) Lock(name string) (*Lock, error) {
	l, _, err := s.lock(name, false)
	return l, err
}

// TryLock is Lock without waiting: when another Lock (of this process or
// another) holds the name's lock, it returns nil, false and no error.
func (s *Store) TryLock(name string) (*Lock, bool, error) {
	return s.lock(name, true)
}

// lock opens (creating) name's lock file and locks it.
func (s *Store) lock(name string, try bool) (*Lock, bool, error) {
	if err := checkName(name); err != nil {
		return nil, false, err
	}
	path := s.Path(name) + lockSuffix
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|openNoFollow, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("idxstore: opening lock file: %w", err)
	}
	ok, err := lockFile(f, try)
	if err != nil || !ok {
		f.Close()
		if err != nil {
			return nil, false, fmt.Errorf("idxstore: locking %s: %w", path, err)
		}
		return nil, false, nil
	}
	return &Lock{f: f, path: path}, true, nil
}

// Unlock releases the lock. A second Unlock returns an error.
func (l *Lock) Unlock() error {
	if l.f == nil {
		return fmt.Errorf("idxstore: unlocking %s: %w (not locked)", l.path, os.ErrClosed)
	}
	f := l.f
	l.f = nil
	uerr := unlockFile(f)
	cerr := f.Close()
	if uerr != nil {
		return fmt.Errorf("idxstore: unlocking %s: %w", l.path, uerr)
	}
	if cerr != nil {
		return fmt.Errorf("idxstore: closing lock file %s: %w", l.path, cerr)
	}
	return nil
}
