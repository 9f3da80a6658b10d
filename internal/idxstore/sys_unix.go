//go:build unix

package idxstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// openNoFollow makes an open fail on a symbolic link.
const openNoFollow = unix.O_NOFOLLOW

// checkPrivate refuses a file or directory (what: which, for the error)
// that is not owned by the effective user or is writable by group or
// others.
func checkPrivate(what, path string, fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("idxstore: %s %s: no owner information", what, path)
	}
	if uid := os.Geteuid(); int(st.Uid) != uid {
		return fmt.Errorf("idxstore: %s %s is owned by uid %d, not by the current user (uid %d)", what, path, st.Uid, uid)
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Errorf("idxstore: %s %s is writable by group or others (mode %04o; chmod go-w would fix it)", what, path, uint32(perm))
	}
	return nil
}

// openIndexFile opens path read-only, failing on a symbolic link, and
// without blocking on a FIFO (the caller refuses anything but a regular
// file; the descriptor is put back in blocking mode).
func openIndexFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, unix.ELOOP) {
			return nil, fmt.Errorf("idxstore: index file %s is a symbolic link", path)
		}
		return nil, fmt.Errorf("idxstore: opening index file: %w", err)
	}
	if err := control(f, func(fd int) error { return unix.SetNonblock(fd, false) }); err != nil {
		f.Close()
		return nil, fmt.Errorf("idxstore: index file %s: %w", path, err)
	}
	return f, nil
}

// control calls fn with f's descriptor.
func control(f *os.File, fn func(fd int) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = fn(int(fd)) }); err != nil {
		return err
	}
	return ferr
}

// syncDir fsyncs the directory dir, so that a rename in it is durable.
// File systems that cannot sync a directory (EINVAL, ENOTSUP) are not an
// error.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	cerr := d.Close()
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOTSUP) {
		err = nil
	}
	if err != nil {
		return err
	}
	return cerr
}
