package syntax

import (
	"sort"
	"sync"
	"unicode"
)

// Range is an inclusive range of runes or bytes.
type Range[T rune | byte] struct{ Lo, Hi T }

// RuneRange is an inclusive range of Unicode scalar values.
type RuneRange = Range[rune]

// RuneClass is a sorted list of non-overlapping, non-adjacent ranges.
type RuneClass []RuneRange

// ByteRange is an inclusive range of bytes.
type ByteRange = Range[byte]

// ByteClass is a sorted list of non-overlapping, non-adjacent byte ranges.
type ByteClass []ByteRange

func (c RuneClass) union(o RuneClass) RuneClass { return unionRanges(c, o) }

// negate complements c over the Unicode scalar values (surrogates excluded).
func (c RuneClass) negate() RuneClass {
	var out []RuneRange
	next := rune(0)
	add := func(lo, hi rune) {
		// Split around the surrogate block.
		if lo <= 0xD7FF {
			h := hi
			if h > 0xD7FF {
				h = 0xD7FF
			}
			out = append(out, RuneRange{lo, h})
		}
		if hi >= 0xE000 {
			l := lo
			if l < 0xE000 {
				l = 0xE000
			}
			out = append(out, RuneRange{l, hi})
		}
	}
	for _, r := range c {
		if r.Lo > next {
			add(next, r.Lo-1)
		}
		next = r.Hi + 1
	}
	if next <= unicode.MaxRune {
		add(next, unicode.MaxRune)
	}
	return canon(out)
}

func (c RuneClass) intersect(o RuneClass) RuneClass { return intersectRanges(c, o) }

func (c RuneClass) difference(o RuneClass) RuneClass {
	return c.intersect(o.negateAll())
}

// negateAll complements over every rune value 0..MaxRune, which keeps
// surrogates out of the way for set differences of scalar-value classes.
func (c RuneClass) negateAll() RuneClass { return complement(c, unicode.MaxRune) }

func (c RuneClass) symmetricDifference(o RuneClass) RuneClass {
	return c.union(o).difference(c.intersect(o))
}

func (c RuneClass) contains(r rune) bool {
	i := sort.Search(len(c), func(i int) bool { return c[i].Hi >= r })
	return i < len(c) && c[i].Lo <= r
}

// size is the number of scalar values in c.
func (c RuneClass) size() int {
	n := 0
	for _, r := range c {
		n += int(r.Hi-r.Lo) + 1
	}
	return n
}

var (
	foldOnce  sync.Once
	foldRunes []rune // every rune whose simple case folding orbit is not itself
)

func initFoldRunes() {
	foldOnce.Do(func() {
		// Go's regexp/syntax bounds: no rune outside folds.
		const minFold, maxFold = 0x0041, 0x1E943
		for r := rune(minFold); r <= maxFold; r++ {
			if f := unicode.SimpleFold(r); f != r {
				foldRunes = append(foldRunes, r)
			}
		}
	})
}

// caseFold adds to c every rune equivalent to one of its members under
// Unicode simple case folding (regex-syntax's try_case_fold_simple).
func (c RuneClass) caseFold() RuneClass {
	initFoldRunes()
	var add []RuneRange
	for _, r := range c {
		i := sort.Search(len(foldRunes), func(i int) bool { return foldRunes[i] >= r.Lo })
		for ; i < len(foldRunes) && foldRunes[i] <= r.Hi; i++ {
			x := foldRunes[i]
			for f := unicode.SimpleFold(x); f != x; f = unicode.SimpleFold(f) {
				add = append(add, RuneRange{f, f})
			}
		}
	}
	if len(add) == 0 {
		return c
	}
	return c.union(add)
}

func (c ByteClass) union(o ByteClass) ByteClass { return unionRanges(c, o) }

// negate complements c over all bytes.
func (c ByteClass) negate() ByteClass { return complement(c, 255) }

func (c ByteClass) intersect(o ByteClass) ByteClass { return intersectRanges(c, o) }

func (c ByteClass) difference(o ByteClass) ByteClass { return c.intersect(o.negate()) }

func (c ByteClass) symmetricDifference(o ByteClass) ByteClass {
	return c.union(o).difference(c.intersect(o))
}

func (c ByteClass) asciiFold() ByteClass {
	var add []ByteRange
	for _, r := range c {
		for _, lr := range [2]ByteRange{{'a', 'z'}, {'A', 'Z'}} {
			lo, hi := max(r.Lo, lr.Lo), min(r.Hi, lr.Hi)
			if lo <= hi {
				add = append(add, ByteRange{lo ^ 0x20, hi ^ 0x20})
			}
		}
	}
	if len(add) == 0 {
		return c
	}
	return c.union(add)
}

// toRunes converts an all-ASCII byte class to a rune class.
func (c ByteClass) toRunes() RuneClass {
	out := make(RuneClass, len(c))
	for i, r := range c {
		out[i] = RuneRange{rune(r.Lo), rune(r.Hi)}
	}
	return out
}

// canon sorts rs and merges its overlapping and adjacent ranges, in place.
func canon[T rune | byte](rs []Range[T]) []Range[T] {
	if len(rs) == 0 {
		return []Range[T]{}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].Lo < rs[j].Lo })
	out := rs[:1]
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if int(r.Lo) <= int(last.Hi)+1 {
			if r.Hi > last.Hi {
				last.Hi = r.Hi
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

// unionRanges is the canonical union of two sets of ranges.
func unionRanges[T rune | byte](a, b []Range[T]) []Range[T] {
	rs := make([]Range[T], 0, len(a)+len(b))
	rs = append(rs, a...)
	rs = append(rs, b...)
	return canon(rs)
}

// intersectRanges is the intersection of two canonical sets of ranges.
func intersectRanges[T rune | byte](a, b []Range[T]) []Range[T] {
	var out []Range[T]
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		lo := max(a[i].Lo, b[j].Lo)
		hi := min(a[i].Hi, b[j].Hi)
		if lo <= hi {
			out = append(out, Range[T]{lo, hi})
		}
		if a[i].Hi < b[j].Hi {
			i++
		} else {
			j++
		}
	}
	return canon(out)
}

// complement is the complement of the canonical set c within [0, top].
func complement[T rune | byte](c []Range[T], top T) []Range[T] {
	var out []Range[T]
	next := 0
	for _, r := range c {
		if int(r.Lo) > next {
			out = append(out, Range[T]{T(next), r.Lo - 1})
		}
		next = int(r.Hi) + 1
	}
	if next <= int(top) {
		out = append(out, Range[T]{T(next), top})
	}
	return out
}
