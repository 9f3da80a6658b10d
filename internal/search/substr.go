package search

import "bytes"

// Substring search for the prefilter: memchr (bytes.IndexByte, vectorised)
// on the rarest byte of the needle, then a check of the second rarest byte
// and of the whole needle. Case-folded needles search the rarest byte in
// both cases with two cursors.

func byteProb(b byte) float64 {
	p := byteProbs[b]
	if b >= 0x80 && p < 2e-5 {
		p = 2e-5
	}
	return p
}

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

func newFinder(l lit) *finder {
	f := &finder{needle: l.s, fold: l.fold}
	n := len(l.s)
	cost := func(i int) float64 { return bytePairProb(l.s[i], l.fold) }
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
	f.c1a, f.c1b = cases(l.s[f.r1], l.fold)
	f.c2a, f.c2b = cases(l.s[f.r2], l.fold)
	if hasIndexPair && f.r1 != f.r2 && cost(f.r1) > pairThreshold {
		f.pair = true
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

func newMultiFinder(ls []lit) *multiFinder {
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

// byteProbs is the frequency of each byte value in a mix of source code and
// prose (Go's source tree, non-Go files weighted up), used to pick rare bytes.
var byteProbs = [256]float64{
	1e-07, 1e-07, 1e-07, 1e-07, 1.15e-07, 1e-07, 1.64e-07, 1.86e-07, 1e-07, 0.0257, 0.0266,
	1e-07, 1e-07, 5.55e-06, 2.79e-07, 1e-07, 1e-07, 2.13e-07, 2.13e-07, 1.81e-07, 1e-07,
	1.64e-07, 2.36e-06, 1.64e-07, 1e-07, 1e-07, 1e-07, 1.48e-07, 1.31e-07, 1e-07, 1e-07,
	1e-07, 0.131, 0.000863, 0.00677, 0.000592, 0.000991, 0.000533, 0.00101, 0.00108, 0.0125,
	0.0125, 0.00158, 0.00141, 0.0206, 0.00724, 0.0122, 0.0105, 0.0275, 0.0143, 0.011,
	0.00877, 0.00953, 0.00596, 0.0098, 0.00509, 0.00715, 0.00481, 0.00669, 0.00154, 0.00154,
	0.00787, 0.00124, 9.89e-05, 8.19e-05, 0.0147, 0.00425, 0.0058, 0.00546, 0.00746,
	0.00392, 0.00244, 0.00212, 0.00642, 0.000739, 0.00133, 0.0046, 0.00499, 0.00392,
	0.00604, 0.00561, 0.00171, 0.00747, 0.00889, 0.00768, 0.00259, 0.00441, 0.00159,
	0.00377, 0.00197, 0.000904, 0.00237, 0.00341, 0.00237, 0.000155, 0.00775, 0.000327,
	0.0301, 0.00904, 0.0222, 0.0178, 0.0444, 0.0148, 0.0127, 0.00812, 0.0264, 0.000759,
	0.00618, 0.0213, 0.0108, 0.0304, 0.0257, 0.0135, 0.000821, 0.0284, 0.0303, 0.0382,
	0.0129, 0.00539, 0.00389, 0.0147, 0.00827, 0.00144, 0.00444, 0.00149, 0.00443, 4.77e-05,
	1e-07, 2.04e-05, 9.1e-06, 2.28e-05, 1.13e-05, 5.24e-06, 9.01e-06, 9.25e-06, 2.83e-06,
	1.75e-05, 6.42e-06, 5.96e-06, 2.45e-06, 3.96e-06, 1.46e-06, 2.74e-06, 4.66e-06,
	3.69e-06, 2.47e-06, 2.68e-06, 4.39e-06, 7.23e-06, 1.3e-05, 2.35e-06, 1.04e-05, 0.00549,
	7.23e-06, 1.36e-06, 1.93e-06, 7.04e-06, 7.72e-06, 3.61e-06, 1.96e-06, 2.21e-06,
	3.07e-06, 2.17e-06, 2.7e-06, 5.63e-06, 5.22e-06, 5.47e-06, 4.09e-06, 2.32e-06, 6.35e-06,
	3.72e-06, 4.02e-06, 5.59e-06, 3.96e-06, 2.64e-06, 2.22e-06, 2.17e-06, 6.73e-06,
	6.18e-06, 4.8e-06, 3.41e-06, 3.04e-06, 2.18e-06, 0.000316, 4.26e-06, 1.37e-05, 0.00548,
	3.62e-06, 7.57e-06, 4.37e-06, 5.57e-06, 2.19e-06, 1e-07, 1e-07, 0.00033, 7.86e-06,
	6.46e-07, 5.69e-07, 1e-07, 1.2e-06, 2.96e-07, 2.05e-06, 2.05e-06, 1.02e-06, 4.39e-06,
	1.78e-06, 1.64e-05, 4.85e-06, 1.45e-06, 9.52e-07, 1e-07, 3.06e-07, 2.13e-07, 1.43e-06,
	1.61e-06, 3.7e-06, 1.25e-05, 1.44e-05, 8.65e-07, 9.47e-07, 2.02e-07, 1e-07, 1e-07,
	3.17e-07, 5.42e-06, 9.11e-06, 0.00554, 1.41e-05, 2.93e-06, 5.29e-06, 7.76e-06, 4.27e-06,
	3.52e-06, 1.47e-06, 1.24e-06, 2.85e-07, 5.47e-07, 3.23e-07, 1e-07, 8.37e-07, 4.25e-06,
	1.04e-07, 1.64e-07, 3.12e-07, 1.53e-07, 1.15e-07, 1.97e-07, 1e-07, 1.81e-07, 1e-07,
	1e-07, 1e-07, 1e-07, 2.63e-07, 1.64e-07, 1.31e-07,
}
