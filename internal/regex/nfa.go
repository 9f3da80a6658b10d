package regex

import (
	"encoding/binary"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/regex/syntax"
)

// The pattern runs on a byte-oriented Thompson NFA, as in Rust's regex:
// Unicode classes become UTF-8 automata, so invalid UTF-8 is never matched
// by a Unicode class, raw bytes from (?-u) classes are, and the same NFA
// drives both the lazy DFA (dfa.go) and the fallback simulation below.

type nsKind uint8

const (
	nsSparse nsKind = iota // byte transitions (none: fail)
	nsUnion                // epsilon to every alt
	nsLook                 // epsilon to next when the assertion holds
	nsMatch
)

type nfaTrans struct {
	lo, hi byte
	next   int32
}

type nfaState struct {
	kind  nsKind
	look  syntax.LookKind
	next  int32
	trans []nfaTrans
	alts  []int32
}

type nfa struct {
	states []nfaState
	start  int32
	match  int32
	looks  [syntax.NumLooks]bool
	// hasUnicodeWord: some word assertion needs Unicode word characters,
	// which the lazy DFA only evaluates on ASCII input.
	hasUnicodeWord bool
	hasLook        bool
}

type nfaCompiler struct {
	n    *nfa
	memo map[string]int32
	key  []byte
	// budget bounds the compiled size in bytes (nfaSize): exceeding it
	// stops the compilation with errTooBig.
	budget int
	// size is the compiled size so far, in bytes.
	size int
}

var errTooBig = compiledSizeError{}

// Compiled sizes: what one state, one transition and one union branch take
// in memory. nfaSize is the sum over the states, computed as they are
// added, so the limit is checked against the program actually built.
const (
	nfaStateBytes = int(unsafe.Sizeof(nfaState{}))
	nfaTransBytes = int(unsafe.Sizeof(nfaTrans{}))
	nfaAltBytes   = int(unsafe.Sizeof(int32(0)))
)

// nfaSize is the compiled size of n in bytes, as the compiler counts it.
func nfaSize(n *nfa) int {
	size := 0
	for i := range n.states {
		size += stateBytes(&n.states[i])
	}
	return size
}

func stateBytes(s *nfaState) int {
	return nfaStateBytes + len(s.trans)*nfaTransBytes + len(s.alts)*nfaAltBytes
}

func compileNFA(h *syntax.Hir) (*nfa, error) {
	c := &nfaCompiler{n: &nfa{}, memo: map[string]int32{}, budget: compiledSizeLimit}
	c.n.match = c.add(nfaState{kind: nsMatch})
	start, err := c.compile(h, c.n.match)
	if err != nil {
		return nil, err
	}
	c.n.start = start
	for _, s := range c.n.states {
		if s.kind == nsLook {
			c.n.looks[s.look] = true
			c.n.hasLook = true
			if s.look.IsUnicodeWord() {
				c.n.hasUnicodeWord = true
			}
		}
	}
	return c.n, nil
}

func (c *nfaCompiler) add(s nfaState) int32 {
	c.size += stateBytes(&s)
	c.n.states = append(c.n.states, s)
	return int32(len(c.n.states) - 1)
}

func (c *nfaCompiler) compile(h *syntax.Hir, next int32) (int32, error) {
	if c.size > c.budget {
		return 0, errTooBig
	}
	switch h.Kind {
	case syntax.HirEmpty:
		return next, nil
	case syntax.HirLiteral:
		for i := len(h.Lit) - 1; i >= 0; i-- {
			next = c.sparse([]nfaTrans{{h.Lit[i], h.Lit[i], next}})
		}
		return next, nil
	case syntax.HirBytes:
		tr := make([]nfaTrans, len(h.Bcls))
		for i, r := range h.Bcls {
			tr[i] = nfaTrans{r.Lo, r.Hi, next}
		}
		return c.sparse(tr), nil
	case syntax.HirClass:
		return c.utf8Class(h.Cls, next), nil
	case syntax.HirLook:
		return c.add(nfaState{kind: nsLook, look: h.Look, next: next}), nil
	case syntax.HirConcat:
		for i := len(h.Subs) - 1; i >= 0; i-- {
			var err error
			if next, err = c.compile(h.Subs[i], next); err != nil {
				return 0, err
			}
		}
		return next, nil
	case syntax.HirAlt:
		alts := make([]int32, len(h.Subs))
		for i, s := range h.Subs {
			var err error
			if alts[i], err = c.compile(s, next); err != nil {
				return 0, err
			}
		}
		return c.add(nfaState{kind: nsUnion, alts: alts}), nil
	case syntax.HirRepeat:
		return c.repeat(h, next)
	}
	panic("search: unknown hir kind")
}

func (c *nfaCompiler) repeat(h *syntax.Hir, next int32) (int32, error) {
	sub := h.Subs[0]
	t := next
	copies := h.Min
	if h.Max == syntax.RepeatInf {
		u := c.add(nfaState{kind: nsUnion})
		body, err := c.compile(sub, u)
		if err != nil {
			return 0, err
		}
		c.n.states[u].alts = []int32{body, next}
		c.size += 2 * nfaAltBytes
		if h.Min == 0 {
			return u, nil
		}
		t = body
		copies = h.Min - 1
	} else {
		for i := h.Min; i < h.Max; i++ {
			body, err := c.compile(sub, t)
			if err != nil {
				return 0, err
			}
			t = c.add(nfaState{kind: nsUnion, alts: []int32{body, next}})
			if c.size > c.budget {
				return 0, errTooBig
			}
		}
	}
	for i := uint32(0); i < copies; i++ {
		var err error
		if t, err = c.compile(sub, t); err != nil {
			return 0, err
		}
	}
	return t, nil
}

// sparse returns a state with the given transitions, sharing an existing
// identical state (suffix sharing keeps UTF-8 automata small).
func (c *nfaCompiler) sparse(tr []nfaTrans) int32 {
	c.key = c.key[:0]
	for _, t := range tr {
		c.key = append(c.key, t.lo, t.hi)
		c.key = binary.LittleEndian.AppendUint32(c.key, uint32(t.next))
	}
	if id, ok := c.memo[string(c.key)]; ok {
		return id
	}
	id := c.add(nfaState{kind: nsSparse, trans: tr})
	c.memo[string(c.key)] = id
	return id
}

type utf8Node struct {
	kids []utf8Kid
}

type utf8Kid struct {
	lo, hi byte
	node   *utf8Node // nil: last byte of a sequence
}

func (c *nfaCompiler) utf8Class(cls syntax.RuneClass, next int32) int32 {
	if w := syntax.PerlWord(); len(cls) == len(w) && len(w) > 0 && &cls[0] == &w[0] {
		return c.utf8Node(wordTrie(), next)
	}
	return c.utf8Node(trieOf(cls), next)
}

// wordTrie is the UTF-8 trie of \w (syntax.PerlWord), the class most
// patterns hold and the longest to cut into byte sequences: built once,
// then only read.
var wordTrie = sync.OnceValue(func() *utf8Node { return trieOf(syntax.PerlWord()) })

// trieOf returns the trie of the UTF-8 byte sequences of cls.
func trieOf(cls syntax.RuneClass) *utf8Node {
	root := &utf8Node{}
	syntax.UTF8Sequences(cls, func(seq []syntax.ByteRange) {
		n := root
		for j, br := range seq {
			last := j == len(seq)-1
			if k := len(n.kids); k > 0 && n.kids[k-1].lo == br.Lo && n.kids[k-1].hi == br.Hi && !last && n.kids[k-1].node != nil {
				n = n.kids[k-1].node
				continue
			}
			kid := utf8Kid{lo: br.Lo, hi: br.Hi}
			if !last {
				kid.node = &utf8Node{}
			}
			n.kids = append(n.kids, kid)
			n = kid.node
		}
	})
	return root
}

func (c *nfaCompiler) utf8Node(n *utf8Node, next int32) int32 {
	tr := make([]nfaTrans, len(n.kids))
	for i, k := range n.kids {
		t := next
		if k.node != nil {
			t = c.utf8Node(k.node, next)
		}
		tr[i] = nfaTrans{k.lo, k.hi, t}
	}
	return c.sparse(tr)
}

// ---- simulation ----

// lookCtx answers assertions at a position of a haystack with the exact
// Unicode semantics (invalid UTF-8 is never a word character).
func lookHolds(k syntax.LookKind, hay []byte, at int) bool {
	switch k {
	case syntax.LookStart:
		return at == 0
	case syntax.LookEnd:
		return at == len(hay)
	case syntax.LookStartLF:
		return at == 0 || hay[at-1] == '\n'
	case syntax.LookEndLF:
		return at == len(hay) || hay[at] == '\n'
	case syntax.LookStartCRLF:
		return at == 0 || hay[at-1] == '\n' || hay[at-1] == '\r' && (at >= len(hay) || hay[at] != '\n')
	case syntax.LookEndCRLF:
		return at == len(hay) || hay[at] == '\r' || hay[at] == '\n' && (at == 0 || hay[at-1] != '\r')
	}
	var before, after bool
	if k.IsUnicodeWord() {
		if at > 0 {
			r, size := utf8.DecodeLastRune(hay[:at])
			before = !(r == utf8.RuneError && size <= 1) && syntax.IsWordRune(r)
		}
		if at < len(hay) {
			r, size := utf8.DecodeRune(hay[at:])
			after = !(r == utf8.RuneError && size <= 1) && syntax.IsWordRune(r)
		}
	} else {
		before = at > 0 && syntax.IsWordByte(hay[at-1])
		after = at < len(hay) && syntax.IsWordByte(hay[at])
	}
	switch k {
	case syntax.LookWordASCII, syntax.LookWordUnicode:
		return before != after
	case syntax.LookWordASCIINegate, syntax.LookWordUnicodeNegate:
		return before == after
	case syntax.LookWordStartASCII, syntax.LookWordStartUnicode:
		return !before && after
	case syntax.LookWordEndASCII, syntax.LookWordEndUnicode:
		return before && !after
	case syntax.LookWordStartHalfASCII, syntax.LookWordStartHalfUnicode:
		return !before
	}
	return !after
}

// sparseSet is a set of state ids with O(1) insert, test and clear.
type sparseSet struct {
	dense  []int32
	sparse []int32
}

func newSparseSet(n int) sparseSet {
	return sparseSet{dense: make([]int32, 0, n), sparse: make([]int32, n)}
}

func (s *sparseSet) has(id int32) bool {
	i := s.sparse[id]
	return int(i) < len(s.dense) && s.dense[i] == id
}

func (s *sparseSet) insert(id int32) bool {
	if s.has(id) {
		return false
	}
	s.sparse[id] = int32(len(s.dense))
	s.dense = append(s.dense, id)
	return true
}

func (s *sparseSet) clear() { s.dense = s.dense[:0] }

// nfaSim holds the scratch space of one simulation.
type nfaSim struct {
	cur, next sparseSet
	stack     []int32
	// work counts the threads stepped since the last reset; past
	// nfaWorkBudget the simulation gives up and sets over.
	work int
	over bool
	// tok, when not nil, is the search's cancel token, looked at on every
	// byte stepped (Poll every 256): once it stopped the simulation returns
	// false (the caller looks at the token), so that one long line cannot
	// hold a cancelled search.
	tok *cancel.Token
}

// nfaWorkBudget bounds the NFA simulation in one search (one file): the sum
// over the bytes examined of the threads alive there. Ordinary patterns
// keep a few threads alive per byte (a 4 MiB file costs a few million, the
// budget allows 8 per byte on average);
// only patterns with tens of thousands of live threads (a?{50000}a{50000},
// [ab]{25000}) reach it, in about a second. Past it the search fails with a
// *BudgetError rather than run for minutes.
const nfaWorkBudget = 1 << 25

func (sim *nfaSim) resetWork() { sim.work, sim.over = 0, false }

func (n *nfa) newSim() *nfaSim {
	return &nfaSim{cur: newSparseSet(len(n.states)), next: newSparseSet(len(n.states))}
}

// addClosure adds id and everything reachable from it without consuming
// input at position at of hay to set.
func (n *nfa) addClosure(sim *nfaSim, set *sparseSet, id int32, hay []byte, at int) {
	sim.stack = append(sim.stack[:0], id)
	for len(sim.stack) > 0 {
		id := sim.stack[len(sim.stack)-1]
		sim.stack = sim.stack[:len(sim.stack)-1]
		if !set.insert(id) {
			continue
		}
		st := &n.states[id]
		switch st.kind {
		case nsUnion:
			for i := len(st.alts) - 1; i >= 0; i-- {
				sim.stack = append(sim.stack, st.alts[i])
			}
		case nsLook:
			if lookHolds(st.look, hay, at) {
				sim.stack = append(sim.stack, st.next)
			}
		}
	}
}

// simulate reports whether the pattern matches anywhere in hay.
func (n *nfa) simulate(sim *nfaSim, hay []byte) bool {
	return n.simulateFrom(sim, hay, 0, nil)
}

// simulateFrom continues a search at position at of hay with the threads
// of set (the NFA states of the DFA state reached there).
func (n *nfa) simulateFrom(sim *nfaSim, hay []byte, at int, set []int32) bool {
	sim.cur.clear()
	for _, id := range set {
		n.addClosure(sim, &sim.cur, id, hay, at)
	}
	for ; ; at++ {
		n.addClosure(sim, &sim.cur, n.start, hay, at)
		if sim.cur.has(n.match) {
			return true
		}
		if at >= len(hay) {
			return false
		}
		if sim.work += len(sim.cur.dense); sim.work > nfaWorkBudget {
			sim.over = true
			return false
		}
		if at&255 == 0 && sim.tok.Poll() || sim.tok.Stopped() {
			return false
		}
		b := hay[at]
		sim.next.clear()
		for _, id := range sim.cur.dense {
			st := &n.states[id]
			if st.kind != nsSparse {
				continue
			}
			for _, t := range st.trans {
				if t.lo <= b && b <= t.hi {
					n.addClosure(sim, &sim.next, t.next, hay, at+1)
				}
			}
		}
		sim.cur, sim.next = sim.next, sim.cur
	}
}
