// Package walk is the scan engine: a parallel directory walk (fastwalk) that
// applies the reference's traversal policy (hidden entries, ignore files,
// .git and node_modules pruning, symlink handling) and yields entries with
// minimal or full metadata.
package walk

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/charlievieth/fastwalk"

	"github.com/fscache/fscache/core/cancel"
	"github.com/fscache/fscache/core/ignore"
)

// FileType is the kind of an entry; the values are the reference's.
type FileType uint8

// The entry kinds. Sockets, FIFOs and devices are never entries.
const (
	File    FileType = 1
	Dir     FileType = 2
	Symlink FileType = 3
)

// Entry is one scanned filesystem entry.
type Entry struct {
	// Path is relative to the scan root, '/'-separated, never empty. Names
	// that are not valid UTF-8 carry U+FFFD replacement characters.
	Path string
	// Type is the entry's kind (the link's own kind unless links are
	// followed).
	Type FileType
	// Mtime is the modification time in ms since the epoch, from lstat
	// (full detail only; -1 when unknown).
	Mtime int64
	// Size is the size of a regular file (full detail only; -1 otherwise).
	Size int64
}

// Options selects what a walk visits.
type Options struct {
	// Root is the absolute, canonical directory to walk.
	Root string
	// Hidden includes entries whose name starts with '.'.
	Hidden bool
	// Gitignore honours .gitignore, .ignore, info/exclude and the global
	// excludes file; when false no ignore file is read.
	Gitignore bool
	// SkipNodeModules prunes every entry named node_modules.
	SkipNodeModules bool
	// FollowLinks walks links to directories as directories and reports
	// links to files as files; broken links stay symlinks.
	FollowLinks bool
	// Full records Mtime and Size.
	Full bool
	// Cancel is polled before the walk and every 128 entries.
	Cancel *cancel.Token
}

// pollEvery is how many visited entries may pass between cancel checks.
const pollEvery = 128

// Walk visits every entry under o.Root that the policy keeps, calling fn
// concurrently from several goroutines in no particular order. fn's error
// stops the walk and is returned. Unreadable directories are skipped.
func Walk(o Options, fn func(e Entry) error) error {
	if err := o.Cancel.Err(); err != nil {
		return err
	}
	root := strings.TrimRight(o.Root, "/")
	prefix := len(root) + 1
	var rules sync.Map // directory path -> *ignore.Dir
	var rootRules *ignore.Dir
	if o.Gitignore {
		rootRules = ignore.NewRoot(o.Root)
	}
	var visited atomic.Int64
	conf := fastwalk.Config{Follow: o.FollowLinks}
	err := fastwalk.Walk(&conf, o.Root, func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable directories are skipped silently
		}
		if len(path) < prefix {
			return nil // the root itself
		}
		if visited.Add(1)%pollEvery == 0 {
			if err := o.Cancel.Err(); err != nil {
				return err
			}
		}
		name := de.Name()
		typ := de.Type()
		isDir := typ.IsDir()
		if name == ".git" || (o.SkipNodeModules && name == "node_modules") {
			if isDir {
				return fastwalk.SkipDir
			}
			return nil
		}
		kind := kindOf(typ)
		if typ&fs.ModeSymlink != 0 && o.FollowLinks {
			if st, err := fastwalk.StatDirEntry(path, de); err == nil {
				if st.IsDir() {
					kind, isDir = Dir, true
				} else if st.Mode().IsRegular() {
					kind = File
				} else {
					kind = 0
				}
			}
		}
		verdict := ignore.None
		var parentRules *ignore.Dir
		if rootRules != nil {
			parentRules = rootRules
			if i := strings.LastIndexByte(path, '/'); i >= prefix {
				if v, ok := rules.Load(path[:i]); ok {
					parentRules = v.(*ignore.Dir)
				}
			}
			verdict = parentRules.Match(name, isDir)
		}
		if verdict == ignore.Ignore || (!o.Hidden && verdict != ignore.Whitelist && name[0] == '.') {
			if isDir {
				return fastwalk.SkipDir // prune (fastwalk permits it on links too)
			}
			return nil
		}
		if isDir && parentRules != nil {
			rules.Store(path, parentRules.Child(name))
		}
		if kind == 0 {
			return nil // sockets, FIFOs, devices
		}
		e := Entry{Path: display(path[prefix:]), Type: kind, Mtime: -1, Size: -1}
		if o.Full {
			if info, err := de.Info(); err == nil {
				e.Mtime = info.ModTime().UnixMilli()
				if info.Mode().IsRegular() {
					e.Size = info.Size()
				}
			}
		}
		return fn(e)
	})
	if err != nil && !errors.Is(err, fastwalk.SkipDir) {
		return err
	}
	return o.Cancel.Err()
}

// Scan walks like Walk and returns the entries sorted by path, bytewise.
func Scan(o Options) ([]Entry, error) {
	var mu sync.Mutex
	var out []Entry
	err := Walk(o, func(e Entry) error {
		mu.Lock()
		out = append(out, e)
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// kindOf maps a directory entry's mode to an entry kind, 0 for the kinds
// that are never entries.
func kindOf(m fs.FileMode) FileType {
	switch {
	case m.IsDir():
		return Dir
	case m&fs.ModeSymlink != 0:
		return Symlink
	case m.IsRegular():
		return File
	}
	return 0
}

// display replaces every byte of an invalid UTF-8 sequence with U+FFFD.
func display(p string) string {
	if utf8.ValidString(p) {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRuneInString(p[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(p[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Stat returns the kind of what root/rel points at, following links; 0 when
// it cannot be read or is neither a file nor a directory.
func Stat(root, rel string) FileType {
	st, err := os.Stat(root + "/" + rel)
	if err != nil {
		return 0
	}
	switch {
	case st.IsDir():
		return Dir
	case st.Mode().IsRegular():
		return File
	}
	return 0
}
