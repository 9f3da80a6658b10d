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
	// onWalkPath reports whether the directory target is the root or a
	// directory whose path is a prefix of the link path.
	onWalkPath := func(path string, target fs.FileInfo) bool {
		dirs := []string{o.Root}
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
			if st, err := os.Stat(path); err == nil {
				if st.IsDir() {
					if onWalkPath(path, st) {
						return nil
					}
					kind, isDir, link = Dir, true, true
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
		e := Entry{Path: display(path[prefix:]), Type: kind, Mtime: -1, Size: -1}
		if e.Path != path[prefix:] {
			e.RawPath = path[prefix:]
		}
		if o.Full {
			if info, err := de.Info(); err == nil {
				e.Mtime = info.ModTime().UnixMilli()
				if info.Mode().IsRegular() {
					e.Size = info.Size()
				}
			}
		}
		if err := fn(e); err != nil || !link {
			return err
		}
		return fastwalk.ErrTraverseLink
	})
	if err != nil && !errors.Is(err, fastwalk.SkipDir) {
		return err
	}
	return o.Cancel.Err()
}
