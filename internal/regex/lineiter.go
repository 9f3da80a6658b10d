package regex

import (
	"bytes"
	"time"

	"github.com/fscache/fscache/internal/cancel"
)

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

// LineIter yields the lines of one buffer that hold a match of a Regexp,
// in order, each line a separate haystack: a line is [ls, le), le the
// index of its '\n' or the end of the buffer. Start it, call Next until it
// says done, then Close it. The line searcher (internal/search) drives it
// in windows, polling its cancel token between them.
type LineIter struct {
	m    *Regexp
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
	inner   *LineIter
	err     error
	btStart time.Time
}

// Next returns the next matching line [ls, le) starting at or after Pos,
// examining input up to stop at least. found=false with done=false means
// it stopped at stop without a result and can be called again.
func (it *LineIter) Next(stop int) (ls, le int, found, done bool) {
	if it.pos >= len(it.data) {
		return 0, 0, false, true
	}
	switch it.mode {
	case modeBacktrack:
		return it.nextBacktrack(stop)
	case modeNever:
		return 0, 0, false, true
	case modeMatchAll:
		ls, le := it.pos, lineEnd(it.data, it.pos)
		it.advance(le)
		return ls, le, true, false
	case modePure, modePrefilter:
		return it.nextCandidate(stop)
	}
	return it.nextAutomaton(stop)
}

// nextCandidate is Next for modePure and modePrefilter: the line of the
// prefilter's next candidate is the match under modePure; under
// modePrefilter it is one when the required literals and the DFA confirm
// it. Candidates too dense to pay off switch the iteration to modeDFA,
// and nextAutomaton goes on from there.
func (it *LineIter) nextCandidate(stop int) (ls, le int, found, done bool) {
	data := it.data
	for it.pos < len(data) {
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
		dense := it.candidates >= 64 && (it.pos-it.pfStart)/it.candidates < denseGap
		if dense {
			it.mode = modeDFA
		}
		if it.pos >= stop {
			return 0, 0, false, false
		}
		if dense {
			return it.nextAutomaton(stop)
		}
	}
	return 0, 0, false, true
}

// nextAutomaton is Next for modeDFA: the lazy DFA scans the input
// (nextDFA), or the NFA simulation checks it line by line (nextNFA) when
// the Regexp forces the NFA or the DFA gave up.
func (it *LineIter) nextAutomaton(stop int) (ls, le int, found, done bool) {
	if it.nfa || it.m.forceNFA {
		return it.nextNFA(stop)
	}
	return it.nextDFA(stop)
}

// nextNFA is Next with the NFA simulation: it runs on each line in turn.
func (it *LineIter) nextNFA(stop int) (ls, le int, found, done bool) {
	data := it.data
	for it.pos < len(data) {
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
	}
	return 0, 0, false, true
}

// nextDFA is Next with the lazy DFA: it scans the input up to stop, from
// the state a scan stopped in mid-line when there is one, and answers by
// the event that stopped the scan. Where the DFA quit, the NFA simulation
// checks the rest of the line; where it gave up, the NFA takes over the
// iteration (nextNFA) from the start of the line.
func (it *LineIter) nextDFA(stop int) (ls, le int, found, done bool) {
	data, d := it.data, it.st.dfa
	for it.pos < len(data) {
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
			return it.nextNFA(stop)
		case evStop:
			it.err = it.tok.Err()
			return 0, 0, false, true
		}
	}
	return 0, 0, false, true
}

// Start makes it iterate over the matching lines of data, one file's whole
// content, under the cancel token tok (nil: none): the automata poll it
// as they go, and once it stopped Next ends with its error in Err.
func (it *LineIter) Start(re *Regexp, data []byte, tok *cancel.Token) {
	st := re.pool.Get().(*searchState)
	*it = LineIter{m: re, st: st, data: data, mode: re.lineMode, nfa: re.forceNFA, tok: tok}
	if re.bt != nil {
		if pre := re.bt.pre; pre != nil {
			pst := pre.pool.Get().(*searchState)
			pst.reset(tok)
			it.inner = &LineIter{m: pre, st: pst, data: data, mode: pre.lineMode, nfa: pre.forceNFA, tok: tok}
		}
	} else {
		st.reset(tok)
	}
}

// Close gives the scratch of the iteration back to its Regexp.
func (it *LineIter) Close() {
	if in := it.inner; in != nil {
		in.m.pool.Put(in.st)
	}
	it.m.pool.Put(it.st)
	it.st, it.inner = nil, nil
}

// Pos is the position up to which the iteration examined the buffer.
func (it *LineIter) Pos() int { return it.pos }

// Err is the error that ended the iteration: the cancel token's, or a
// *BudgetError.
func (it *LineIter) Err() error { return it.err }

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
func (it *LineIter) overBudget(ls int) bool {
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
func (it *LineIter) advance(le int) {
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
