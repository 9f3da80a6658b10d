//go:build linux

package watch

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The events watched. IN_MODIFY, IN_ATTRIB and IN_CLOSE_WRITE matter to
// full-detail scans (mtime, size) and to ignore files; the others change
// the entry set. IN_EXCL_UNLINK drops events of unlinked files still open.
const mask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO |
	unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE |
	unix.IN_DELETE_SELF | unix.IN_MOVE_SELF |
	unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW | unix.IN_EXCL_UNLINK

type inotify struct {
	mu     sync.Mutex
	fd     int
	byWD   map[int32]string
	byPath map[string]int32
	buf    []byte
}

// New returns an inotify watcher. Its descriptor is non-blocking and
// close-on-exec.
//
// Why a non-blocking Drain sees every change that completed before it:
// the kernel queues an inotify event from inside the system call that
// makes the change (fsnotify is called by the VFS operation before it
// returns to user space), so once a create, unlink, rename or write has
// returned, its event is readable on the descriptor. A read that finds the
// queue empty (EAGAIN) after the change therefore proves there is nothing
// in flight for it.
func New() (Watcher, error) {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		if errors.Is(err, unix.EMFILE) {
			return nil, fmt.Errorf("%w: inotify instances (%v)", ErrLimit, err)
		}
		return nil, fmt.Errorf("watch: inotify_init1: %w", err)
	}
	// The read buffer is made by the first Drain: the scan cache's
	// probe (a New closed at once) costs every process no 64 KiB.
	return &inotify{fd: fd, byWD: map[int32]string{}, byPath: map[string]int32{}}, nil
}

func (w *inotify) Add(dir string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fd < 0 {
		return errors.New("watch: closed")
	}
	// Always ask the kernel: a path may name a new directory whose old
	// watch's IN_IGNORED has not been drained yet.
	wd, err := unix.InotifyAddWatch(w.fd, dir, mask)
	if err != nil {
		if errors.Is(err, unix.ENOSPC) {
			return fmt.Errorf("%w: %s", ErrLimit, dir)
		}
		return fmt.Errorf("watch %s: %w", dir, err)
	}
	if old, ok := w.byWD[int32(wd)]; ok && old != dir {
		// The same directory under another path (a bind mount or a path
		// that changed under us): keep one mapping, the newest.
		delete(w.byPath, old)
	}
	w.byWD[int32(wd)] = dir
	w.byPath[dir] = int32(wd)
	return nil
}

func (w *inotify) RemoveIfGone(dir string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fd < 0 {
		return
	}
	// Under w.mu: an Add for a directory made at dir after this check
	// comes after the removal.
	var st unix.Stat_t
	if unix.Lstat(dir, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
		return
	}
	for p, wd := range w.byPath {
		if p == dir || strings.HasPrefix(p, dir+"/") || dir == "/" {
			unix.InotifyRmWatch(w.fd, uint32(wd)) // fails harmlessly when already gone
			delete(w.byPath, p)
			delete(w.byWD, wd)
		}
	}
}

func (w *inotify) Drain() ([]Event, bool, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fd < 0 {
		return nil, false, errors.New("watch: closed")
	}
	if w.buf == nil {
		w.buf = make([]byte, 64<<10)
	}
	var out []Event
	overflow := false
	for {
		n, err := unix.Read(w.fd, w.buf)
		if err == unix.EINTR {
			continue
		}
		if err == unix.EAGAIN || n == 0 {
			return out, overflow, nil
		}
		if err != nil {
			return out, overflow, fmt.Errorf("watch: read: %w", err)
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			raw := (*unix.InotifyEvent)(unsafe.Pointer(&w.buf[off]))
			nameLen := int(raw.Len)
			name := ""
			if nameLen > 0 {
				b := w.buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+nameLen]
				if i := indexNUL(b); i >= 0 {
					b = b[:i]
				}
				name = string(b)
			}
			off += unix.SizeofInotifyEvent + nameLen
			m := raw.Mask
			if m&unix.IN_Q_OVERFLOW != 0 {
				overflow = true
				continue
			}
			dir, ok := w.byWD[raw.Wd]
			if !ok {
				continue // a watch removed since the event was queued
			}
			if m&unix.IN_IGNORED != 0 {
				delete(w.byWD, raw.Wd)
				if w.byPath[dir] == raw.Wd {
					delete(w.byPath, dir)
				}
				out = append(out, Event{Dir: dir, Gone: true})
				continue
			}
			ev := Event{Dir: dir, Name: name, IsDir: m&unix.IN_ISDIR != 0}
			if m&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0 {
				ev.Gone = true
			} else if m&(unix.IN_CREATE|unix.IN_DELETE|unix.IN_MOVED_FROM|unix.IN_MOVED_TO) == 0 {
				ev.Content = true
			}
			out = append(out, ev)
		}
	}
}

func indexNUL(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}

func (w *inotify) Len() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.byPath)
}

func (w *inotify) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fd < 0 {
		return nil
	}
	err := unix.Close(w.fd)
	w.fd = -1
	clear(w.byWD)
	clear(w.byPath)
	return err
}
