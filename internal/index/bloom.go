package index

import (
	"math/bits"

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
