package regex

import (
	"bytes"

	"github.com/fscache/fscache/internal/regex/syntax"
)

// Substring search for the prefilter: memchr (bytes.IndexByte, vectorised)
// on the rarest byte of the needle, then a check of the second rarest byte
// and of the whole needle. Case-folded needles search the rarest byte in
// both cases with two cursors.

// finder finds occurrences of one string.
type finder struct {
	needle string // lower-cased when fold
	fold   bool
	r1, r2 int  // offsets of the rarest and second rarest byte
	c1a    byte // byte at r1 (lower case when folding a letter)
	c1b    byte // its other case, or c1a
	c2a    byte
	c2b    byte
	// pair selects the vector scan for both rare bytes at once
	// (findPair), when the rarest byte is common enough that memchr
	// would stop every few hundred bytes.
	pair   bool
	m1, o1 int // the byte at r1, with o1 = 0x20 when it is a folded letter
	m2, o2 int // the same for r2
}

// pairThreshold is the probability of the rarest byte above which the
// pair scan replaces memchr.
const pairThreshold = 0.002

func newFinder(l syntax.Lit) *finder {
	f := &finder{needle: l.S, fold: l.Fold}
	n := len(l.S)
	cost := func(i int) float64 { return syntax.BytePairProb(l.S[i], l.Fold) }
	f.r1 = 0
	for i := 1; i < n; i++ {
		if cost(i) < cost(f.r1) {
			f.r1 = i
		}
	}
	f.r2 = -1
	for i := 0; i < n; i++ {
		if i != f.r1 && (f.r2 < 0 || cost(i) < cost(f.r2)) {
			f.r2 = i
		}
	}
	if f.r2 < 0 {
		f.r2 = f.r1
	}
	f.c1a, f.c1b = cases(l.S[f.r1], l.Fold)
	f.c2a, f.c2b = cases(l.S[f.r2], l.Fold)
	if hasIndexPair && f.r1 != f.r2 && cost(f.r1) > pairThreshold {
		f.pair = true
		detectCPU()
		f.m1, f.o1 = pairMask(f.c1a, f.c1b)
		f.m2, f.o2 = pairMask(f.c2a, f.c2b)
	}
	return f
}

// pairMask returns the byte to compare with and the mask ORed into the
// input first, to match byte a or its other case b: a folded letter is
// compared with its 0x20 bit set, which also admits a few non-letters
// (rejected by the full comparison).
func pairMask(a, b byte) (m, o int) {
	if a != b {
		return int(a | 0x20), 0x20
	}
	return int(a), 0
}

// findPair is find for pair finders: sixteen positions at a time, it
// looks for the rarest byte at r1 and the second rarest at r2 together.
func (f *finder) findPair(h []byte, from, end int) int {
	n := len(f.needle)
	for end-from >= 16 {
		blocks := (end - from) &^ 15
		// Loads reach from+blocks-1+(n-1) < end+n-1 <= len(h).
		j := indexPair(&h[from], blocks, f.r1, f.r2, f.m1, f.o1, f.m2, f.o2)
		if j < 0 {
			from += blocks
			break
		}
		p := from + j
		if f.equal(h[p : p+n]) {
			return p
		}
		from = p + 1
	}
	for ; from < end; from++ {
		if c := h[from+f.r1]; c != f.c1a && c != f.c1b {
			continue
		}
		if c := h[from+f.r2]; (c == f.c2a || c == f.c2b) && f.equal(h[from:from+n]) {
			return from
		}
	}
	return -1
}

func cases(b byte, fold bool) (byte, byte) {
	if fold && 'a' <= b && b <= 'z' {
		return b, b - 32
	}
	return b, b
}

// find returns the start of the first occurrence starting in [from, end),
// or -1. It may read up to len(needle)-1 bytes past end.
func (f *finder) find(h []byte, from, end int) int {
	n := len(f.needle)
	if end > len(h)-n+1 {
		end = len(h) - n + 1
	}
	if from >= end {
		return -1
	}
	if n == 1 {
		if f.c1a == f.c1b {
			if i := bytes.IndexByte(h[from:end], f.c1a); i >= 0 {
				return from + i
			}
			return -1
		}
		return indexByte2(h[from:end], f.c1a, f.c1b, from)
	}
	if f.pair {
		return f.findPair(h, from, end)
	}
	if f.c1a == f.c1b {
		for i := from; i < end; {
			j := bytes.IndexByte(h[i+f.r1:end+f.r1], f.c1a)
			if j < 0 {
				return -1
			}
			p := i + j
			if c := h[p+f.r2]; (c == f.c2a || c == f.c2b) && f.equal(h[p:p+n]) {
				return p
			}
			i = p + 1
		}
		return -1
	}
	// Two cursors, one per case of the rare byte. A cursor that found
	// nothing is parked at end, so that it is never searched again.
	na, nb := -1, -1
	for i := from; i < end; {
		if na < i {
			na = end
			if j := bytes.IndexByte(h[i+f.r1:end+f.r1], f.c1a); j >= 0 {
				na = i + j
			}
		}
		if nb < i {
			nb = end
			if j := bytes.IndexByte(h[i+f.r1:end+f.r1], f.c1b); j >= 0 {
				nb = i + j
			}
		}
		p := min(na, nb)
		if p >= end {
			return -1
		}
		if c := h[p+f.r2]; (c == f.c2a || c == f.c2b) && f.equal(h[p:p+n]) {
			return p
		}
		i = p + 1
	}
	return -1
}

// indexByte2 finds the first of two bytes.
func indexByte2(h []byte, a, b byte, base int) int {
	i := bytes.IndexByte(h, a)
	lim := h
	if i >= 0 {
		lim = h[:i]
	}
	if j := bytes.IndexByte(lim, b); j >= 0 {
		return base + j
	}
	if i >= 0 {
		return base + i
	}
	return -1
}

func (f *finder) equal(s []byte) bool {
	if !f.fold {
		return string(s) == f.needle
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 32
		}
		if c != f.needle[i] {
			return false
		}
	}
	return true
}

// containsAt reports whether the needle occurs in s (a line).
func (f *finder) contains(s []byte) bool { return f.find(s, 0, len(s)) >= 0 }

// multiFinder finds the first occurrence of any of several strings, keeping
// one cursor per string so each is scanned once per buffer.
type multiFinder struct {
	fs   []*finder
	next []int // cached next occurrence, or -1
	upto []int // next[i] == -1 means none starting in [from[i], upto[i])
	from []int
}

func newMultiFinder(ls []syntax.Lit) *multiFinder {
	m := &multiFinder{}
	for _, l := range ls {
		m.fs = append(m.fs, newFinder(l))
	}
	m.next = make([]int, len(ls))
	m.upto = make([]int, len(ls))
	m.from = make([]int, len(ls))
	m.reset()
	return m
}

func (m *multiFinder) reset() {
	for i := range m.next {
		m.next[i], m.upto[i], m.from[i] = -1, -1, 0
	}
}

func (m *multiFinder) find(h []byte, from, end int) int {
	if len(m.fs) == 1 {
		return m.fs[0].find(h, from, end)
	}
	best := -1
	for i, f := range m.fs {
		p := m.next[i]
		switch {
		case p >= from:
		case p < 0 && m.from[i] <= from && m.upto[i] >= end:
			continue
		default:
			p = f.find(h, from, end)
			m.next[i] = p
			if p < 0 {
				m.from[i], m.upto[i] = from, end
				continue
			}
		}
		if p < end && (best < 0 || p < best) {
			best = p
		}
	}
	return best
}
