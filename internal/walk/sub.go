package walk

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/charlievieth/fastwalk"

	"github.com/fscache/fscache/internal/ignore"
)

// Sub selects the part of a walk that WalkSub visits, for keeping a cached
// scan current one directory at a time.
type Sub struct {
	// Rel is the directory to walk, relative to Options.Root
	// ('/'-separated, the file system's bytes; "" for the root). Its
	// entries are reported with paths relative to Options.Root, as a walk
	// of the whole root would report them; Rel itself is not reported.
	Rel string
}

// RulesAt returns the ignore state of the directory rel (relative to root,
// "" for root) as a walk from root builds it.
func RulesAt(root, rel string) *ignore.Dir {
	return rulesBelow(ignore.NewRoot(root), rel)
}

// rulesBelow returns the ignore state of the directory rel below the state
// d of the root.
func rulesBelow(d *ignore.Dir, rel string) *ignore.Dir {
	if rel == "" {
		return d
	}
	for _, name := range strings.Split(rel, "/") {
		d = d.Child(name)
	}
	return d
}

// WalkSub is Walk restricted to the directory s.Rel of o.Root, with the
// ignore state a walk of the whole root has there (RulesAt), so that the
// entries it reports are exactly those a walk of the root reports under
// s.Rel (minus the subtrees Options.Descend declines). fn is called concurrently,
// in no particular order.
func WalkSub(o Options, s Sub, fn func(e Entry) error) error {
	if err := o.Cancel.Err(); err != nil {
		return err
	}
	wo := o
	wo.Gitignore = false // the state of s.Rel is set below, not the root's
	w := newWalker(wo)
	top := w.root
	if s.Rel != "" {
		top = strings.TrimSuffix(w.root, "/") + "/" + s.Rel
	}
	rules := newPathIndex[*ignore.Dir]()
	if o.Gitignore {
		if o.LooseGitignore {
			w.rootRules = rulesBelow(ignore.NewRootLoose(o.Root), s.Rel)
		} else {
			w.rootRules = RulesAt(o.Root, s.Rel)
		}
		rules.store(top, w.rootRules)
	}
	if o.FollowLinks {
		w.ids = newPathIndex[fs.FileInfo]()
	}
	if o.OnDir != nil {
		if err := o.OnDir(top); err != nil {
			return err
		}
	}
	conf := fastwalk.Config{ToSlash: true} // '/'-separated paths on Windows too
	err := fastwalk.Walk(&conf, top, func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable directories are skipped silently
		}
		if len(path) <= len(top) {
			return nil // the top directory itself
		}
		if err := w.poll(); err != nil {
			return err
		}
		name := de.Name()
		l, f := w.classify(path, name, de.Type(), func(target fs.FileInfo) bool { return w.onWalkPath(path, target) })
		if f != admitted {
			return skipUnless(f == pruned)
		}
		var parentRules *ignore.Dir
		if w.rootRules != nil {
			parentRules = w.rootRules
			if i := strings.LastIndexByte(path, '/'); i >= w.start {
				if r, ok := rules.load(path[:i]); ok {
					parentRules = r
				}
			}
		}
		if !w.keeps(parentRules, name, l.dir, w.hiddenBySystem(de)) {
			return skipUnless(l.dir)
		}
		rel := path[w.start:]
		if l.link && o.OnLink != nil {
			o.OnLink(rel)
		}
		descend := l.dir && (o.Descend == nil || o.Descend(rel))
		if descend && parentRules != nil {
			rules.store(path, parentRules.Child(name))
		}
		if descend && o.OnDir != nil {
			if err := o.OnDir(path); err != nil {
				return err
			}
		}
		if l.kind == 0 {
			return nil
		}
		e := w.newEntry(path, l.kind)
		if o.Observe != nil {
			if err := o.Observe(e); err != nil {
				return err
			}
		}
		if err := fn(e); err != nil {
			return err
		}
		switch {
		case l.dir && !descend:
			return fastwalk.SkipDir
		case l.target != nil:
			return fastwalk.ErrTraverseLink
		}
		return nil
	})
	if err != nil && !errors.Is(err, fastwalk.SkipDir) {
		return err
	}
	return o.Cancel.Err()
}

// LstatDetail returns the full detail (mtime in ms, size of a regular
// file) of the entry at the absolute path, -1s when it cannot be read.
func LstatDetail(path string) (mtime, size int64) { return lstatPath(path, false) }
