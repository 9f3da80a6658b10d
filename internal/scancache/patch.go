package scancache

import (
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/walk"
)

// This file keeps a snapshot current one directory at a time: the entries
// under a directory are recomputed with walk.WalkSub (with the root's
// ignore state there) and spliced into a copy of the snapshot's entries,
// which are sorted by path, so every subtree is one contiguous range. The
// whole tree (a watched fill) is read with walk.Scan.

// subtree returns the range of entries strictly under rel ("" for all).
func subtree(es []walk.Entry, rel string) (lo, hi int) {
	if rel == "" {
		return 0, len(es)
	}
	pre := rel + "/"
	lo = sort.Search(len(es), func(i int) bool { return es[i].Path >= pre })
	hi = lo + sort.Search(len(es)-lo, func(i int) bool { return !strings.HasPrefix(es[lo+i].Path, pre) })
	return lo, hi
}

// find returns the index of the entry rel, -1 when absent.
func find(es []walk.Entry, rel string) int {
	i := sort.Search(len(es), func(i int) bool { return es[i].Path >= rel })
	if i < len(es) && es[i].Path == rel {
		return i
	}
	return -1
}

// isDir reports whether rel is the root ("") or a directory of es.
func isDir(es []walk.Entry, rel string) bool {
	if rel == "" {
		return true
	}
	i := find(es, rel)
	return i >= 0 && es[i].Type == walk.Dir
}

// refresh recomputes the entries under the directory rel of es for key k,
// reporting to the hooks h as it reads.
// When deep is false, subdirectories that es already has are kept as they
// are (not read again) unless descend names them; when true, the whole
// subtree is read. It returns the new entries (es is not modified) and the
// number of entries read.
func refresh(k Key, es []walk.Entry, rel string, deep bool, descend map[string]bool, h walk.Hooks, tok *cancel.Token) ([]walk.Entry, int, error) {
	o := k.Options(tok)
	o.Hooks = h
	if rel == "" && deep {
		// The whole tree: walk.Scan, which sorts as it goes.
		out, err := walk.Scan(o)
		if err != nil {
			return nil, 0, err
		}
		return out, len(out), nil
	}
	sub := walk.Sub{Rel: rel}
	// whole reports whether the directory c is read again with its whole
	// subtree: c or one of its ancestors below rel is in descend. WalkSub
	// asks Descend about every directory at every depth, so a directory
	// inside a subtree to walk whole must be descended into (and its old
	// entries dropped) even though es has it.
	whole := func(c string) bool {
		for ; c != rel && c != ""; c = parentOf(c) {
			if descend[c] {
				return true
			}
		}
		return false
	}
	if !deep {
		o.Descend = func(c string) bool { return whole(c) || !isDir(es, c) }
	}
	var mu sync.Mutex
	var got []walk.Entry
	err := walk.WalkSub(o, sub, func(e walk.Entry) error {
		mu.Lock()
		got = append(got, e)
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	read := len(got)
	slices.SortFunc(got, func(a, b walk.Entry) int { return strings.Compare(a.Path, b.Path) })
	// The kept subdirectories' subtrees, each placed where "name/" sorts.
	type block struct {
		key    string
		lo, hi int
	}
	var blocks []block
	if !deep {
		for _, e := range got {
			if e.Type == walk.Dir && !whole(e.Path) && isDir(es, e.Path) {
				if lo, hi := subtree(es, e.Path); hi > lo {
					blocks = append(blocks, block{e.Path + "/", lo, hi})
				}
			}
		}
		slices.SortFunc(blocks, func(a, b block) int { return strings.Compare(a.key, b.key) })
	}
	lo, hi := subtree(es, rel)
	n := lo + len(got) + len(es) - hi
	for _, b := range blocks {
		n += b.hi - b.lo
	}
	out := make([]walk.Entry, 0, n)
	out = append(out, es[:lo]...)
	i := 0
	for _, b := range blocks {
		for i < len(got) && got[i].Path < b.key {
			out = append(out, got[i])
			i++
		}
		out = append(out, es[b.lo:b.hi]...)
	}
	out = append(out, got[i:]...)
	out = append(out, es[hi:]...)
	if k.Full && rel != "" {
		// The directory's own mtime changes with its entry set.
		if j := find(out, rel); j >= 0 {
			out[j].Mtime, out[j].Size = walk.LstatDetail(strings.TrimSuffix(k.Root, "/") + "/" + rel)
		}
	}
	return out, read, nil
}
