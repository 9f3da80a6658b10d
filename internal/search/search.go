package search

import (
	"bytes"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/regex"
)

// pollEvery is how many bytes of input the search loop examines between two
// looks at the cancel token (cancel.Token.Poll). The automata of
// internal/regex also look on their own: the lazy DFA at every state it
// builds and every 64 KiB, the NFA at every byte (and Poll every 256), the backtracking
// engine at every line.
const pollEvery = 1 << 16

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
// also fail with a *regex.BudgetError: one line, or the whole file, took
// longer than that engine's budget.
func (m *Matcher) Search(data []byte, limit int, withLines bool, dst []Match, tok *cancel.Token) (matches []Match, count int, err error) {
	if m.re.Backtracks() && tok != nil {
		return m.searchBacktrack(data, limit, withLines, tok)
	}
	return m.search(data, limit, withLines, dst, tok)
}

func (m *Matcher) search(data []byte, limit int, withLines bool, dst []Match, tok *cancel.Token) (matches []Match, count int, err error) {
	var it regex.LineIter
	it.Start(m.re, data, tok)
	defer it.Close()
	// scratch holds a line with invalid UTF-8 while it is made valid.
	var scratch []byte

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
			line, _ := formatLine(data[emitted:le], m.maxCols, &scratch)
			last := &matches[len(matches)-1]
			last.ContextAfter = append(last.ContextAfter, ContextLine{LineNumber: lineNo(emitted), Line: line})
			emitted = le + 1
			pendingAfter--
		}
	}

	nextPoll := pollEvery
	stopAt := len(data)
	for {
		if nextPoll <= it.Pos() {
			// A match on a line longer than the window carried the scan
			// past it: the next window starts here.
			nextPoll = it.Pos() + pollEvery
		}
		stop := min(len(data), nextPoll)
		ls, le, found, done := it.Next(stop)
		if !found {
			if done {
				if err := it.Err(); err != nil {
					return matches, count, err
				}
				break
			}
			if tok.Poll() {
				return matches, count, tok.Err()
			}
			nextPoll = it.Pos() + pollEvery
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
					line, _ := formatLine(data[q:lineEnd(data, q)], m.maxCols, &scratch)
					ctx[k] = ContextLine{LineNumber: first + k, Line: line}
				}
			}
			line, trunc := formatLine(data[ls:le], m.maxCols, &scratch)
			matches = append(matches, Match{LineNumber: lineNo(ls), Line: line, Truncated: trunc, ContextBefore: ctx})
			emitted = le + 1
			pendingAfter = after
		}
		if it.Pos() >= nextPoll {
			if tok.Poll() {
				return matches, count, tok.Err()
			}
			nextPoll = it.Pos() + pollEvery
		}
	}
	if withLines && len(matches) > 0 {
		// After-context of the last match runs up to the match that
		// stopped the search, if any, or the end of the data.
		emitAfter(stopAt)
	}
	return matches, count, nil
}
