package walk

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/charlievieth/fastwalk"

	"github.com/fscache/fscache/internal/ignore"
)

// refScan is the straightforward scan the package started with, kept as the
// oracle of the tests: fastwalk without sorting, the ignore state of every
// directory built with Child (which probes for every ignore file), a
// mutex-protected append and a global sort. Fixes applied: a link named
// .git or node_modules is not followed (the original followed it and
// reported its subtree without the link); links are followed with
// walkdir's loop rule (the original used fastwalk's Follow, which refuses
// links to lexical ancestors of the root and reports the links it does not
// follow): a link to a directory on its walk path, checked here by
// stat'ing every prefix of its path from the root on, is dropped; others
// are followed with ErrTraverseLink; and non-UTF-8 paths carry RawPath.
func refScan(o Options) ([]Entry, error) {
	var mu sync.Mutex
	var out []Entry
	err := refWalk(o, func(e Entry) error {
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

// refWalk is refScan's walk: it calls fn, concurrently, with every entry
// kept, as Walk does.
func refWalk(o Options, fn func(e Entry) error) error {
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
	err := fastwalk.Walk(&fastwalk.Config{ToSlash: true}, root, func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if len(path) < prefix {
			return nil
		}
		name := de.Name()
		typ := de.Type()
		isDir := typ.IsDir()
		if name == ".git" || (o.SkipNodeModules && name == "node_modules") {
			if isDir || (typ&fs.ModeSymlink != 0 && o.FollowLinks) {
				return fastwalk.SkipDir
			}
			return nil
		}
		kind := kindOf(typ)
		link := false
		if typ&fs.ModeSymlink != 0 && o.FollowLinks {
			var drop bool
			if kind, link, drop = refFollow(o.Root, prefix, path); drop {
				return nil
			}
			isDir = link
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
				return fastwalk.SkipDir
			}
			return nil
		}
		if isDir && parentRules != nil {
			rules.Store(path, parentRules.Child(name))
		}
		if kind == 0 {
			return nil
		}
		if err := fn(refEntry(path, prefix, de, kind, o.Full)); err != nil || !link {
			return err
		}
		return fastwalk.ErrTraverseLink
	})
	if err != nil && !errors.Is(err, fastwalk.SkipDir) {
		return err
	}
	return o.Cancel.Err()
}

// refFollow resolves the link at path for FollowLinks: a link to a
// directory is a directory to follow (dir), or to drop when it is on its
// walk path (refOnWalkPath); a link to a regular file is a file, a link to
// anything else no entry (0), and a broken link stays a symlink. root is
// Options.Root, prefix the offset of the relative path in path.
func refFollow(root string, prefix int, path string) (kind FileType, dir, drop bool) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return Symlink, false, false
	case st.IsDir():
		if refOnWalkPath(root, prefix, path, st) {
			return 0, false, true
		}
		return Dir, true, false
	case st.Mode().IsRegular():
		return File, false, false
	}
	return 0, false, false
}

// refOnWalkPath reports whether the directory target is the root or a
// directory whose path is a prefix of the link path.
func refOnWalkPath(root string, prefix int, path string, target fs.FileInfo) bool {
	dirs := []string{root}
	for i := prefix; i < len(path); i++ {
		if path[i] == '/' {
			dirs = append(dirs, path[:i])
		}
	}
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && os.SameFile(fi, target) {
			return true
		}
	}
	return false
}

// refEntry returns the entry of kind kind at path (listed as de; the
// relative path starts at prefix), with its full detail, from de.Info,
// when full (the mtime in ns).
func refEntry(path string, prefix int, de fs.DirEntry, kind FileType, full bool) Entry {
	e := Entry{Path: display(path[prefix:]), Type: kind, Mtime: -1, Size: -1}
	if e.Path != path[prefix:] {
		e.RawPath = path[prefix:]
	}
	if full {
		if info, err := de.Info(); err == nil {
			e.Mtime = info.ModTime().UnixNano()
			if info.Mode().IsRegular() {
				e.Size = info.Size()
			}
		}
	}
	return e
}
