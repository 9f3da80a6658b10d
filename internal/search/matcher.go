package search

import (
	"bytes"
	"time"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/fence"
	"github.com/fscache/fscache/internal/regex"
)

// Options of one compiled search.
type Options struct {
	// Pattern is a regular expression in the reference's dialect (Rust's
	// regex crate).
	Pattern string
	// IgnoreCase makes the whole pattern case-insensitive (Unicode simple
	// case folding); (?-i) inside the pattern still turns it off.
	IgnoreCase bool
	// Multiline turns on (?m). Matches never span lines either way.
	Multiline bool
	// ContextBefore and ContextAfter are the context lines to report around
	// each matching line, already resolved by the caller.
	ContextBefore, ContextAfter int
	// MaxColumns, when HasMaxColumns is set, cuts reported lines (and
	// context lines) longer than MaxColumns bytes to MaxColumns-3 bytes
	// plus "..." at a character boundary. The reference's maxColumns: 0 is
	// HasMaxColumns with MaxColumns 0: every non-empty line becomes "...".
	MaxColumns    int
	HasMaxColumns bool
	// Raw (ours) reports lines as they are in the file, for a caller that
	// formats them itself from the bytes searched: not trimmed, each with
	// its terminating '\n' when it has one, never cut by MaxColumns
	// (ignored), invalid UTF-8 still replaced by U+FFFD (Match.Lossy says
	// so); each match has its own context lines, up to ContextBefore and
	// ContextAfter of them whatever the other matches (a line in the
	// context of two matches is reported with both, a matching line can be
	// another's context, and the after-context runs past a match that
	// stopped the search, to the end of the data); Match.CRBefore tells
	// whether a '\r' not followed by '\n' precedes the match's first line.
	Raw bool
}

// ContextLine is a line reported around a match.
type ContextLine struct {
	LineNumber int    `json:"lineNumber"`
	Line       string `json:"line"`
}

// Match is one matching line.
type Match struct {
	LineNumber    int
	Line          string
	Truncated     bool
	ContextBefore []ContextLine
	ContextAfter  []ContextLine
	// Lossy (Options.Raw only): the matching line held invalid UTF-8,
	// replaced by U+FFFD in Line.
	Lossy bool
	// CRBefore (Options.Raw only): the data holds a '\r' not followed by
	// '\n' before the first line reported with the match (its first
	// context line, else the matching line).
	CRBefore bool
}

// Matcher is a compiled search: a pattern (internal/regex) and how its
// lines are reported. It is immutable and safe for concurrent use by many
// goroutines.
type Matcher struct {
	re      *regex.Regexp
	opts    Options
	maxCols int
}

// Compile compiles o.Pattern. An invalid pattern yields a *regex.Error
// whose message starts with "Regex error:", as the reference's.
func Compile(o Options) (*Matcher, error) {
	re, err := regex.Compile(o.regexOptions())
	if err != nil {
		return nil, err
	}
	m := &Matcher{re: re, opts: o, maxCols: -1}
	if o.HasMaxColumns {
		m.maxCols = max(o.MaxColumns, 0)
	}
	return m, nil
}

func (o Options) regexOptions() regex.Options {
	return regex.Options{Pattern: o.Pattern, IgnoreCase: o.IgnoreCase, Multiline: o.Multiline}
}

// HasMatchCancel reports whether data contains a match of the pattern
// anywhere, looking at the raw bytes (matches may span lines here, as in
// the reference's filesWithMatches mode), with the cancel token of Search,
// whose error it returns once the token stopped. It fails too when the
// automaton simulation runs out of its budget, and a pattern on the
// backtracking engine with a *regex.BudgetError; that engine looks at the
// data line by line.
func (m *Matcher) HasMatchCancel(data []byte, tok *cancel.Token) (bool, error) {
	if m.re.Backtracks() {
		_, n, err := m.Search(data, 0, false, nil, tok)
		return n > 0 && err == nil, err
	}
	return m.re.HasMatch(data, tok)
}

// searchBacktrack runs Search on the backtracking engine in a goroutine of
// its own and polls tok meanwhile (Poll), every cancel.PollPeriod, so that a
// cancellation returns promptly even while one line is being matched (the
// abandoned run stops at the end of that line, within the line budget of the backtracking engine). The
// data is copied for the run, so the caller may reuse its buffer at once.
func (m *Matcher) searchBacktrack(data []byte, limit int, withLines bool, tok *cancel.Token) ([]Match, int, error) {
	type result struct {
		matches []Match
		count   int
		err     error
	}
	ch := make(chan result, 1)
	// The run may outlive this call: it gets its own copy of the data,
	// which the caller may reuse once the call returned.
	data = bytes.Clone(data)
	// A panic in the run is its error (*fence.Error), which ends the
	// caller's grep.
	fence.Go(fence.Matcher, func() {
		fence.Point(fence.Matcher)
		ms, n, err := m.search(data, limit, withLines, nil, tok)
		ch <- result{ms, n, err}
	}, func(err *fence.Error) { ch <- result{err: err} })
	tick := time.NewTicker(cancel.PollPeriod)
	defer tick.Stop()
	for {
		select {
		case r := <-ch:
			return r.matches, r.count, r.err
		case <-tick.C:
			if tok.Poll() {
				return nil, 0, tok.Err()
			}
		}
	}
}
