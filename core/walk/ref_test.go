package walk

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"github.com/charlievieth/fastwalk"

	"github.com/fscache/fscache/core/ignore"
)

// refScan is the straightforward scan the package started with, kept as the
// oracle of the tests: fastwalk without sorting, the ignore state of every
// directory built with Child (which probes for every ignore file), a
// mutex-protected append and a global sort. One fix is applied: a link
// named .git or node_modules is not followed (the original followed it and
// reported its subtree without the link).
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
	conf := fastwalk.Config{Follow: o.FollowLinks}
	err := fastwalk.Walk(&conf, o.Root, func(path string, de fs.DirEntry, err error) error {
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
