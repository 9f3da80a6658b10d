package search

import (
	"sort"
	"sync"
	"unicode"
)

// runeRange is an inclusive range of Unicode scalar values.
type runeRange struct{ lo, hi rune }

// runeClass is a sorted list of non-overlapping, non-adjacent ranges.
type runeClass []runeRange

// byteRange is an inclusive range of bytes.
type byteRange struct{ lo, hi byte }

// byteClass is a sorted list of non-overlapping, non-adjacent byte ranges.
type byteClass []byteRange

func canonRunes(rs []runeRange) runeClass {
	if len(rs) == 0 {
		return runeClass{}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].lo < rs[j].lo })
	out := rs[:1]
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if r.lo <= last.hi+1 {
			if r.hi > last.hi {
				last.hi = r.hi
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

func (c runeClass) union(o runeClass) runeClass {
	rs := make([]runeRange, 0, len(c)+len(o))
	rs = append(rs, c...)
	rs = append(rs, o...)
	return canonRunes(rs)
}

// negate complements c over the Unicode scalar values (surrogates excluded).
func (c runeClass) negate() runeClass {
	var out []runeRange
	next := rune(0)
	add := func(lo, hi rune) {
		// Split around the surrogate block.
		if lo <= 0xD7FF {
			h := hi
			if h > 0xD7FF {
				h = 0xD7FF
			}
			out = append(out, runeRange{lo, h})
		}
		if hi >= 0xE000 {
			l := lo
			if l < 0xE000 {
				l = 0xE000
			}
			out = append(out, runeRange{l, hi})
		}
	}
	for _, r := range c {
		if r.lo > next {
			add(next, r.lo-1)
		}
		next = r.hi + 1
	}
	if next <= unicode.MaxRune {
		add(next, unicode.MaxRune)
	}
	return canonRunes(out)
}

func (c runeClass) intersect(o runeClass) runeClass {
	var out []runeRange
	i, j := 0, 0
	for i < len(c) && j < len(o) {
		lo := max(c[i].lo, o[j].lo)
		hi := min(c[i].hi, o[j].hi)
		if lo <= hi {
			out = append(out, runeRange{lo, hi})
		}
		if c[i].hi < o[j].hi {
			i++
		} else {
			j++
		}
	}
	return canonRunes(out)
}

func (c runeClass) difference(o runeClass) runeClass {
	return c.intersect(o.negateAll())
}

// negateAll complements over every rune value 0..MaxRune, which keeps
// surrogates out of the way for set differences of scalar-value classes.
func (c runeClass) negateAll() runeClass {
	var out []runeRange
	next := rune(0)
	for _, r := range c {
		if r.lo > next {
			out = append(out, runeRange{next, r.lo - 1})
		}
		next = r.hi + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, runeRange{next, unicode.MaxRune})
	}
	return out
}

func (c runeClass) symmetricDifference(o runeClass) runeClass {
	return c.union(o).difference(c.intersect(o))
}

func (c runeClass) contains(r rune) bool {
	i := sort.Search(len(c), func(i int) bool { return c[i].hi >= r })
	return i < len(c) && c[i].lo <= r
}

// size is the number of scalar values in c.
func (c runeClass) size() int {
	n := 0
	for _, r := range c {
		n += int(r.hi-r.lo) + 1
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
func (c runeClass) caseFold() runeClass {
	initFoldRunes()
	var add []runeRange
	for _, r := range c {
		i := sort.Search(len(foldRunes), func(i int) bool { return foldRunes[i] >= r.lo })
		for ; i < len(foldRunes) && foldRunes[i] <= r.hi; i++ {
			x := foldRunes[i]
			for f := unicode.SimpleFold(x); f != x; f = unicode.SimpleFold(f) {
				add = append(add, runeRange{f, f})
			}
		}
	}
	if len(add) == 0 {
		return c
	}
	return c.union(add)
}

func canonBytes(rs []byteRange) byteClass {
	if len(rs) == 0 {
		return byteClass{}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].lo < rs[j].lo })
	out := rs[:1]
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if int(r.lo) <= int(last.hi)+1 {
			if r.hi > last.hi {
				last.hi = r.hi
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

func (c byteClass) union(o byteClass) byteClass {
	rs := make([]byteRange, 0, len(c)+len(o))
	rs = append(rs, c...)
	rs = append(rs, o...)
	return canonBytes(rs)
}

func (c byteClass) negate() byteClass {
	var out []byteRange
	next := 0
	for _, r := range c {
		if int(r.lo) > next {
			out = append(out, byteRange{byte(next), r.lo - 1})
		}
		next = int(r.hi) + 1
	}
	if next <= 255 {
		out = append(out, byteRange{byte(next), 255})
	}
	return out
}

func (c byteClass) intersect(o byteClass) byteClass {
	var out []byteRange
	i, j := 0, 0
	for i < len(c) && j < len(o) {
		lo := max(c[i].lo, o[j].lo)
		hi := min(c[i].hi, o[j].hi)
		if lo <= hi {
			out = append(out, byteRange{lo, hi})
		}
		if c[i].hi < o[j].hi {
			i++
		} else {
			j++
		}
	}
	return canonBytes(out)
}

func (c byteClass) difference(o byteClass) byteClass { return c.intersect(o.negate()) }

func (c byteClass) symmetricDifference(o byteClass) byteClass {
	return c.union(o).difference(c.intersect(o))
}

func (c byteClass) asciiFold() byteClass {
	var add []byteRange
	for _, r := range c {
		for _, lr := range [2]byteRange{{'a', 'z'}, {'A', 'Z'}} {
			lo, hi := max(r.lo, lr.lo), min(r.hi, lr.hi)
			if lo <= hi {
				add = append(add, byteRange{lo ^ 0x20, hi ^ 0x20})
			}
		}
	}
	if len(add) == 0 {
		return c
	}
	return c.union(add)
}

// toRunes converts an all-ASCII byte class to a rune class.
func (c byteClass) toRunes() runeClass {
	out := make(runeClass, len(c))
	for i, r := range c {
		out[i] = runeRange{rune(r.lo), rune(r.hi)}
	}
	return out
}
