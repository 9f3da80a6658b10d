package search

import (
	"bytes"
	"unicode/utf8"

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
	c := collector{data: data, maxCols: m.maxCols, matches: dst[:0], lnNum: 1, raw: m.opts.Raw, loneCR: -2}
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
	// raw: Options.Raw (addRaw); loneCR is the position of the data's
	// first '\r' not followed by '\n' (-1: none, -2: not looked for).
	raw    bool
	loneCR int
}

// lineNo returns the number of the line starting at p. Positions asked
// in increasing order cost the bytes between them (a raw search's
// before-context goes back, as far as it reaches).
func (c *collector) lineNo(p int) int {
	if p >= c.lnPos {
		c.lnNum += bytes.Count(c.data[c.lnPos:p], []byte{'\n'})
	} else {
		c.lnNum -= bytes.Count(c.data[p:c.lnPos], []byte{'\n'})
	}
	c.lnPos = p
	return c.lnNum
}

// add reports the matching line [ls, le): the after-context owed to the
// previous match first, then the line with its before-context.
func (c *collector) add(ls, le int) {
	if c.raw {
		c.addRaw(ls, le)
		return
	}
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

// addRaw is add for a raw search (Options.Raw): the line [ls, le) as it
// is, with its own context lines whatever was reported before.
func (c *collector) addRaw(ls, le int) {
	data := c.data
	n := c.lineNo(ls)
	first := ls
	var before []ContextLine
	if c.before > 0 && ls > 0 {
		starts := [64]int{}
		ss := starts[:0]
		for p := ls; len(ss) < c.before && p > 0; {
			q := bytes.LastIndexByte(data[:p-1], '\n') + 1
			ss = append(ss, q)
			p = q
		}
		before = make([]ContextLine, len(ss))
		for k := range ss {
			q := ss[len(ss)-1-k]
			before[k] = ContextLine{LineNumber: n - len(ss) + k, Line: rawText(data[q:min(lineEnd(data, q)+1, len(data))], &c.scratch)}
		}
		first = ss[len(ss)-1]
	}
	line := data[ls:min(le+1, len(data))]
	m := Match{LineNumber: n, Line: rawText(line, &c.scratch), ContextBefore: before, Lossy: !utf8.Valid(line)}
	for e := le + 1; len(m.ContextAfter) < c.after && e < len(data); {
		end := lineEnd(data, e)
		m.ContextAfter = append(m.ContextAfter, ContextLine{LineNumber: n + 1 + len(m.ContextAfter), Line: rawText(data[e:min(end+1, len(data))], &c.scratch)})
		e = end + 1
	}
	if c.loneCR == -2 {
		c.loneCR = firstLoneCR(data)
	}
	m.CRBefore = c.loneCR >= 0 && c.loneCR < first
	c.matches = append(c.matches, m)
}

// rawText is the text of the bytes b of a line, invalid UTF-8 replaced
// (Rust's from_utf8_lossy).
func rawText(b []byte, scratch *[]byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	*scratch = appendLossy((*scratch)[:0], b)
	return string(*scratch)
}

// firstLoneCR returns the position of the first '\r' of data not followed
// by '\n', -1 when there is none.
func firstLoneCR(data []byte) int {
	for p := 0; ; {
		i := bytes.IndexByte(data[p:], '\r')
		if i < 0 {
			return -1
		}
		p += i
		if p+1 >= len(data) || data[p+1] != '\n' {
			return p
		}
		p += 2
	}
}
