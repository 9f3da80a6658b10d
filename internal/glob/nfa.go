package glob

import (
	"math/bits"
	"unicode/utf8"
)

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
// bitset simulation (linear in the input, no allocation up to 512 states);
// above maxTableInsts states it has no closure table (words 0) and is
// matched by matchSparse.
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
			if !silent(br) {
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
	panic("glob: unknown token")
}

// MaxIgnoreStates is the largest automaton a gitignore line may compile
// to (Syntax.MaxStates). The closure table grows with the square of the
// instruction count and matching with the product of it and the path
// length: a 40 kB line of "*a" took 0.8 s to compile and 4 s to match one
// name. A pattern this large matches no real path; its line is skipped like
// one that does not parse.
const MaxIgnoreStates = 1024

// maxTableInsts is the largest automaton matched with a closure table;
// larger ones (glob() patterns have no bound) are matched by matchSparse.
const maxTableInsts = 1024

// compileProg compiles toks into an NFA matching the whole input, or
// returns nil when it would exceed max instructions (max > 0).
func compileProg(toks []token, max int) *prog {
	b := &progBuilder{}
	m := b.add(inst{op: opMatch})
	start := b.seq(toks, m)
	p := &prog{insts: b.insts, start: start, match: m}
	n := len(p.insts)
	if max > 0 && n > max {
		return nil
	}
	if n > maxTableInsts {
		return p // no closure table: matchSparse
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
	switch p.words {
	case 0:
		return p.matchSparse(parts)
	case 1:
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

// matchSparse is matchParts for an automaton too large for a closure table:
// a Thompson simulation that follows the epsilon edges as it goes, with
// sparse state sets. Its cost per byte is the number of live states, not
// the size of the automaton.
func (p *prog) matchSparse(parts []string) bool {
	n := len(p.insts)
	cur, nxt := newSparseSet(n), newSparseSet(n)
	var stack []int32
	p.addClosure(cur, p.start, &stack)
	for _, part := range parts {
		for i := 0; i < len(part); i++ {
			c := part[i]
			nxt.clear()
			for _, s := range cur.dense {
				if in := &p.insts[s]; in.op == opSet && in.set.has(c) {
					p.addClosure(nxt, in.out, &stack)
				}
			}
			if len(nxt.dense) == 0 {
				return false
			}
			cur, nxt = nxt, cur
		}
	}
	return cur.has(p.match)
}

// addClosure adds to set the consuming and match states reachable from s
// by epsilon edges (s included).
func (p *prog) addClosure(set *sparseSet, s int32, stack *[]int32) {
	*stack = append((*stack)[:0], s)
	for len(*stack) > 0 {
		x := (*stack)[len(*stack)-1]
		*stack = (*stack)[:len(*stack)-1]
		if set.has(x) {
			continue
		}
		set.add(x)
		if in := &p.insts[x]; in.op == opSplit {
			*stack = append(*stack, in.out1, in.out)
		}
	}
}

// sparseSet is a set of states with constant-time clear (Briggs-Torczon).
// Split states are added too (to mark them visited); they consume nothing.
type sparseSet struct {
	dense  []int32
	sparse []int32
}

func newSparseSet(n int) *sparseSet {
	return &sparseSet{dense: make([]int32, 0, n), sparse: make([]int32, n)}
}

func (s *sparseSet) has(x int32) bool {
	i := s.sparse[x]
	return int(i) < len(s.dense) && s.dense[i] == x
}

func (s *sparseSet) add(x int32) {
	s.sparse[x] = int32(len(s.dense))
	s.dense = append(s.dense, x)
}

func (s *sparseSet) clear() { s.dense = s.dense[:0] }
