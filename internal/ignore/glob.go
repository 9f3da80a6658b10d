package ignore

import (
	"errors"
	"math/bits"
	"unicode/utf8"
)

// This file implements the glob dialect of ripgrep's globset crate as the
// ignore crate configures it for gitignore lines: literal_separator (`*` and
// `?` never match `/`), backslash escapes, unclosed classes taken literally,
// `{a,b}` alternation (nested allowed, empty branches dropped) and the
// byte-oriented matching of its `(?-u)` regexes (`?` matches one byte, a
// class matches one byte).
//
// A pattern is parsed into tokens, then compiled either into a fast literal
// form or into a small Thompson NFA run with bitsets.

type tokKind uint8

const (
	tLit       tokKind = iota // one literal character
	tAny                      // ?      -> [^/]
	tStar                     // *      -> [^/]*
	tRecPrefix                // **/    -> (?:/?|.*/)
	tRecSuffix                // /**    -> /.*
	tRecZOM                   // /**/   -> (?:/|/.*/)
	tClass                    // [...]  -> one byte of a set
	tAlt                      // {a,b}  -> (?:a|b)
)

type token struct {
	kind    tokKind
	ch      rune
	negated bool
	ranges  [][2]rune
	alts    [][]token
}

var (
	errDanglingEscape = errors.New("dangling escape")
	errInvalidRange   = errors.New("invalid character range")
	errUnclosedAlt    = errors.New("unclosed alternates")
	errUnopenedAlt    = errors.New("unopened alternates")
)

const noRune rune = -1

type globParser struct {
	chars         []rune
	idx           int
	prev, cur     rune
	branches      [][]token
	altStack      []int
	foundUnclosed bool
}

// parseGlob parses s with the globset options used for gitignore lines.
func parseGlob(s string) ([]token, error) {
	p := &globParser{
		chars:    []rune(s),
		prev:     noRune,
		cur:      noRune,
		branches: [][]token{nil},
	}
	for {
		c := p.bump()
		if c == noRune {
			break
		}
		var err error
		switch c {
		case '?':
			p.push(token{kind: tAny})
		case '*':
			err = p.parseStar()
		case '[':
			if p.foundUnclosed {
				p.push(token{kind: tLit, ch: '['})
			} else {
				err = p.parseClass()
			}
		case '{':
			p.altStack = append(p.altStack, len(p.branches))
			p.branches = append(p.branches, nil)
		case '}':
			if len(p.altStack) == 0 {
				return nil, errUnopenedAlt
			}
			start := p.altStack[len(p.altStack)-1]
			p.altStack = p.altStack[:len(p.altStack)-1]
			alts := append([][]token(nil), p.branches[start:]...)
			p.branches = p.branches[:start]
			p.push(token{kind: tAlt, alts: alts})
		case ',':
			if len(p.altStack) == 0 {
				p.push(token{kind: tLit, ch: ','})
			} else {
				p.branches = append(p.branches, nil)
			}
		case '\\':
			n := p.bump()
			if n == noRune {
				return nil, errDanglingEscape
			}
			p.push(token{kind: tLit, ch: n})
		default:
			p.push(token{kind: tLit, ch: c})
		}
		if err != nil {
			return nil, err
		}
	}
	if len(p.branches) > 1 {
		return nil, errUnclosedAlt
	}
	return p.branches[0], nil
}

func (p *globParser) bump() rune {
	p.prev = p.cur
	if p.idx < len(p.chars) {
		p.cur = p.chars[p.idx]
		p.idx++
	} else {
		p.cur = noRune
	}
	return p.cur
}

func (p *globParser) peek() rune {
	if p.idx < len(p.chars) {
		return p.chars[p.idx]
	}
	return noRune
}

func (p *globParser) push(t token) {
	last := len(p.branches) - 1
	p.branches[last] = append(p.branches[last], t)
}

func (p *globParser) pop() token {
	last := len(p.branches) - 1
	b := p.branches[last]
	t := b[len(b)-1]
	p.branches[last] = b[:len(b)-1]
	return t
}

func (p *globParser) haveTokens() bool {
	return len(p.branches[len(p.branches)-1]) > 0
}

func (p *globParser) parseStar() error {
	prev := p.prev
	star := token{kind: tStar}
	if p.peek() != '*' {
		p.push(star)
		return nil
	}
	p.bump()
	if !p.haveTokens() {
		if pk := p.peek(); pk != noRune && pk != '/' {
			p.push(star)
			p.push(star)
		} else {
			p.push(token{kind: tRecPrefix})
			p.bump()
		}
		return nil
	}
	if prev != '/' {
		if len(p.branches) <= 1 || (prev != ',' && prev != '{') {
			p.push(star)
			p.push(star)
			return nil
		}
	}
	var isSuffix bool
	switch pk := p.peek(); {
	case pk == noRune:
		p.bump()
		isSuffix = true
	case (pk == ',' || pk == '}') && len(p.branches) >= 2:
		isSuffix = true
	case pk == '/':
		p.bump()
	default:
		p.push(star)
		p.push(star)
		return nil
	}
	switch t := p.pop(); t.kind {
	case tRecPrefix, tRecSuffix:
		p.push(t)
	default:
		if isSuffix {
			p.push(token{kind: tRecSuffix})
		} else {
			p.push(token{kind: tRecZOM})
		}
	}
	return nil
}

func (p *globParser) parseClass() error {
	savedIdx, savedPrev, savedCur := p.idx, p.prev, p.cur
	negated := false
	if pk := p.peek(); pk == '!' || pk == '^' {
		p.bump()
		negated = true
	}
	var ranges [][2]rune
	first, inRange := true, false
	for {
		c := p.bump()
		if c == noRune {
			// Unclosed class: the '[' is a literal and no later '[' opens
			// a class.
			p.idx, p.prev, p.cur = savedIdx, savedPrev, savedCur
			p.foundUnclosed = true
			p.push(token{kind: tLit, ch: '['})
			return nil
		}
		if c == ']' && !first {
			break
		}
		switch {
		case c == ']':
			ranges = append(ranges, [2]rune{']', ']'})
		case c == '-' && first:
			ranges = append(ranges, [2]rune{'-', '-'})
		case c == '-' && inRange:
			r := &ranges[len(ranges)-1]
			r[1] = '-'
			if r[1] < r[0] {
				return errInvalidRange
			}
			inRange = false
		case c == '-':
			inRange = true
		default:
			if inRange {
				r := &ranges[len(ranges)-1]
				r[1] = c
				if r[1] < r[0] {
					return errInvalidRange
				}
			} else {
				ranges = append(ranges, [2]rune{c, c})
			}
			inRange = false
		}
		first = false
	}
	if inRange {
		ranges = append(ranges, [2]rune{'-', '-'})
	}
	p.push(token{kind: tClass, negated: negated, ranges: ranges})
	return nil
}

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(b byte)      { s[b>>6] |= 1 << (b & 63) }
func (s *byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }
func (s *byteSet) addRange(lo, hi int) {
	for b := lo; b <= hi; b++ {
		s.add(byte(b))
	}
}

var (
	setAll     = func() (s byteSet) { s.addRange(0, 255); return }()
	setNoSlash = func() (s byteSet) { s = setAll; s['/'>>6] &^= 1 << ('/' & 63); return }()
)

// classSet computes the byte set of a class the way globset's regex
// (`(?-u)[...]` with every non-ASCII character written as its escaped
// UTF-8 bytes) behaves: [é] is the set {0xC3, 0xA9}, [a-é] is 'a'..0xC3
// plus 0xA9. Such a byte range is never inverted: the parser ensures
// lo <= hi for characters, a range starting at a non-ASCII character ends
// at one too, and UTF-8 continuation bytes sort below lead bytes.
func classSet(t *token) (set byteSet) {
	var buf1, buf2 [utf8.UTFMax]byte
	for _, r := range t.ranges {
		a := buf1[:utf8.EncodeRune(buf1[:], r[0])]
		if r[0] == r[1] {
			for _, b := range a {
				set.add(b)
			}
			continue
		}
		b := buf2[:utf8.EncodeRune(buf2[:], r[1])]
		for _, x := range a[:len(a)-1] {
			set.add(x)
		}
		set.addRange(int(a[len(a)-1]), int(b[0]))
		for _, x := range b[1:] {
			set.add(x)
		}
	}
	if t.negated {
		for i := range set {
			set[i] = ^set[i]
		}
	}
	return set
}

// canMatchSlash reports whether t can consume a '/' byte.
func canMatchSlash(t *token) bool {
	switch t.kind {
	case tLit:
		return t.ch == '/'
	case tAny, tStar:
		return false
	case tClass:
		s := classSet(t)
		return s.has('/')
	case tAlt:
		for _, b := range t.alts {
			for i := range b {
				if canMatchSlash(&b[i]) {
					return true
				}
			}
		}
		return false
	}
	return true
}

// literalOf returns the concatenation of toks when all are literals.
func literalOf(toks []token) (string, bool) {
	var b []byte
	for _, t := range toks {
		if t.kind != tLit {
			return "", false
		}
		b = utf8.AppendRune(b, t.ch)
	}
	return string(b), true
}

// NFA instructions.
const (
	opSet   uint8 = iota // consume one byte of set, go to out
	opSplit              // epsilon to out and out1
	opMatch
)

type inst struct {
	op   uint8
	out  int32
	out1 int32
	set  byteSet
}

// prog is a compiled NFA with precomputed epsilon closures, matched by
// bitset simulation (linear in the input, no allocation up to 512 states).
type prog struct {
	insts   []inst
	start   int32
	match   int32
	words   int      // bitset words per state set
	closure []uint64 // words per state: states reachable by epsilon, consuming or match only
}

const maxStackWords = 8

type progBuilder struct {
	insts []inst
}

func (b *progBuilder) add(in inst) int32 {
	b.insts = append(b.insts, in)
	return int32(len(b.insts) - 1)
}

func (b *progBuilder) set(s *byteSet, next int32) int32 {
	return b.add(inst{op: opSet, set: *s, out: next})
}

func (b *progBuilder) byteLit(c byte, next int32) int32 {
	var s byteSet
	s.add(c)
	return b.set(&s, next)
}

// loop builds `set*` followed by next.
func (b *progBuilder) loop(s *byteSet, next int32) int32 {
	l := b.add(inst{op: opSplit, out1: next})
	c := b.set(s, l)
	b.insts[l].out = c
	return l
}

// dirsOpt builds `(?:.*/)?` followed by next.
func (b *progBuilder) dirsOpt(next int32) int32 {
	slash := b.byteLit('/', next)
	x := b.add(inst{op: opSplit, out1: slash})
	y := b.set(&setAll, x)
	b.insts[x].out = y
	return b.add(inst{op: opSplit, out: x, out1: next})
}

// seq compiles toks followed by next, back to front.
func (b *progBuilder) seq(toks []token, next int32) int32 {
	for i := len(toks) - 1; i >= 0; i-- {
		next = b.tok(&toks[i], next)
	}
	return next
}

func (b *progBuilder) tok(t *token, next int32) int32 {
	switch t.kind {
	case tLit:
		var buf [utf8.UTFMax]byte
		enc := buf[:utf8.EncodeRune(buf[:], t.ch)]
		for i := len(enc) - 1; i >= 0; i-- {
			next = b.byteLit(enc[i], next)
		}
		return next
	case tAny:
		return b.set(&setNoSlash, next)
	case tStar:
		return b.loop(&setNoSlash, next)
	case tRecPrefix:
		return b.dirsOpt(next)
	case tRecSuffix:
		return b.byteLit('/', b.loop(&setAll, next))
	case tRecZOM:
		return b.byteLit('/', b.dirsOpt(next))
	case tClass:
		s := classSet(t)
		return b.set(&s, next)
	case tAlt:
		var starts []int32
		for _, br := range t.alts {
			if len(br) > 0 {
				starts = append(starts, b.seq(br, next))
			}
		}
		if len(starts) == 0 {
			return next
		}
		s := starts[len(starts)-1]
		for i := len(starts) - 2; i >= 0; i-- {
			s = b.add(inst{op: opSplit, out: starts[i], out1: s})
		}
		return s
	}
	panic("ignore: unknown token")
}

// maxProgInsts bounds a compiled pattern. The closure table grows with the
// square of the instruction count and matching with the product of it and
// the path length: a 40 kB line of "*a" took 0.8 s to compile and 4 s to
// match one name. A pattern this large matches no real path; its line is
// skipped like one that does not parse.
const maxProgInsts = 1024

// compileProg compiles toks into an NFA matching the whole input, or
// returns nil when it would exceed maxProgInsts instructions.
func compileProg(toks []token) *prog {
	b := &progBuilder{}
	m := b.add(inst{op: opMatch})
	start := b.seq(toks, m)
	p := &prog{insts: b.insts, start: start, match: m}
	n := len(p.insts)
	if n > maxProgInsts {
		return nil
	}
	p.words = (n + 63) / 64
	p.closure = make([]uint64, n*p.words)
	var stack []int32
	seen := make([]bool, n)
	for s := 0; s < n; s++ {
		cl := p.closure[s*p.words : (s+1)*p.words]
		clear(seen)
		stack = append(stack[:0], int32(s))
		seen[s] = true
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			in := &p.insts[x]
			if in.op == opSplit {
				for _, y := range [2]int32{in.out, in.out1} {
					if !seen[y] {
						seen[y] = true
						stack = append(stack, y)
					}
				}
				continue
			}
			cl[x>>6] |= 1 << (x & 63)
		}
	}
	return p
}

// matchParts reports whether the concatenation of the parts matches the
// whole program.
func (p *prog) matchParts(parts ...string) bool {
	if p.words == 1 {
		return p.match1(parts)
	}
	var b1, b2 [maxStackWords]uint64
	var cur, nxt []uint64
	if p.words <= maxStackWords {
		cur, nxt = b1[:p.words], b2[:p.words]
	} else {
		cur, nxt = make([]uint64, p.words), make([]uint64, p.words)
	}
	copy(cur, p.closure[int(p.start)*p.words:])
	w := p.words
	for _, part := range parts {
		for i := 0; i < len(part); i++ {
			c := part[i]
			clear(nxt)
			alive := false
			for wi, word := range cur {
				for word != 0 {
					bit := word & -word
					word ^= bit
					s := wi*64 + bits.TrailingZeros64(bit)
					in := &p.insts[s]
					if in.op == opSet && in.set.has(c) {
						cl := p.closure[int(in.out)*w : int(in.out+1)*w]
						for k := range nxt {
							nxt[k] |= cl[k]
						}
						alive = true
					}
				}
			}
			if !alive {
				return false
			}
			cur, nxt = nxt, cur
		}
	}
	return cur[p.match>>6]&(1<<(p.match&63)) != 0
}

func (p *prog) match1(parts []string) bool {
	cur := p.closure[p.start]
	for _, part := range parts {
		for i := 0; i < len(part); i++ {
			c := part[i]
			var nxt uint64
			for word := cur; word != 0; {
				bit := word & -word
				word ^= bit
				in := &p.insts[bits.TrailingZeros64(bit)]
				if in.op == opSet && in.set.has(c) {
					nxt |= p.closure[in.out]
				}
			}
			if nxt == 0 {
				return false
			}
			cur = nxt
		}
	}
	return cur&(1<<p.match) != 0
}
