package scancache

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/walk"
)

// This file keeps a snapshot current one directory at a time: the entries
// under a directory are recomputed with walk.WalkSub (with the root's
// ignore state there) and spliced into the snapshot, which is sorted by
// path, so every subtree is one contiguous range; the new snapshot shares
// the old one's blocks outside that range (snapshot.go). The whole tree (a
// watched fill) is read with walk.Scan.

// find returns the position of the entry rel, -1 when absent.
func find(s *Snapshot, rel string) int {
	if i := s.Search(rel); i < s.Len() && s.At(i).Path == rel {
		return i
	}
	return -1
}

// isDir reports whether rel is the root ("") or a directory of s.
func isDir(s *Snapshot, rel string) bool {
	if rel == "" {
		return true
	}
	i := find(s, rel)
	return i >= 0 && s.At(i).Type == walk.Dir
}

// refresh recomputes the entries under the directory rel of s (nil: no
// snapshot yet, with rel "" and deep) for key k, reporting to the hooks h as
// it reads. When deep is false, subdirectories that s already has are kept
// as they are (not read again) unless descend names them; when true, the
// whole subtree is read. It returns the new snapshot (s is not modified;
// its Created is kept) and the number of entries read.
func refresh(k Key, s *Snapshot, rel string, deep bool, descend map[string]bool, h walk.Hooks, tok *cancel.Token) (*Snapshot, int, error) {
	o := k.Options(tok)
	o.Hooks = h
	if rel == "" && deep {
		// The whole tree: walk.Scan, which sorts as it goes.
		out, err := walk.Scan(o)
		if err != nil {
			return nil, 0, err
		}
		var created time.Time
		if s != nil {
			created = s.Created
		}
		return NewSnapshot(out, created), len(out), nil
	}
	whole := wholeIn(rel, descend)
	got, err := relist(s, rel, deep, whole, o)
	if err != nil {
		return nil, 0, err
	}
	read := len(got)
	pieces := withKept(s, got, deep, whole)
	lo, hi := s.Under(rel)
	if k.Full && rel != "" {
		// The directory's own mtime changes with its entry set: its entry
		// (before its subtree) goes into the same splice.
		if j := find(s, rel); j >= 0 {
			d := *s.At(j)
			d.Mtime, d.Size = walk.LstatDetail(strings.TrimSuffix(k.Root, "/") + "/" + rel)
			pieces = append([]piece{{fresh: []walk.Entry{d}}, {lo: j + 1, hi: lo}}, pieces...)
			lo = j
		}
	}
	return s.splice(lo, hi, pieces, s.Created), read, nil
}

// wholeIn returns whether a directory c is read again with its whole
// subtree: c or one of its ancestors below rel is in descend. WalkSub asks
// Descend about every directory at every depth, so a directory inside a
// subtree to walk whole must be descended into (and its old entries
// dropped) even though the snapshot has it.
func wholeIn(rel string, descend map[string]bool) func(c string) bool {
	return func(c string) bool {
		for ; c != rel && c != ""; c = parentOf(c) {
			if descend[c] {
				return true
			}
		}
		return false
	}
}

// relist lists the directory rel again with the walk options o (its whole
// subtree when deep; else only the subdirectories s does not have, or that
// whole says to walk) and returns the entries found, sorted by path.
func relist(s *Snapshot, rel string, deep bool, whole func(string) bool, o walk.Options) ([]walk.Entry, error) {
	if !deep {
		o.Descend = func(c string) bool { return whole(c) || !isDir(s, c) }
	}
	var mu sync.Mutex
	var got []walk.Entry
	err := walk.WalkSub(o, walk.Sub{Rel: rel}, func(e walk.Entry) error {
		mu.Lock()
		got = append(got, e)
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(got, func(a, b walk.Entry) int { return strings.Compare(a.Path, b.Path) })
	return got, nil
}

// withKept returns the pieces of a splice: the entries got, with the
// subtrees that s keeps (the subdirectories not read again) each placed
// where "name/" sorts among them.
func withKept(s *Snapshot, got []walk.Entry, deep bool, whole func(string) bool) []piece {
	type block struct {
		key    string
		lo, hi int
	}
	var blocks []block
	if !deep {
		for _, e := range got {
			if e.Type == walk.Dir && !whole(e.Path) && isDir(s, e.Path) {
				if lo, hi := s.Under(e.Path); hi > lo {
					blocks = append(blocks, block{e.Path + "/", lo, hi})
				}
			}
		}
		slices.SortFunc(blocks, func(a, b block) int { return strings.Compare(a.key, b.key) })
	}
	var pieces []piece
	fresh := func(es []walk.Entry) {
		if len(es) > 0 {
			pieces = append(pieces, piece{fresh: es})
		}
	}
	i := 0
	for _, b := range blocks {
		j := i
		for j < len(got) && got[j].Path < b.key {
			j++
		}
		fresh(got[i:j])
		pieces = append(pieces, piece{lo: b.lo, hi: b.hi})
		i = j
	}
	fresh(got[i:])
	return pieces
}
