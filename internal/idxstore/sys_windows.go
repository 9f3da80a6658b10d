//go:build windows

package idxstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/sys/windows"
)

// openNoFollow: Windows has no O_NOFOLLOW; the store directory's checks
// (no reparse point) stand in for it.
const openNoFollow = 0

// checkPrivate does nothing on Windows: ownership and ACLs are not
// checked (see the package comment).
func checkPrivate(what, path string, fi fs.FileInfo) error {
	return nil
}

// openIndexFile opens path for reading, sharing read, write and delete
// (so that an open index does not keep a writer from replacing it), and
// without following a reparse point (the caller's Stat then reports it, and
// it is refused).
func openIndexFile(path string) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, fmt.Errorf("idxstore: opening index file: %w", &fs.PathError{Op: "open", Path: path, Err: err})
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil,
		windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return nil, fmt.Errorf("idxstore: opening index file: %w", &fs.PathError{Op: "open", Path: path, Err: err})
	}
	return os.NewFile(uintptr(h), path), nil
}

// syncDir does nothing on Windows: directories cannot be flushed there,
// and a rename is made durable by the file system's journal.
func syncDir(dir string) error {
	return nil
}

// allBytes: LockFileEx's range, the whole file (and beyond), as Go's own
// cmd/go/internal/lockedfile locks.
const allBytes = ^uint32(0)

// lockFile takes an exclusive LockFileEx lock on f, waiting unless try;
// with try, false when another handle holds it. The lock belongs to the
// handle: two opens of the lock file in one process exclude each other as
// two processes do.
func lockFile(f *os.File, try bool) (bool, error) {
	flags := uint32(windows.LOCKFILE_EXCLUSIVE_LOCK)
	if try {
		flags |= windows.LOCKFILE_FAIL_IMMEDIATELY
	}
	err := control(f, func(h windows.Handle) error {
		return windows.LockFileEx(h, flags, 0, allBytes, allBytes, new(windows.Overlapped))
	})
	if try && errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return false, nil
	}
	return err == nil, err
}

// unlockFile releases f's lock.
func unlockFile(f *os.File) error {
	return control(f, func(h windows.Handle) error {
		return windows.UnlockFileEx(h, 0, allBytes, allBytes, new(windows.Overlapped))
	})
}

// control calls fn with f's handle.
func control(f *os.File, fn func(h windows.Handle) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = fn(windows.Handle(fd)) }); err != nil {
		return err
	}
	return ferr
}
