// Package idxstore owns the directory where grep's persisted content
// indexes live, and how their files are named, locked, written and
// published when several processes share it.
//
// # Layout
//
// The store is a directory (Dir: $FS_GREP_INDEX_DIR, or "fscache" in the
// user's cache directory) with one subdirectory per index format version
// ("grep-v3"). In it, for each (root, scan policy) pair, Name gives a file
// name, and:
//
//	NAME                  the published index (internal/index writes it)
//	NAME.lock             its lock file, created once and never deleted
//	NAME.tmp-PID-RANDOM   an index being written (Create), or a leftover
//	                      of a process killed while writing one (Sweep);
//	                      also the scratch file of its build
//	                      (NAME.tmp-PID-RANDOM.spill-N, internal/index)
//
// # Protocol
//
// Readers open the published file (OpenIndex) without locking: a file is
// only ever replaced whole, by an atomic rename, so a reader sees either
// the old index or the new one, complete. A writer takes the name's lock
// (Lock or TryLock), removes the leftovers of earlier writers (Sweep),
// writes a temporary file (Create, Pending.File) and publishes it
// (Pending.Publish: fsync, rename over NAME, fsync of the directory), then
// unlocks. The lock is an advisory lock of the operating system (flock on
// unix, LockFileEx on Windows), held by an open file: it is released when
// the process exits, however it ends (kill -9 included), so a crashed
// writer never blocks the others, and a lock file is never stale.
//
// # Trust
//
// The store holds files other processes of the same user map and trust, so
// Open refuses a store directory (or its version subdirectory) that is a
// symbolic link or not a directory and, on unix, one that is not owned by
// the effective user or is writable by group or others; OpenIndex applies
// the same checks to the index file. On Windows only the type checks are
// made: the directory's ACL is not checked (the default location,
// %LocalAppData%, is private to the user).
//
// The package changes nothing of the process (environment, working
// directory, umask, signals) and starts no goroutine.
package idxstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// EnvDir is the environment variable naming the store directory. Its value
// must be an absolute path; when it is unset or empty, Dir uses the user's
// cache directory.
const EnvDir = "FS_GREP_INDEX_DIR"

// versionDir is the subdirectory of the store for the current index
// format (index.FormatVersion; a test in internal/engine keeps the two in
// step); a new format gets a new one, so that processes of different
// versions never read each other's files, nor replace them by turns. The
// directories of older formats are left to the processes that use them.
const versionDir = "grep-v3"

// Suffixes of the files that belong to a name (see the package comment).
const (
	idxSuffix  = ".idx"
	lockSuffix = ".lock"
	tmpInfix   = ".tmp-"
)

// Dir returns the store directory: $FS_GREP_INDEX_DIR when it is set and
// not empty (an error when it is not an absolute path), otherwise
// "fscache" in os.UserCacheDir() ($XDG_CACHE_HOME or ~/.cache on Linux,
// ~/Library/Caches on macOS, %LocalAppData% on Windows). The directory is
// neither created nor checked: Open does that.
func Dir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		if !filepath.IsAbs(d) {
			return "", fmt.Errorf("idxstore: %s=%q is not an absolute path", EnvDir, d)
		}
		return filepath.Clean(d), nil
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("idxstore: %s is not set and the user cache directory is unknown: %w", EnvDir, err)
	}
	if !filepath.IsAbs(c) {
		return "", fmt.Errorf("idxstore: %s is not set and the user cache directory %q is not an absolute path", EnvDir, c)
	}
	return filepath.Join(c, "fscache"), nil
}

// Store is an opened store directory (its version subdirectory). Its
// methods are safe for concurrent use; it holds no open file.
type Store struct {
	dir string // the version subdirectory, absolute and clean
}

// Open opens the store in dir, an absolute path: it creates dir (with its
// missing parents) and its version subdirectory "grep-v3" with mode 0700
// when they are missing, leaving existing directories as they are, and
// refuses either of the two when it is a symbolic link or not a directory
// or, on unix, not owned by the effective user or writable by group or
// others. The errors name the directory and what is wrong with it. Other
// ancestors of dir are not checked. On Windows, ACLs are not checked.
func Open(dir string) (*Store, error) {
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("idxstore: index directory %q is not an absolute path", dir)
	}
	dir = filepath.Clean(dir)
	if err := ensureDir(dir); err != nil {
		return nil, err
	}
	sub := filepath.Join(dir, versionDir)
	if err := ensureDir(sub); err != nil {
		return nil, err
	}
	return &Store{dir: sub}, nil
}

// ensureDir creates dir (0700, with its parents) when it does not exist,
// then checks it (checkDir).
func ensureDir(dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("idxstore: creating index directory %s: %w", dir, err)
		}
		fi, err = os.Lstat(dir)
	}
	if err != nil {
		return fmt.Errorf("idxstore: index directory %s: %w", dir, err)
	}
	return checkDir(dir, fi)
}

// checkDir refuses a store directory (fi: its Lstat) that is a symbolic
// link, not a directory, or (unix) not private to the user.
func checkDir(dir string, fi fs.FileInfo) error {
	switch t := fi.Mode().Type(); {
	case t&fs.ModeSymlink != 0:
		return fmt.Errorf("idxstore: index directory %s is a symbolic link (refused: name the directory it points to)", dir)
	case t != fs.ModeDir:
		return fmt.Errorf("idxstore: index directory %s is not a directory (mode %v)", dir, fi.Mode())
	}
	return checkPrivate("index directory", dir, fi)
}

// Name returns the file name of the index of root under key (the scan
// policy): the xxhash64 of root+"\x00"+key in 16 hex digits, then ".idx".
// It is the same in every process and on every platform.
func (s *Store) Name(root, key string) string {
	return fmt.Sprintf("%016x%s", xxhash.Sum64String(root+"\x00"+key), idxSuffix)
}

// Path returns the path of the file name in the store.
func (s *Store) Path(name string) string {
	return filepath.Join(s.dir, name)
}

// Location returns the directory the store's files are in (its version
// subdirectory).
func (s *Store) Location() string { return s.dir }

// checkName refuses a name that is not a plain file name of the store's
// own: one that would name another directory (a separator, "..", or on
// Windows a drive or an alternate data stream: ':'), or another name's
// lock or temporary files.
func checkName(name string) error {
	switch {
	case name == "" || name == "." || name == "..":
		return fmt.Errorf("idxstore: invalid index name %q", name)
	case strings.ContainsAny(name, "/\\:\x00"):
		return fmt.Errorf("idxstore: invalid index name %q: not a plain file name", name)
	case strings.Contains(name, tmpInfix) || strings.HasSuffix(name, lockSuffix):
		return fmt.Errorf("idxstore: invalid index name %q: the name of a lock or temporary file", name)
	}
	return nil
}

// OpenIndex opens the published index name read-only. It refuses a file
// that is not a regular file (a symbolic link included) or, on unix, that
// is not owned by the effective user or is writable by group or others.
// When there is no published index the error satisfies
// errors.Is(err, fs.ErrNotExist). On Windows the file is opened with
// FILE_SHARE_DELETE, so that it does not keep a writer from replacing it
// while open.
func (s *Store) OpenIndex(name string) (*os.File, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	path := s.Path(name)
	f, err := openIndexFile(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = checkIndexFile(path, fi)
	} else {
		err = fmt.Errorf("idxstore: index file %s: %w", path, err)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// checkIndexFile refuses an opened index file (fi: its Stat) that is not
// a regular file or (unix) not private to the user.
func checkIndexFile(path string, fi fs.FileInfo) error {
	switch t := fi.Mode().Type(); {
	case t&fs.ModeSymlink != 0:
		return fmt.Errorf("idxstore: index file %s is a symbolic link", path)
	case t != 0:
		return fmt.Errorf("idxstore: index file %s is not a regular file (mode %v)", path, fi.Mode())
	}
	return checkPrivate("index file", path, fi)
}

// Remove removes the published index name (one found corrupt), to be
// called with Lock(name) held. A missing file is not an error.
func (s *Store) Remove(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	path := s.Path(name)
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("idxstore: removing index file %s: %w", path, err)
	}
	return nil
}
