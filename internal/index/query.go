package index

import (
	"slices"
	"strconv"
	"strings"

	"github.com/fscache/fscache/internal/search"
)

// Query is a search.Need in trigrams: a literal is the AND of its folded
// trigrams, looked up in one document (a file, or a chunk of a large one:
// chunkSize). A literal longer than chunkOverlap, which may straddle two
// chunks, is the AND of its pieces of chunkOverlap bytes (overlapping by
// two, so that every trigram of it is in a piece), each of them looked up
// in one document.
type Query struct {
	op   search.NeedOp
	tris []uint32 // NeedLit
	subs []Query
}

// MinLit is the shortest literal a Query can use.
const MinLit = 3

// Compile turns n into a Query.
func Compile(n search.Need) Query {
	switch n.Op {
	case search.NeedLit:
		if len(n.Lit) < MinLit {
			return Query{}
		}
		if len(n.Lit) <= chunkOverlap {
			return Query{op: search.NeedLit, tris: gramsOf(n.Lit)}
		}
		q := Query{op: search.NeedAnd}
		for k := 0; ; k += chunkOverlap - 2 {
			q.subs = append(q.subs, Query{op: search.NeedLit, tris: gramsOf(n.Lit[k:min(len(n.Lit), k+chunkOverlap)])})
			if k+chunkOverlap >= len(n.Lit) {
				break
			}
		}
		return q
	case search.NeedAnd, search.NeedOr:
		q := Query{op: n.Op}
		for _, s := range n.Subs {
			q.subs = append(q.subs, Compile(s))
		}
		return q
	}
	return Query{}
}

// All reports whether q rules nothing out.
func (q Query) All() bool {
	switch q.op {
	case search.NeedLit:
		return len(q.tris) == 0
	case search.NeedAnd:
		for _, s := range q.subs {
			if !s.All() {
				return false
			}
		}
		return true
	case search.NeedOr:
		for _, s := range q.subs {
			if s.All() {
				return true
			}
		}
		return len(q.subs) == 0
	}
	return true
}

// eval returns the files of ix that may satisfy q, or nil for all of them.
// Only the documents below lim (ix.docs: all of them) are decided: the
// posting lists are read no further, and the sets returned hold no
// document from lim on.
func (q Query) eval(ix *Index, lim int) bitset {
	n := ix.Files
	switch q.op {
	case search.NeedLit:
		// The documents holding every trigram, then their files.
		out := q.litDocs(ix, lim)
		if out == nil {
			return nil
		}
		return ix.filesOf(out)
	case search.NeedAnd:
		var out bitset
		for _, s := range q.subs {
			b := s.eval(ix, lim)
			if b == nil {
				continue
			}
			if out == nil {
				out = b
			} else {
				out.and(b)
			}
		}
		return out
	case search.NeedOr:
		if len(q.subs) == 0 {
			return nil
		}
		out := newBitset(n)
		for _, s := range q.subs {
			b := s.eval(ix, lim)
			if b == nil {
				return nil
			}
			out.or(b)
		}
		return out
	}
	return nil
}

// litDocs returns the documents of ix below lim that may hold the literal
// q: the intersection of its trigrams' lists, shortest first, ended as
// soon as it is empty (a trigram no document holds ends it at once).
func (q Query) litDocs(ix *Index, lim int) bitset {
	type tl struct {
		lists [][]byte
		n     int
	}
	all := make([]tl, 0, len(q.tris))
	for _, t := range q.tris {
		var x tl
		for i := range ix.segs {
			list, ok := ix.segs[i].list(t)
			if !ok {
				ix.corrupt.Store(true)
			}
			if len(list) > 0 {
				x.lists = append(x.lists, list)
				x.n += len(list)
			}
		}
		all = append(all, x)
	}
	slices.SortStableFunc(all, func(a, b tl) int { return a.n - b.n })
	var out bitset
	for _, x := range all {
		b := newBitset(ix.docs)
		for _, list := range x.lists {
			if !decodeInto(list, b, ix.docs, lim) {
				ix.corrupt.Store(true)
			}
		}
		if out == nil {
			out = b
		} else {
			out.and(b)
		}
		if out.count() == 0 {
			break
		}
	}
	return out
}

// match reports whether a file with the sorted trigrams tris may satisfy q.
func (q Query) match(tris []uint32) bool {
	switch q.op {
	case search.NeedLit:
		for _, t := range q.tris {
			if _, ok := slices.BinarySearch(tris, t); !ok {
				return false
			}
		}
		return true
	case search.NeedAnd:
		for _, s := range q.subs {
			if !s.match(tris) {
				return false
			}
		}
		return true
	case search.NeedOr:
		for _, s := range q.subs {
			if s.match(tris) {
				return true
			}
		}
		return len(q.subs) == 0
	}
	return true
}

// String renders q for tests and debugging.
func (q Query) String() string {
	switch q.op {
	case search.NeedLit:
		var b strings.Builder
		for i, t := range q.tris {
			if i > 0 {
				b.WriteByte('&')
			}
			b.WriteString(strconv.Quote(string([]byte{byte(t >> 16), byte(t >> 8), byte(t)})))
		}
		return b.String()
	case search.NeedAnd, search.NeedOr:
		parts := make([]string, len(q.subs))
		for i, s := range q.subs {
			parts[i] = s.String()
		}
		op := "and"
		if q.op == search.NeedOr {
			op = "or"
		}
		return op + "(" + strings.Join(parts, " ") + ")"
	}
	return "all"
}
