//go:build linux

package watch

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// fileMask: what changes a watched file's content or metadata, whatever
// name it is changed through, and its watch's end.
const fileMask = unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE | unix.IN_DELETE_SELF |
	unix.IN_MOVE_SELF | unix.IN_DONT_FOLLOW | unix.IN_EXCL_UNLINK

// Files watches files themselves, not directories: inotify watches an
// inode, so a change made through any of a file's names (a hard link in
// a directory nobody watches) is reported. Drain, as Watcher's, sees every
// change whose call returned before it (see New).
type Files struct {
	mu  sync.Mutex
	fd  int
	buf []byte
}

// NewFiles returns a watcher of files; its descriptor is non-blocking and
// close-on-exec.
func NewFiles() (*Files, error) {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		if errors.Is(err, unix.EMFILE) {
			return nil, fmt.Errorf("%w: inotify instances (%v)", ErrLimit, err)
		}
		return nil, fmt.Errorf("watch: inotify_init1: %w", err)
	}
	return &Files{fd: fd}, nil
}

// Add watches the file at path (not following a final symlink) and returns
// its watch descriptor: the same for every name of one file.
func (f *Files) Add(path string) (int32, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fd < 0 {
		return -1, errors.New("watch: closed")
	}
	wd, err := unix.InotifyAddWatch(f.fd, path, fileMask)
	if err != nil {
		if errors.Is(err, unix.ENOSPC) {
			return -1, fmt.Errorf("%w: %s", ErrLimit, path)
		}
		return -1, fmt.Errorf("watch %s: %w", path, err)
	}
	return int32(wd), nil
}

// Drain returns the watch descriptors of the files changed (or whose
// watch ended) since the last Drain, without blocking; overflow reports
// that the kernel dropped events: any watched file may have changed.
func (f *Files) Drain() (wds []int32, overflow bool, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fd < 0 {
		return nil, false, errors.New("watch: closed")
	}
	if f.buf == nil {
		f.buf = make([]byte, 16<<10)
	}
	for {
		n, err := unix.Read(f.fd, f.buf)
		if err == unix.EINTR {
			continue
		}
		if err == unix.EAGAIN || n == 0 {
			return wds, overflow, nil
		}
		if err != nil {
			return wds, overflow, fmt.Errorf("watch: read: %w", err)
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			raw := (*unix.InotifyEvent)(unsafe.Pointer(&f.buf[off]))
			off += unix.SizeofInotifyEvent + int(raw.Len)
			if raw.Mask&unix.IN_Q_OVERFLOW != 0 {
				overflow = true
				continue
			}
			wds = append(wds, raw.Wd)
		}
	}
}

// Close releases every watch.
func (f *Files) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fd < 0 {
		return nil
	}
	err := unix.Close(f.fd)
	f.fd = -1
	return err
}
