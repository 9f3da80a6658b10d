package regex

import (
	"bytes"
	"encoding/binary"
	"slices"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/regex/syntax"
)

// A lazy DFA over the NFA, built on demand one transition at a time and
// cached per goroutine (dfaCache values come from a sync.Pool in the
// Regexp). It answers "is there a match" in a single pass over the input
// at about one table lookup per byte.
//
// A DFA state is the set of NFA states reached at a position, before the
// assertions there are resolved, plus what is known of the previous byte.
// The transition on byte b first resolves the assertions (b is the next
// byte), then steps. Unicode word boundaries are only resolved on ASCII
// input: a non-ASCII byte makes the DFA quit when the pattern has one, and
// the caller falls back to the NFA simulation, exactly like Rust's lazy DFA.
//
// In line mode ('\n' separates independent haystacks) the transition on
// '\n' checks the end of the line and moves to the start state.

const (
	dfaUnknown int32 = -1
	dfaMatch   int32 = -2
	dfaQuit    int32 = -3
	dfaNoMatch int32 = -4 // end of input without a match
	dfaDead    int32 = -5 // no match can follow in this haystack
)

const (
	fStart uint8 = 1 << iota
	fPrevNL
	fPrevCR
	fPrevWord
)

// dfaMaxTrans bounds the transition table of one cache (entries).
const dfaMaxTrans = 1 << 19

// dfaMaxSetEntries bounds the NFA state ids held by the states of one cache
// (4 bytes each): with the transition table, a cache stays under about
// 10 MiB whatever the pattern and the input. A full cache is cleared and
// rebuilt from the current state; a cache cleared too often for the bytes
// it searched gives up and the NFA simulation takes over (Rust's lazy DFA).
const dfaMaxSetEntries = 1 << 21

type dfaShared struct {
	n          *nfa
	lineMode   bool
	classOf    [256]uint8
	numClasses int // byte classes; the end-of-input class is numClasses
	stride     int
	repr       []int
	quit       []bool
	flagMask   uint8
	// anchored: the pattern can only match at the start of a haystack, so
	// the search does not restart at every position and can die.
	anchored bool
}

func newDFAShared(n *nfa, lineMode bool) *dfaShared {
	sh := &dfaShared{n: n, lineMode: lineMode}
	var bound [257]bool
	mark := func(lo, hi int) { bound[lo] = true; bound[hi+1] = true }
	for _, s := range n.states {
		for _, t := range s.trans {
			mark(int(t.lo), int(t.hi))
		}
	}
	mark('\n', '\n')
	needWord, needNL, needCR, needStart := false, false, false, false
	for k := syntax.LookKind(0); k < syntax.NumLooks; k++ {
		if !n.looks[k] {
			continue
		}
		switch k {
		case syntax.LookStart:
			needStart = true
		case syntax.LookEnd:
		case syntax.LookStartLF, syntax.LookEndLF:
			needStart, needNL = true, true
		case syntax.LookStartCRLF, syntax.LookEndCRLF:
			needStart, needNL, needCR = true, true, true
		default:
			needWord = true
		}
	}
	if needCR {
		mark('\r', '\r')
	}
	if needWord {
		mark('0', '9')
		mark('A', 'Z')
		mark('_', '_')
		mark('a', 'z')
	}
	quitNonASCII := n.hasUnicodeWord
	if quitNonASCII {
		mark(0x80, 0xFF)
	}
	if needStart {
		sh.flagMask |= fStart
	}
	if needNL && !lineMode {
		sh.flagMask |= fPrevNL
	}
	if needCR {
		sh.flagMask |= fPrevCR
	}
	if needWord {
		sh.flagMask |= fPrevWord
	}
	cls := -1
	for b := 0; b < 256; b++ {
		if b == 0 || bound[b] {
			cls++
			sh.repr = append(sh.repr, b)
			sh.quit = append(sh.quit, quitNonASCII && b >= 0x80)
		}
		sh.classOf[b] = uint8(cls)
	}
	sh.numClasses = cls + 1
	sh.stride = sh.numClasses + 1
	sh.repr = append(sh.repr, -1)
	sh.quit = append(sh.quit, false)
	sh.anchored = isAnchored(n, lineMode)
	return sh
}

// isAnchored reports whether every way out of the NFA's start goes through
// an assertion that only holds at the start of the haystack.
func isAnchored(n *nfa, lineMode bool) bool {
	seen := map[int32]bool{}
	stack := []int32{n.start}
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[id] {
			continue
		}
		seen[id] = true
		st := &n.states[id]
		switch st.kind {
		case nsUnion:
			stack = append(stack, st.alts...)
		case nsLook:
			if st.look != syntax.LookStart && !(lineMode && (st.look == syntax.LookStartLF || st.look == syntax.LookStartCRLF)) {
				return false
			}
		case nsSparse:
			if len(st.trans) > 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

type dfaCache struct {
	sh    *dfaShared
	trans []int32
	sets  [][]int32
	flags []uint8
	index map[string]int32
	start int32
	seen  sparseSet
	stack []int32
	buf   []int32
	key   []byte
	sim   *nfaSim
	// tok is the running search's cancel token (nil: none), also handed
	// to the NFA simulation: scan stops (evStop) once it stopped.
	tok    *cancel.Token
	badClr int
	// lastClear is the input offset (in bytes searched) of the last clear.
	searched, lastClear int
	// setEntries is the total length of sets.
	setEntries int
}

func newDFACache(sh *dfaShared) *dfaCache {
	d := &dfaCache{sh: sh, index: map[string]int32{}, seen: newSparseSet(len(sh.n.states))}
	d.reset()
	return d
}

func (d *dfaCache) reset() {
	d.trans = d.trans[:0]
	clear(d.sets)
	d.sets = d.sets[:0]
	d.flags = d.flags[:0]
	d.setEntries = 0
	clear(d.index)
	set := d.unionClosure([]int32{d.sh.n.start})
	d.start = d.addState(set, fStart&d.sh.flagMask)
}

func (d *dfaCache) addState(set []int32, fl uint8) int32 {
	d.key = append(d.key[:0], fl)
	for _, id := range set {
		d.key = binary.LittleEndian.AppendUint32(d.key, uint32(id))
	}
	if off, ok := d.index[string(d.key)]; ok {
		return off
	}
	off := int32(len(d.trans))
	for range d.sh.stride {
		d.trans = append(d.trans, dfaUnknown)
	}
	d.sets = append(d.sets, slices.Clone(set))
	d.setEntries += len(set)
	d.flags = append(d.flags, fl)
	d.index[string(d.key)] = off
	return off
}

// pop takes states off d.stack until one that d.seen has not had, adds
// it to d.seen and returns it; -1 when the stack runs out.
func (d *dfaCache) pop() int32 {
	for len(d.stack) > 0 {
		id := d.stack[len(d.stack)-1]
		d.stack = d.stack[:len(d.stack)-1]
		if d.seen.insert(id) {
			return id
		}
	}
	return -1
}

// unionClosure follows union states from ids and returns the sorted set of
// sparse, look and match states reached.
func (d *dfaCache) unionClosure(ids []int32) []int32 {
	n := d.sh.n
	d.seen.clear()
	d.buf = d.buf[:0]
	d.stack = append(d.stack[:0], ids...)
	for id := d.pop(); id >= 0; id = d.pop() {
		st := &n.states[id]
		switch st.kind {
		case nsUnion:
			d.stack = append(d.stack, st.alts...)
		case nsSparse:
			if len(st.trans) > 0 {
				d.buf = append(d.buf, id)
			}
		default:
			d.buf = append(d.buf, id)
		}
	}
	slices.Sort(d.buf)
	return d.buf
}

// lookHave computes which assertions hold between the previous byte
// (described by fl) and the next byte b (-1: end of haystack).
func lookHave(fl uint8, b int) (have [syntax.NumLooks]bool) {
	atStart := fl&fStart != 0
	prevNL := fl&fPrevNL != 0
	prevCR := fl&fPrevCR != 0
	before := fl&fPrevWord != 0
	eoi := b < 0
	after := !eoi && b < 0x80 && syntax.IsWordByte(byte(b))
	have[syntax.LookStart] = atStart
	have[syntax.LookEnd] = eoi
	have[syntax.LookStartLF] = atStart || prevNL
	have[syntax.LookEndLF] = eoi || b == '\n'
	have[syntax.LookStartCRLF] = atStart || prevNL || prevCR && b != '\n'
	have[syntax.LookEndCRLF] = eoi || b == '\r' || b == '\n' && !prevCR
	for _, k := range [2]syntax.LookKind{syntax.LookWordASCII, syntax.LookWordUnicode} {
		have[k] = before != after
		have[k+1] = before == after
	}
	have[syntax.LookWordStartASCII] = !before && after
	have[syntax.LookWordEndASCII] = before && !after
	have[syntax.LookWordStartUnicode] = !before && after
	have[syntax.LookWordEndUnicode] = before && !after
	have[syntax.LookWordStartHalfASCII] = !before
	have[syntax.LookWordEndHalfASCII] = !after
	have[syntax.LookWordStartHalfUnicode] = !before
	have[syntax.LookWordEndHalfUnicode] = !after
	return have
}

// compute fills in the transition of state s on class c. It may clear the
// cache, so it returns the (possibly moved) offset of s with the result.
func (d *dfaCache) compute(s int32, c int) (int32, int32) {
	sh := d.sh
	if sh.quit[c] {
		d.trans[int(s)+c] = dfaQuit
		return s, dfaQuit
	}
	if len(d.trans)+sh.stride > dfaMaxTrans || d.setEntries > dfaMaxSetEntries {
		s = d.clearKeeping(s)
	}
	b := sh.repr[c]
	lineEnd := b < 0 || sh.lineMode && b == '\n'
	next, matched := d.step(int(s)/sh.stride, b, lineEnd)
	var t int32
	switch {
	case matched:
		t = dfaMatch
	case b < 0:
		t = dfaNoMatch
	case lineEnd:
		t = d.start
	default:
		if !sh.anchored {
			next = append(next, sh.n.start)
		}
		set := d.unionClosure(next)
		if len(set) == 0 {
			t = dfaDead
			break
		}
		t = d.addState(set, prevByteFlags(b)&sh.flagMask)
	}
	d.trans[int(s)+c] = t
	return s, t
}

// clearKeeping clears the cache, which is full, and adds state s back: it
// returns the new offset of s. A clear that comes after fewer bytes
// searched than ten per state the cache held counts in badClr.
func (d *dfaCache) clearKeeping(s int32) int32 {
	idx := int(s) / d.sh.stride
	set := slices.Clone(d.sets[idx])
	fl := d.flags[idx]
	if d.searched-d.lastClear < 10*len(d.sets) {
		d.badClr++
	}
	d.lastClear = d.searched
	d.reset()
	return d.addState(set, fl)
}

// step resolves the assertions of the state at index idx before the byte
// b (-1: the end of input; lineEnd: b ends the haystack, and no NFA state
// steps on it), then steps the NFA states of the result on b. It returns
// the NFA states reached and whether a match state was met.
func (d *dfaCache) step(idx, b int, lineEnd bool) (next []int32, matched bool) {
	n := d.sh.n
	nb := b
	if lineEnd {
		nb = -1
	}
	have := lookHave(d.flags[idx], nb)
	d.seen.clear()
	d.stack = append(d.stack[:0], d.sets[idx]...)
	for id := d.pop(); id >= 0; id = d.pop() {
		st := &n.states[id]
		switch st.kind {
		case nsUnion:
			d.stack = append(d.stack, st.alts...)
		case nsLook:
			if have[st.look] {
				d.stack = append(d.stack, st.next)
			}
		case nsMatch:
			matched = true
		case nsSparse:
			if !lineEnd {
				for _, t := range st.trans {
					if int(t.lo) <= b && b <= int(t.hi) {
						next = append(next, t.next)
					}
				}
			}
		}
	}
	return next, matched
}

// prevByteFlags returns what a state entered on byte b records of it for
// the assertions after it (before flagMask keeps those the pattern needs).
func prevByteFlags(b int) uint8 {
	var fl uint8
	if b == '\n' {
		fl |= fPrevNL
	}
	if b == '\r' {
		fl |= fPrevCR
	}
	if b < 0x80 && syntax.IsWordByte(byte(b)) {
		fl |= fPrevWord
	}
	return fl
}

type scanEvent uint8

const (
	evEnd scanEvent = iota
	evMatch
	evQuit
	evGaveUp
	evDead
	// evStop: the cancel token stopped.
	evStop
)

// scanChunk is how many bytes the DFA scans between two looks at the cancel
// token when it builds no state (a few tens of microseconds; the race
// detector makes it about a millisecond).
const scanChunk = 1 << 16

// scan runs the DFA from state s over data[i:end] and stops at the first
// match (the position where it is detected), quit, or at end; or, once the
// cancel token stopped, at a state it builds or at a chunk's end (evStop).
func (d *dfaCache) scan(data []byte, i, end int, s int32) (scanEvent, int, int32) {
	trans := d.trans
	cls := &d.sh.classOf
	for {
		lim := end
		if d.tok != nil && end-i > scanChunk {
			lim = i + scanChunk
		}
		var j int
		j, s = walk(trans, cls, data[i:lim], s)
		i += j
		d.searched += j
		if i >= lim {
			if i >= end {
				return evEnd, i, s
			}
			if d.tok.Poll() {
				return evStop, i, s
			}
			continue
		}
		t := trans[int(s)+int(cls[data[i]])]
		if t == dfaUnknown {
			if d.tok.Poll() {
				return evStop, i, s
			}
			s, t = d.compute(s, int(cls[data[i]]))
			trans = d.trans
			if d.badClr >= 3 {
				return evGaveUp, i, s
			}
		}
		switch {
		case t >= 0:
			s = t
			i++
			d.searched++
		case t == dfaMatch:
			return evMatch, i, s
		case t == dfaDead:
			return evDead, i, s
		default:
			return evQuit, i, s
		}
	}
}

// walk is scan's hot loop: it follows the transitions trans from state s
// over hay, the bytes mapped to their classes by cls, while they lead to
// ordinary states. It returns how many bytes it consumed and the state
// reached: at the end of hay, or before the first byte whose transition
// is special (unknown, match, quit, dead).
func walk(trans []int32, cls *[256]uint8, hay []byte, s int32) (int, int32) {
	j := 0
	// Four transitions per iteration while no special state shows up.
	for ; j+4 <= len(hay); j += 4 {
		t0 := trans[int(s)+int(cls[hay[j]])]
		if t0 < 0 {
			break
		}
		t1 := trans[int(t0)+int(cls[hay[j+1]])]
		if t1 < 0 {
			s = t0
			j++
			break
		}
		t2 := trans[int(t1)+int(cls[hay[j+2]])]
		if t2 < 0 {
			s = t1
			j += 2
			break
		}
		t3 := trans[int(t2)+int(cls[hay[j+3]])]
		if t3 < 0 {
			s = t2
			j += 3
			break
		}
		s = t3
	}
	for ; j < len(hay); j++ {
		t := trans[int(s)+int(cls[hay[j]])]
		if t < 0 {
			break
		}
		s = t
	}
	return j, s
}

// eoi reports whether state s matches at the end of the haystack.
func (d *dfaCache) eoi(s int32) bool {
	c := d.sh.numClasses
	t := d.trans[int(s)+c]
	if t == dfaUnknown {
		_, t = d.compute(s, c)
	}
	return t == dfaMatch
}

func (d *dfaCache) nfaSim() *nfaSim {
	if d.sim == nil {
		d.sim = d.sh.n.newSim()
	}
	d.sim.tok = d.tok
	return d.sim
}

// matchHaystack reports whether the pattern matches in hay, a whole line
// in line mode (no '\n' inside) or a whole buffer.
func (d *dfaCache) matchHaystack(hay []byte) bool {
	if d.badClr >= 3 {
		return d.sh.n.simulate(d.nfaSim(), hay)
	}
	ev, at, s := d.scan(hay, 0, len(hay), d.start)
	switch ev {
	case evMatch:
		return true
	case evEnd:
		return d.eoi(s)
	case evDead, evStop:
		return false // (evStop: the caller looks at the token)
	case evQuit:
		// Go on with the NFA from where the DFA stopped.
		return d.sh.n.simulateFrom(d.nfaSim(), hay, at, d.sets[int(s)/d.sh.stride])
	}
	return d.sh.n.simulate(d.nfaSim(), hay)
}

// lineBounds returns the bounds of the line holding position at (a '\n' at
// at ends that line), searching back no further than pos.
func lineBounds(data []byte, pos, at int) (int, int) {
	ls := pos
	if i := bytes.LastIndexByte(data[pos:at], '\n'); i >= 0 {
		ls = pos + i + 1
	}
	le := len(data)
	if at < len(data) {
		if i := bytes.IndexByte(data[at:], '\n'); i >= 0 {
			le = at + i
		}
	}
	return ls, le
}
