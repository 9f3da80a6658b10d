package regex

import "golang.org/x/sys/cpu"

// hasIndexPair reports whether indexPair is implemented (in assembly).
const hasIndexPair = true

// useAVX2 selects indexPair's 32-byte loop (AVX2); SSE2, 16 bytes at a
// time, otherwise and for a last 16 bytes. Set once, before any search (a
// test turns it off to check the SSE2 loop alone).
var useAVX2 = cpu.X86.HasAVX2

// indexPair returns the first i in [0, n), n a multiple of 16, such that
// p[i+off1]|o1 == m1 and p[i+off2]|o2 == m2, or -1. The bytes up to
// p[n-1+max(off1, off2)] must be readable.
//
//go:noescape
func indexPair(p *byte, n, off1, off2, m1, o1, m2, o2 int) int
