package index

import (
	"maps"
	"math/bits"
	"slices"

	"github.com/fscache/fscache/internal/search"
)

// The trigrams of a binary file (a NUL in its first BinaryPrefix bytes)
// are not in the posting lists: such files hold most of the distinct
// trigrams of a tree (in Go's src, 2.9 of 3.1 million, for 15% of the
// bytes) and only grep's filesWithMatches mode can match in them. Each
// keeps instead a Bloom filter of its trigrams, about 10 bits per
// distinct trigram with 3 probes (about 2% false positives): a query
// rules a binary file out only when one of the trigrams it needs is
// certainly absent, so the filter never skips a file that holds them all.

// bloomBits is the filter size per distinct trigram, in bits.
const bloomBits = 10

// maxBloomWords bounds a filter (1 KiB, about 800 trigrams): a larger
// binary file (most of them: at 2 GB of Go source, 13,000 filters took
// 110 MB, a quarter of the index) gets none, and is searched by every
// filesWithMatches grep (the only mode that can match in it).
const maxBloomWords = 128

// bloom is a Bloom filter of trigrams; nil admits everything.
type bloom []uint64

// newBloom returns the filter of the distinct trigrams tris, nil when it
// would take more than maxBloomWords.
func newBloom(tris []uint32) bloom {
	n := max(1, (len(tris)*bloomBits+63)/64)
	if n > maxBloomWords {
		return nil
	}
	b := make(bloom, n)
	for _, t := range tris {
		h1, h2 := bloomHash(t)
		m := uint32(len(b) * 64)
		for i := range uint32(3) {
			p := (h1 + i*h2) % m
			b[p>>6] |= 1 << (p & 63)
		}
	}
	return b
}

// has reports whether t may be in the filter.
func (b bloom) has(t uint32) bool {
	if len(b) == 0 {
		return true
	}
	h1, h2 := bloomHash(t)
	m := uint32(len(b) * 64)
	for i := range uint32(3) {
		p := (h1 + i*h2) % m
		if b[p>>6]&(1<<(p&63)) == 0 {
			return false
		}
	}
	return true
}

func bloomHash(t uint32) (uint32, uint32) {
	h := uint64(t) * 0x9E3779B97F4A7C15
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	return uint32(h), uint32(bits.RotateLeft64(h, 32)) | 1
}

// mayBloom reports whether a file whose trigrams are in b may satisfy q.
func (q Query) mayBloom(b bloom) bool {
	switch q.op {
	case search.NeedLit:
		for _, t := range q.tris {
			if !b.has(t) {
				return false
			}
		}
		return true
	case search.NeedAnd:
		for _, s := range q.subs {
			if !s.mayBloom(b) {
				return false
			}
		}
		return true
	case search.NeedOr:
		for _, s := range q.subs {
			if s.mayBloom(b) {
				return true
			}
		}
		return len(q.subs) == 0
	}
	return true
}

// bloomTable holds the binary files' Bloom filters by file id: ids sorted,
// the filter of ids[i] is words[ends[i-1]:ends[i]] (from 0 for the first).
// An index from Open reads it in place in the mapping: opening builds no
// map of them (13k binary files of x18 took 0.7 ms of a 1.8 ms open).
type bloomTable struct {
	ids   []uint32
	ends  []uint64
	words []uint64
}

// tableOf returns the table of the filters in blooms (by file id).
func tableOf(blooms map[uint32]bloom) bloomTable {
	var t bloomTable
	t.ids = slices.Sorted(maps.Keys(blooms))
	n := 0
	for _, b := range blooms {
		n += len(b)
	}
	t.ends = make([]uint64, 0, len(t.ids))
	t.words = make([]uint64, 0, n)
	for _, id := range t.ids {
		t.words = append(t.words, blooms[id]...)
		t.ends = append(t.ends, uint64(len(t.words)))
	}
	return t
}

// get returns the filter of the file id, nil when it has none.
func (t *bloomTable) get(id uint32) bloom {
	i, ok := slices.BinarySearch(t.ids, id)
	if !ok {
		return nil
	}
	start := uint64(0)
	if i > 0 {
		start = t.ends[i-1]
	}
	return bloom(t.words[start:t.ends[i]:t.ends[i]])
}

// len returns the number of filters.
func (t *bloomTable) len() int { return len(t.ids) }

// size returns the heap memory of an in-memory table, in bytes.
func (t *bloomTable) size() int64 {
	return int64(cap(t.ids))*4 + int64(cap(t.ends))*8 + int64(cap(t.words))*8
}
