package regex

// hasIndexPair reports whether indexPair is implemented (in assembly).
const hasIndexPair = true

// indexPair returns the first i in [0, n), n a multiple of 16, such that
// p[i+off1]|o1 == m1 and p[i+off2]|o2 == m2, or -1. The bytes up to
// p[n-1+max(off1, off2)] must be readable.
//
//go:noescape
func indexPair(p *byte, n, off1, off2, m1, o1, m2, o2 int) int
