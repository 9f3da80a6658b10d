package search

import (
	"bytes"
	"time"

	"github.com/fscache/fscache/internal/cancel"
)

// pollEvery is how many bytes of input the search loop examines between two
// looks at the cancel token (cancel.Token.Poll). The automata also look on
// their own: the lazy DFA at every state it builds and every scanChunk
// bytes, the NFA at every byte (and Poll every 256), the backtracking
// engine at every line.
const pollEvery = 1 << 16

// denseGap is the mean distance in bytes between prefilter candidates (over
// 64 of them) below which a prefiltered search hands the rest of the buffer
// to the automaton. Each candidate costs a memchr and the bounds of its line,
// then the required-literal checks and the automaton on that line only, so
// the prefilter keeps paying off with candidates far denser than one per 64
// bytes: the automaton also stops at every line it cannot match in. On
// repeated lines that all hold the prefilter's byte, for the regex
// `\w+_\w+\(` (BenchmarkDense*), a gap of 16 against 64 reads lines of 58
// bytes at 2.4 GB/s instead of 0.49, of 27 bytes at 1.2 instead of 0.49, of
// 19 bytes at 0.69 instead of 0.49; lines of 15 bytes or fewer switch with
// either (about 0.45-0.50 GB/s; on lines of 4 bytes the prefilter alone
// would read 0.20). Grep over Go's src with that regex: 98 -> 90 ms.
const denseGap = 16

// lineIter yields the matching lines of a buffer in order.
type lineIter struct {
	m    *Matcher
	st   *searchState
	data []byte
	mode searchMode

	pos   int   // next position to examine
	floor int   // start of the line holding pos
	s     int32 // DFA state at pos when mid is set
	mid   bool  // a DFA scan stopped in the middle of a line
	nfa   bool  // the DFA gave up: lines are checked by the NFA

	// Prefilter effectiveness.
	candidates, pfStart int

	// tok is the search's cancel token (nil: none). Its error, or a
	// budget's, is err, which ends the iteration. The backtracking engine
	// (modeBacktrack): inner finds candidate lines, tok is checked before
	// each run.
	tok     *cancel.Token
	inner   *lineIter
	err     error
	btStart time.Time
}

// next returns the next matching line [ls, le) starting at or after it.pos,
// examining input up to stop at least. found=false with done=false means
// it stopped at stop without a result and can be called again.
func (it *lineIter) next(stop int) (ls, le int, found, done bool) {
	data := it.data
	for {
		if it.pos >= len(data) {
			return 0, 0, false, true
		}
		switch it.mode {
		case modeBacktrack:
			return it.nextBacktrack(stop)
		case modeNever:
			return 0, 0, false, true
		case modeMatchAll:
			ls, le := it.pos, lineEnd(data, it.pos)
			it.advance(le)
			return ls, le, true, false
		case modePure, modePrefilter:
			c := it.st.mf.find(data, it.pos, stop)
			if c < 0 {
				if stop >= len(data) {
					return 0, 0, false, true
				}
				it.pos = stop
				return 0, 0, false, false
			}
			ls, le := lineBounds(data, it.floor, c)
			it.advance(le)
			if it.mode == modePure {
				return ls, le, true, false
			}
			it.candidates++
			if it.m.passesChecks(data[ls:le]) && it.st.dfa.matchHaystack(data[ls:le]) {
				return ls, le, true, false
			}
			if it.overBudget(ls) {
				return 0, 0, false, true
			}
			// Candidates too dense to pay off: let the automaton scan.
			if it.candidates >= 64 && (it.pos-it.pfStart)/it.candidates < denseGap {
				it.mode = modeDFA
			}
			if it.pos >= stop {
				return 0, 0, false, false
			}
		default:
			if it.nfa || it.m.forceNFA {
				ls, le := it.pos, lineEnd(data, it.pos)
				it.advance(le)
				if it.m.n.simulate(it.st.dfa.nfaSim(), data[ls:le]) {
					return ls, le, true, false
				}
				if it.overBudget(ls) {
					return 0, 0, false, true
				}
				if it.pos >= stop {
					return 0, 0, false, false
				}
				continue
			}
			d := it.st.dfa
			s := d.start
			if it.mid {
				s = it.s
			}
			ev, at, s := d.scan(data, it.pos, min(stop, len(data)), s)
			switch ev {
			case evEnd:
				if at < len(data) {
					it.pos, it.s, it.mid = at, s, true
					return 0, 0, false, false
				}
				it.mid = false
				it.pos = len(data)
				if data[len(data)-1] != '\n' && d.eoi(s) {
					ls, le := lineBounds(data, it.floor, len(data))
					return ls, le, true, false
				}
				return 0, 0, false, true
			case evMatch:
				ls, le := lineBounds(data, it.floor, at)
				it.advance(le)
				return ls, le, true, false
			case evQuit:
				// The DFA state is the NFA's at `at`: resume there.
				ls, le := lineBounds(data, it.floor, at)
				it.advance(le)
				if it.m.n.simulateFrom(d.nfaSim(), data[ls:le], at-ls, d.sets[int(s)/d.sh.stride]) {
					return ls, le, true, false
				}
				if it.overBudget(ls) {
					return 0, 0, false, true
				}
				if it.pos >= stop {
					// The line ran past the window.
					return 0, 0, false, false
				}
			case evDead:
				// Nothing can match in the rest of this line.
				it.advance(lineEnd(data, at))
				if it.pos >= stop {
					return 0, 0, false, false
				}
			case evGaveUp:
				ls, _ := lineBounds(data, it.floor, at)
				it.pos, it.floor, it.mid, it.nfa = ls, ls, false, true
			case evStop:
				it.err = it.tok.Err()
				return 0, 0, false, true
			}
		}
	}
}

// reset prepares the state for a new search under the cancel token tok.
func (st *searchState) reset(tok *cancel.Token) {
	st.dfa.badClr = 0
	st.dfa.tok = tok
	if st.dfa.sim != nil {
		st.dfa.sim.resetWork()
	}
	if st.mf != nil {
		st.mf.reset()
	}
}

// overBudget reports whether the search must stop after an automaton said
// no on the line starting at ls: the token stopped (the automaton may have
// stopped early) or the NFA simulation ran out of its budget. It sets it.err.
func (it *lineIter) overBudget(ls int) bool {
	if it.tok.Stopped() {
		it.err = it.tok.Err()
		return true
	}
	if sim := it.st.dfa.sim; sim != nil && sim.over {
		it.err = &BudgetError{Line: 1 + bytes.Count(it.data[:ls], []byte{'\n'}), Limit: nfaBudgetText}
		return true
	}
	return false
}

// advance moves past the line ending at le.
func (it *lineIter) advance(le int) {
	it.pos = le + 1
	it.floor = it.pos
	it.mid = false
}

func lineEnd(data []byte, pos int) int {
	if i := bytes.IndexByte(data[pos:], '\n'); i >= 0 {
		return pos + i
	}
	return len(data)
}

// Search collects the matching lines of data, one file's whole content, in
// order. With limit >= 0 it stops at the first match found after
// max(limit, 1) matches were collected; that match is counted but not
// returned (the reference's per-file cap: a file stops at the first match
// past its cap, which is still counted). The reference's single-file search
// behaves as a cap of max(maxCount, 1) + offset, in count mode too. With
// withLines false only the count is computed: no line or context strings
// are built and nothing is allocated per line. Matches are appended to
// dst[:0].
//
// tok, when not nil, is the search's cancel token, which the search polls
// as it goes (see pollEvery); once it stopped, its error ends the search
// and is returned with the matches found so far.
//
// A pattern on the backtracking engine (look-around, backreferences) can
// also fail with a *BudgetError: one line took longer than BacktrackBudget.
func (m *Matcher) Search(data []byte, limit int, withLines bool, dst []Match, tok *cancel.Token) (matches []Match, count int, err error) {
	if m.bt != nil && tok != nil {
		return m.searchBacktrack(data, limit, withLines, tok)
	}
	return m.search(data, limit, withLines, dst, tok)
}

func (m *Matcher) search(data []byte, limit int, withLines bool, dst []Match, tok *cancel.Token) (matches []Match, count int, err error) {
	st := m.pool.Get().(*searchState)
	defer m.pool.Put(st)
	it := lineIter{m: m, st: st, data: data, mode: m.lineMode, nfa: m.forceNFA, tok: tok}
	if m.bt != nil {
		if pre := m.bt.pre; pre != nil {
			pst := pre.pool.Get().(*searchState)
			defer pre.pool.Put(pst)
			pst.reset(tok)
			it.inner = &lineIter{m: pre, st: pst, data: data, mode: pre.lineMode, nfa: pre.forceNFA, tok: tok}
		}
	} else {
		st.reset(tok)
	}

	matches = dst[:0]
	capN := limit
	if capN == 0 {
		capN = 1
	}
	collected := 0
	before, after := 0, 0
	if withLines {
		before, after = max(m.opts.ContextBefore, 0), max(m.opts.ContextAfter, 0)
	}
	// Line numbers are counted incrementally.
	lnPos, lnNum := 0, 1
	lineNo := func(p int) int {
		lnNum += bytes.Count(data[lnPos:p], []byte{'\n'})
		lnPos = p
		return lnNum
	}
	emitted := 0      // start of the first line not yet reported
	pendingAfter := 0 // after-context lines still owed to the last match
	emitAfter := func(upto int) {
		for pendingAfter > 0 && emitted < upto && emitted < len(data) {
			le := lineEnd(data, emitted)
			line, _ := formatLine(data[emitted:le], m.maxCols, &st.scratch)
			last := &matches[len(matches)-1]
			last.ContextAfter = append(last.ContextAfter, ContextLine{LineNumber: lineNo(emitted), Line: line})
			emitted = le + 1
			pendingAfter--
		}
	}

	nextPoll := pollEvery
	stopAt := len(data)
	for {
		if nextPoll <= it.pos {
			// A match on a line longer than the window carried the scan
			// past it: the next window starts here.
			nextPoll = it.pos + pollEvery
		}
		stop := min(len(data), nextPoll)
		ls, le, found, done := it.next(stop)
		if !found {
			if done {
				if it.err != nil {
					return matches, count, it.err
				}
				break
			}
			if tok.Poll() {
				return matches, count, tok.Err()
			}
			nextPoll = it.pos + pollEvery
			continue
		}
		count++
		if limit >= 0 && collected >= capN {
			stopAt = ls
			break
		}
		collected++
		if withLines {
			emitAfter(ls)
			var ctx []ContextLine
			if before > 0 && ls > emitted {
				// Walk back at most `before` lines, not into reported ones.
				starts := [64]int{}
				var ss []int
				if before <= len(starts) {
					ss = starts[:0]
				}
				p := ls
				for k := 0; k < before && p > emitted; k++ {
					q := emitted
					if i := bytes.LastIndexByte(data[emitted:p-1], '\n'); i >= 0 {
						q = emitted + i + 1
					}
					ss = append(ss, q)
					p = q
				}
				ctx = make([]ContextLine, len(ss))
				first := lineNo(ss[len(ss)-1])
				for k := range ss {
					q := ss[len(ss)-1-k]
					line, _ := formatLine(data[q:lineEnd(data, q)], m.maxCols, &st.scratch)
					ctx[k] = ContextLine{LineNumber: first + k, Line: line}
				}
			}
			line, trunc := formatLine(data[ls:le], m.maxCols, &st.scratch)
			matches = append(matches, Match{LineNumber: lineNo(ls), Line: line, Truncated: trunc, ContextBefore: ctx})
			emitted = le + 1
			pendingAfter = after
		}
		if it.pos >= nextPoll {
			if tok.Poll() {
				return matches, count, tok.Err()
			}
			nextPoll = it.pos + pollEvery
		}
	}
	if withLines && len(matches) > 0 {
		// After-context of the last match runs up to the match that
		// stopped the search, if any, or the end of the data.
		emitAfter(stopAt)
	}
	return matches, count, nil
}
