package engine

import (
	"errors"
	"time"

	"github.com/fscache/fscache/internal/scancache"
	"github.com/fscache/fscache/internal/walk"
)

// The first glob of a root with a limit. Where no scan of the root is at
// hand (the first uncached call of a process, or every call where nothing
// watches), a glob with MaxResults and no SortByMtime, whose answer is the
// first matches in path order, walks in path order (walk.ScanOrdered) and
// stops at the limit-th match: pi's find tool (a limit of 1000) on a tree
// whose matches start early lists a few directories past them, not the
// whole tree. The answer is the full walk's
// (TestGlobFirstLimitedMatchesFullWalk).

// firstLimited answers the glob of g (a limit, no mtime sort) of the scan
// key key by an ordered walk that stops at the limit (done true). It does
// not when the cache has the root's watched scan or makes this call the
// one that stores and watches it, or when the walk cannot give the order:
// it then returns the scan to select from (snap; served: the watched
// scan). onMatch, when set, gets the matches after the walk, in path
// order.
func (g *globFilter) firstLimited(key scancache.Key, onMatch func(GlobMatch) error) (sel GlobSelection, snap *scancache.Snapshot, served, done bool, err error) {
	var found []walk.Entry
	var retyped map[int32]walk.FileType
	snap, served, streamed, err := scanCache().UncachedStream(key, true, g.tok, func() (int, error) {
		n := 0
		err := walk.ScanOrdered(key.Options(g.tok), func(e walk.Entry) error {
			n++
			if n&255 == 0 && g.tok.Poll() {
				return errStreamStop
			}
			m, ok := g.accept(e)
			if !ok {
				return nil
			}
			if m.Type != e.Type {
				if retyped == nil {
					retyped = map[int32]walk.FileType{}
				}
				retyped[int32(len(found))] = m.Type
			}
			found = append(found, e)
			if len(found) >= g.limit {
				return errStreamStop
			}
			return nil
		})
		if errors.Is(err, errStreamStop) {
			err = g.tok.Err()
		}
		return n, err
	})
	switch {
	case !streamed:
		// The watched scan, or the walk that stores it.
		return sel, snap, served, err != nil, err
	case errors.Is(err, walk.ErrUnordered):
		// Names that display the same: the full walk's sorted order.
		es, err := walk.Scan(key.Options(g.tok))
		if err != nil {
			return sel, nil, false, true, err
		}
		return sel, scancache.NewSnapshot(es, time.Now()), false, false, nil
	case err != nil:
		return sel, nil, false, true, err
	}
	sel = GlobSelection{Snapshot: scancache.NewSnapshot(found, time.Now()), Index: make([]int32, len(found)), Retyped: retyped}
	for i := range sel.Index {
		sel.Index[i] = int32(i)
	}
	if onMatch != nil {
		for i := range sel.Index {
			if err := onMatch(sel.Match(i)); err != nil {
				return GlobSelection{}, nil, false, true, err
			}
		}
	}
	return sel, nil, false, true, nil
}
