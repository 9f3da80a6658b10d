package walk

import (
	"io/fs"
	"os"
	"sync"
	"syscall"
	"unsafe"

	"github.com/charlievieth/fastwalk"
	"golang.org/x/sys/unix"

	"github.com/fscache/fscache/internal/fence"
	"github.com/fscache/fscache/internal/ignore"
)

// On Linux, Scan lists directories itself rather than through fastwalk.
// fastwalk calls back for each entry while it is still reading the
// directory, so the ignore state of a directory with subdirectories had to
// be built by probing for every ignore file (.git, .jj, .ignore,
// .gitignore: three or four failed lookups per directory), and it costs an
// allocation per entry for its DirEntry and another for the entry's path.
// Here a worker reads a directory's whole listing first: the names it
// holds say which ignore files exist, so none is probed, and the paths of
// all its entries are cut from one string. Entries are then decided by
// entryIn, exactly as for fastwalk's callbacks.

// listsWithFastwalk is false: Scan lists with walkTree.
const listsWithFastwalk = false

// listWorkers is the number of goroutines listing directories: as many as
// fastwalk would use (they mostly wait on the kernel).
func listWorkers() int { return fastwalk.DefaultNumWorkers() }

// direntBuf is the largest size of a worker's getdents buffer. A worker
// starts with direntBufMin and doubles it (up to direntBuf) when a call
// fills more than half of it: a small tree's scan does not allocate and
// clear 32 KiB per worker, a large directory is still read in few calls.
const (
	direntBufMin = 4 << 10
	direntBuf    = 32 << 10
)

// walkTree lists the tree under s.root, root included, into s's nodes.
func (s *scanner) walkTree() error {
	q := &dirQueue{todo: []*dirNode{s.rootNode}, pending: 1}
	q.cond.L = &q.mu
	workers := listWorkers()
	// A panic in a worker is the walk's error, and stops the others
	// (pop returns nil once q.err is set).
	g := fence.Group{Stop: func(err *fence.Error) { q.fail(err) }}
	for range workers {
		g.Go(fence.WalkList, func() {
			l := lister{s: s}
			for {
				n := q.pop()
				if n == nil {
					return
				}
				subs, err := l.list(n)
				q.push(subs)
				q.done(err)
			}
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return q.err
}

// dirQueue holds the directories waiting to be listed, most recent first
// (depth first, which keeps the number waiting small).
type dirQueue struct {
	mu      sync.Mutex
	cond    sync.Cond
	todo    []*dirNode
	pending int   // directories queued or being listed
	err     error // the first error, which stops the walk
}

// pop returns the next directory to list, or nil when the walk is over.
func (q *dirQueue) pop() *dirNode {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.todo) == 0 && q.pending > 0 && q.err == nil {
		q.cond.Wait()
	}
	if q.err != nil || len(q.todo) == 0 {
		return nil
	}
	n := q.todo[len(q.todo)-1]
	q.todo = q.todo[:len(q.todo)-1]
	return n
}

// push queues the directories of one listing.
func (q *dirQueue) push(ns []*dirNode) {
	if len(ns) == 0 {
		return
	}
	q.mu.Lock()
	q.todo = append(q.todo, ns...)
	q.pending += len(ns)
	q.mu.Unlock()
	if len(ns) == 1 {
		q.cond.Signal()
	} else {
		q.cond.Broadcast()
	}
}

// fail stops the walk with err (a worker's panic: its directory is never
// done).
func (q *dirQueue) fail(err error) {
	q.mu.Lock()
	if q.err == nil {
		q.err = err
	}
	q.mu.Unlock()
	q.cond.Broadcast()
}

// done ends the listing of one directory, err being its error.
func (q *dirQueue) done(err error) {
	q.mu.Lock()
	q.pending--
	if err != nil && q.err == nil {
		q.err = err
	}
	wake := q.pending == 0 || q.err != nil
	q.mu.Unlock()
	if wake {
		q.cond.Broadcast()
	}
}

// lister is one worker's state.
type lister struct {
	s     *scanner
	buf   []byte   // getdents buffer
	names []byte   // the paths of the directory's entries, back to back
	ents  []listed // the entries, indexing names
	subs  []*dirNode
}

// listed is an entry of a listing: its path is names[at:end], its name
// names[nameAt:end].
type listed struct {
	at, nameAt, end int
	typ             fs.FileMode
}

// list reads the directory n completely, then decides about its entries
// and returns its kept subdirectories to be listed (l.subs: valid until
// the next call). An unreadable directory is skipped silently, as
// fastwalk's callback does.
func (l *lister) list(n *dirNode) ([]*dirNode, error) {
	fd, err := openDir(n.path)
	if err != nil {
		return nil, l.s.unopened(n)
	}
	defer syscall.Close(fd)
	fence.Point(fence.WalkList) // (a test build panics here, the directory open)
	prefix := n.path + "/"
	if n.path == "/" {
		prefix = "/"
	}
	l.read(fd, prefix)
	if len(l.ents) == 0 {
		return nil, nil
	}
	paths := string(l.names) // one allocation for every path of the listing
	// The listing is complete: its ignore files are known.
	l.s.noteIgnoreFiles(n, l.ents, paths)
	return l.decide(n, fd, paths)
}

// unopened is list's answer for the directory n that cannot be opened: as
// fastwalk.Walk, a root that is gone is an error (os.Stat's), an unreadable
// one an empty walk, and any other directory is skipped silently (nil).
func (s *scanner) unopened(n *dirNode) error {
	if n == s.rootNode {
		if _, err := os.Stat(n.path); err != nil {
			return err
		}
	}
	return nil
}

// read reads the whole listing of the open directory fd into l.ents and
// l.names, each entry's path being prefix followed by its name. A read
// error ends the listing with what was read. The getdents buffer grows
// (up to direntBuf) when a call fills more than half of it.
func (l *lister) read(fd int, prefix string) {
	l.names, l.ents = l.names[:0], l.ents[:0]
	if l.buf == nil {
		l.buf = make([]byte, direntBufMin)
	}
	for {
		nb, err := readDirent(fd, l.buf)
		if err != nil || nb <= 0 {
			break // a read error ends the listing with what was read
		}
		l.addDirents(fd, prefix, l.buf[:nb])
		if nb > len(l.buf)/2 && len(l.buf) < direntBuf {
			l.buf = make([]byte, 2*len(l.buf)) // a large directory
		}
	}
}

// addDirents appends to l.ents and l.names the entries of b, the records
// one getdents64 call returned for the directory fd, skipping "." and
// "..", the records without an inode and the entries gone before their
// type could be read (direntType). A malformed record ends b.
func (l *lister) addDirents(fd int, prefix string, b []byte) {
	for off := 0; off+direntName0 <= len(b); {
		// struct linux_dirent64: d_ino u64, d_off s64, d_reclen
		// u16, d_type u8, d_name (NUL-terminated), in native order.
		rec := b[off:]
		ino := *(*uint64)(unsafe.Pointer(&rec[0]))
		reclen := int(*(*uint16)(unsafe.Pointer(&rec[16])))
		if reclen < direntName0 || off+reclen > len(b) {
			break
		}
		dtype := rec[18]
		name := direntName(rec[direntName0:reclen])
		off += reclen
		if ino == 0 || len(name) == 0 || string(name) == "." || string(name) == ".." {
			continue
		}
		typ, ok := direntType(dtype, fd, name)
		if !ok {
			continue // gone since it was listed
		}
		at := len(l.names)
		l.names = append(l.names, prefix...)
		l.names = append(l.names, name...)
		l.ents = append(l.ents, listed{at: at, nameAt: at + len(prefix), end: len(l.names), typ: typ})
	}
}

// noteIgnoreFiles records in n the ignore marks (ignore.MarkOf) of the
// names of its complete listing ents, whose paths are in paths, files and
// directories apart: the listing says which ignore files n holds. When
// ignore files are honoured it builds n's ignore state from them now, so
// that entryIn probes for none.
func (s *scanner) noteIgnoreFiles(n *dirNode, ents []listed, paths string) {
	var fileMarks, dirMarks ignore.Marks
	for _, e := range ents {
		if e.typ.IsDir() {
			dirMarks |= ignore.MarkOf(paths[e.nameAt:e.end])
		} else {
			fileMarks |= ignore.MarkOf(paths[e.nameAt:e.end])
		}
	}
	n.fileMarks |= fileMarks
	n.dirMarks.Or(uint32(dirMarks))
	if s.rootRules != nil {
		n.rules(fileMarks | dirMarks) // built now, so entryIn probes nothing
	}
}

// decide passes the entries of n's listing (l.ents, whose paths are in
// paths) to entryIn, which records them in n, and returns the kept
// subdirectories to be listed (in l.subs). The full detail of the entries
// is read relative to fd (the open directory): here, or by entryIn for
// Observe. It stops at a cancellation or an error, which it returns, and
// at a failure of Observe (returned after the walk): no subdirectory is
// then returned.
func (l *lister) decide(n *dirNode, fd int, paths string) ([]*dirNode, error) {
	s := l.s
	if files := len(l.ents) - countDirs(l.ents); files > 0 && n.files == nil {
		n.files = make([]fileEnt, 0, files)
	}
	full, ds := s.fullIn(n) && s.o.Observe == nil, dirStatOf(fd)
	l.subs = l.subs[:0]
	for _, e := range l.ents {
		if err := s.poll(); err != nil {
			return nil, err
		}
		if s.observeStop.Load() {
			return nil, nil // the error is returned after the walk
		}
		path, name := paths[e.at:e.end], paths[e.nameAt:e.end]
		files := len(n.files)
		sub, err := s.entryIn(n, path, name, e.typ, false, &ds) // no hidden attribute here
		if err == fastwalk.SkipDir {
			continue
		}
		if err != nil {
			return nil, err
		}
		switch {
		case sub != nil:
			if !sub.unread {
				l.subs = append(l.subs, sub)
			}
			if full {
				sub.own.mtime, sub.own.size = ds.lstat(name, path)
			}
		case full && len(n.files) > files:
			f := &n.files[files]
			f.det.mtime, f.det.size = ds.lstat(name, path)
		}
	}
	return l.subs, nil
}

// countDirs counts the directories of a listing.
func countDirs(ents []listed) int {
	c := 0
	for _, e := range ents {
		if e.typ.IsDir() {
			c++
		}
	}
	return c
}

// openDir opens the directory path (following links) for reading.
func openDir(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// readDirent is getdents64, retried when interrupted.
func readDirent(fd int, buf []byte) (int, error) {
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// direntName0 is the offset of d_name in struct linux_dirent64.
const direntName0 = 19

// direntName returns the NUL-terminated name at the start of b.
func direntName(b []byte) []byte {
	for i, c := range b {
		if c == 0 {
			return b[:i]
		}
	}
	return b
}

// direntType maps a dirent's d_type to a file mode type, reading it with
// lstat relative to the directory fd when the file system does not say
// (DT_UNKNOWN, or a value it does not know); ok is false when the entry is
// gone.
func direntType(t uint8, fd int, name []byte) (fs.FileMode, bool) {
	switch t {
	case syscall.DT_REG, syscall.DT_DIR, syscall.DT_LNK, syscall.DT_FIFO, syscall.DT_SOCK, syscall.DT_CHR, syscall.DT_BLK:
	default:
		var st unix.Stat_t
		for {
			err := unix.Fstatat(fd, string(name), &st, unix.AT_SYMLINK_NOFOLLOW)
			if err == nil {
				break
			}
			if err != syscall.EINTR {
				return 0, false
			}
		}
		t = uint8(st.Mode & syscall.S_IFMT >> 12) // IFTODT: d_type is the file type bits
	}
	switch t {
	case syscall.DT_DIR:
		return fs.ModeDir, true
	case syscall.DT_LNK:
		return fs.ModeSymlink, true
	case syscall.DT_FIFO:
		return fs.ModeNamedPipe, true
	case syscall.DT_SOCK:
		return fs.ModeSocket, true
	case syscall.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case syscall.DT_BLK:
		return fs.ModeDevice, true
	}
	return 0, true
}
