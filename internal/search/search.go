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

// search is Search on the line iterator of internal/regex, in this
// goroutine.
func (m *Matcher) search(data []byte, limit int, withLines bool, dst []Match, tok *cancel.Token) (matches []Match, count int, err error) {
	var it regex.LineIter
	it.Start(m.re, data, tok)
	defer it.Close()
	c := collector{data: data, maxCols: m.maxCols, matches: dst[:0], lnNum: 1}
	if withLines {
		c.before, c.after = max(m.opts.ContextBefore, 0), max(m.opts.ContextAfter, 0)
	}
	capN := limit
	if capN == 0 {
		capN = 1
	}
	collected := 0
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
					return c.matches, count, err
				}
				break
			}
			if tok.Poll() {
				return c.matches, count, tok.Err()
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
			c.add(ls, le)
		}
		if it.Pos() >= nextPoll {
			if tok.Poll() {
				return c.matches, count, tok.Err()
			}
			nextPoll = it.Pos() + pollEvery
		}
	}
	if withLines && len(c.matches) > 0 {
		// After-context of the last match runs up to the match that
		// stopped the search, if any, or the end of the data.
		c.emitAfter(stopAt)
	}
	return c.matches, count, nil
}

// collector builds the Matches of a search with lines from its matching
// lines, in order: each line with the context lines before it, and the
// context lines after it up to the next match.
type collector struct {
	data          []byte
	maxCols       int // the Matcher's maxCols (< 0: lines are not cut)
	before, after int // context lines wanted before and after a match
	matches       []Match
	// scratch holds a line with invalid UTF-8 while it is made valid.
	scratch []byte
	// Line numbers are counted incrementally: lnPos starts line lnNum.
	lnPos, lnNum int
	emitted      int // start of the first line not yet reported
	pendingAfter int // after-context lines still owed to the last match
}

// lineNo returns the number of the line starting at p, at or after the
// last position asked.
func (c *collector) lineNo(p int) int {
	c.lnNum += bytes.Count(c.data[c.lnPos:p], []byte{'\n'})
	c.lnPos = p
	return c.lnNum
}

// add reports the matching line [ls, le): the after-context owed to the
// previous match first, then the line with its before-context.
func (c *collector) add(ls, le int) {
	c.emitAfter(ls)
	ctx := c.contextBefore(ls)
	line, trunc := formatLine(c.data[ls:le], c.maxCols, &c.scratch)
	c.matches = append(c.matches, Match{LineNumber: c.lineNo(ls), Line: line, Truncated: trunc, ContextBefore: ctx})
	c.emitted = le + 1
	c.pendingAfter = c.after
}

// emitAfter appends to the last match the after-context lines it is still
// owed that start before upto.
func (c *collector) emitAfter(upto int) {
	for c.pendingAfter > 0 && c.emitted < upto && c.emitted < len(c.data) {
		le := lineEnd(c.data, c.emitted)
		line, _ := formatLine(c.data[c.emitted:le], c.maxCols, &c.scratch)
		last := &c.matches[len(c.matches)-1]
		last.ContextAfter = append(last.ContextAfter, ContextLine{LineNumber: c.lineNo(c.emitted), Line: line})
		c.emitted = le + 1
		c.pendingAfter--
	}
}

// contextBefore returns the before-context of the matching line starting
// at ls: at most c.before lines, none of them already reported (nil when
// there are none).
func (c *collector) contextBefore(ls int) []ContextLine {
	if c.before <= 0 || ls <= c.emitted {
		return nil
	}
	data, emitted := c.data, c.emitted
	// Walk back at most `before` lines, not into reported ones.
	starts := [64]int{}
	var ss []int
	if c.before <= len(starts) {
		ss = starts[:0]
	}
	p := ls
	for k := 0; k < c.before && p > emitted; k++ {
		q := emitted
		if i := bytes.LastIndexByte(data[emitted:p-1], '\n'); i >= 0 {
			q = emitted + i + 1
		}
		ss = append(ss, q)
		p = q
	}
	ctx := make([]ContextLine, len(ss))
	first := c.lineNo(ss[len(ss)-1])
	for k := range ss {
		q := ss[len(ss)-1-k]
		line, _ := formatLine(data[q:lineEnd(data, q)], c.maxCols, &c.scratch)
		ctx[k] = ContextLine{LineNumber: first + k, Line: line}
	}
	return ctx
}
