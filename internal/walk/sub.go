package walk

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/charlievieth/fastwalk"

	"github.com/fscache/fscache/internal/fence"
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
	w := newSubWalk(o, s, fn)
	if o.OnDir != nil {
		if err := o.OnDir(w.top); err != nil {
			return err
		}
	}
	conf := fastwalk.Config{ToSlash: true} // '/'-separated paths on Windows too
	err := fastwalk.Walk(&conf, w.top, fenced(w.visit))
	if err != nil && !errors.Is(err, fastwalk.SkipDir) {
		return err
	}
	return o.Cancel.Err()
}

// fenced returns visit, fastwalk's callback, with a panic in it (on one of
// fastwalk's goroutines, where it would end the process) returned as its
// error (*fence.Error), which ends the walk.
func fenced(visit fs.WalkDirFunc) fs.WalkDirFunc {
	return func(path string, de fs.DirEntry, err error) (verr error) {
		defer func() {
			if r := recover(); r != nil {
				verr = fence.Recovered(fence.WalkVisit, r)
			}
		}()
		fence.Point(fence.WalkVisit)
		return visit(path, de, err)
	}
}

// subWalk is the state of one WalkSub (and so of one Walk).
type subWalk struct {
	walker // held, not pointed to: one allocation for both
	// top is the directory walked, as fastwalk reports it.
	top string
	// rules holds the ignore states of the directories read so far, by
	// path (top's included); empty when ignore files are not honoured.
	rules *pathIndex[*ignore.Dir]
	// fn is WalkSub's fn.
	fn func(e Entry) error
}

// newSubWalk returns the walk of the directory s.Rel of o.Root for
// WalkSub: its walker's root ignore state (rootRules, also stored for top)
// is the state of s.Rel that a walk of the whole root builds, not the
// root's, and it caches directory identities when links are followed.
func newSubWalk(o Options, s Sub, fn func(e Entry) error) *subWalk {
	wo := o
	wo.Gitignore = false // the state of s.Rel is set below, not the root's
	w := &subWalk{rules: newPathIndex[*ignore.Dir](), fn: fn}
	w.init(wo)
	w.top = w.root
	if s.Rel != "" {
		w.top = strings.TrimSuffix(w.root, "/") + "/" + s.Rel
	}
	if o.Gitignore {
		if o.LooseGitignore {
			w.rootRules = rulesBelow(ignore.NewRootLoose(o.Root), s.Rel)
		} else {
			w.rootRules = RulesAt(o.Root, s.Rel)
		}
		w.rules.store(w.top, w.rootRules)
	}
	if o.FollowLinks {
		w.ids = newPathIndex[fs.FileInfo]()
	}
	return w
}

// visit is the fastwalk callback of WalkSub: it decides about the entry
// at path through classify and keeps, runs the hooks of a kept entry
// (admit) and reports it (report), and tells fastwalk whether to read a
// directory or followed link to one.
func (w *subWalk) visit(path string, de fs.DirEntry, err error) error {
	if err != nil {
		return nil // unreadable directories are skipped silently
	}
	if len(path) <= len(w.top) {
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
	parentRules := w.parentRules(path)
	if !w.keeps(parentRules, name, l.dir, w.hiddenBySystem(de)) {
		return skipUnless(l.dir)
	}
	descend, err := w.admit(path, name, l, parentRules)
	if err != nil {
		return err
	}
	if l.kind == 0 {
		return nil
	}
	if err := w.report(path, l.kind); err != nil {
		return err
	}
	switch {
	case l.dir && !descend:
		return fastwalk.SkipDir
	case l.target != nil:
		return fastwalk.ErrTraverseLink
	}
	return nil
}

// parentRules returns the ignore state of the directory holding the entry
// at path; nil when ignore files are not honoured.
func (w *subWalk) parentRules(path string) *ignore.Dir {
	if w.rootRules == nil {
		return nil
	}
	if i := strings.LastIndexByte(path, '/'); i >= w.start {
		if r, ok := w.rules.load(path[:i]); ok {
			return r
		}
	}
	return w.rootRules
}

// admit runs what the kept entry at path (named name, classified as l, in
// the directory whose ignore state is parentRules) calls for besides its
// report: OnLink for a link; for a directory (or followed link to one)
// that Options.Descend does not decline, which descend reports, its ignore
// state is stored and OnDir is called, whose error it returns.
func (w *subWalk) admit(path, name string, l entryClass, parentRules *ignore.Dir) (descend bool, err error) {
	rel := path[w.start:]
	if l.link && w.o.OnLink != nil {
		w.o.OnLink(rel)
	}
	descend = l.dir && (w.o.Descend == nil || w.o.Descend(rel))
	if descend && parentRules != nil {
		w.rules.store(path, parentRules.Child(name))
	}
	if descend && w.o.OnDir != nil {
		if err := w.o.OnDir(path); err != nil {
			return descend, err
		}
	}
	return descend, nil
}

// report reports the kept entry at path, of kind kind, to Observe and then
// to fn, returning the first error.
func (w *subWalk) report(path string, kind FileType) error {
	e := w.newEntry(path, kind)
	if w.o.Observe != nil {
		if err := w.o.Observe(e); err != nil {
			return err
		}
	}
	return w.fn(e)
}

// LstatDetail returns the full detail (mtime in ns, size of a regular
// file) of the entry at the absolute path, -1s when it cannot be read.
func LstatDetail(path string) (mtime, size int64) { return lstatPath(path) }
