package search

import (
	"bytes"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/regex"
)

// TestBacktrackAnswers replays pi-natives 18.2.3's answers for look-around
// and backreferences (testdata/cases_backtrack.js -> backtrack.json).
func TestBacktrackAnswers(t *testing.T) {
	var cases []refCase
	for _, c := range loadRefCases(t, "testdata/backtrack.json") {
		if backtrackDifferences[c.Pattern] {
			if _, err := Compile(Options{Pattern: c.Pattern}); err == nil && c.Pattern != `(?<=\w+)b` {
				t.Errorf("%q: want a Regex error (documented difference)", c.Pattern)
			}
			continue
		}
		cases = append(cases, c)
	}
	replay(t, cases)
}

// backtrackDifferences are the recorded cases answered differently on
// purpose (docs/compat.md): 18.2.3 answers "no match" for a pattern PCRE2
// cannot compile, this package the Rust dialect's error; regexp2 has no
// possessive quantifiers and no \h.
var backtrackDifferences = map[string]bool{
	`\k<w>`:                          true, // no group named w
	`(?=[[:alpha:]])[[:alpha:]]+ \1`: true, // no group 1
	`(?=a)a++b`:                      true, // possessive quantifier
	`(?=h)hello(`:                    true, // unclosed group
	`(?=h)\h`:                        true, // \h
	`(?<=\w+)b`:                      true, // PCRE2: unbounded look-behind
}

// TestBacktrackBudget: a backreference over a 4 MiB one-letter line settles
// with an answer or a BudgetError (the budget bounds the run; the figures
// are logged, no time is asserted).
func TestBacktrackBudget(t *testing.T) {
	line := bytes.Repeat([]byte("a"), 4<<20)
	spaced := append(bytes.Repeat([]byte("a"), 4<<20-2), " b"...)
	for _, p := range []string{`(\w+) \1`, `(a+)+\1`, `(a+)+b(?=c)`, `(?=(a*)*b)`, `(\w+)\1$`, `(\w+) \1 `} {
		line := line
		if strings.Contains(p, " ") {
			line = spaced
		}
		m, err := Compile(Options{Pattern: p})
		if err != nil {
			t.Fatal(err)
		}
		tok := cancel.New(time.Time{}, nil)
		start := time.Now()
		_, n, err := m.Search(line, -1, true, nil, tok)
		el := time.Since(start)
		var be *regex.BudgetError
		if err != nil && !errors.As(err, &be) {
			t.Errorf("%q: unexpected error %v", p, err)
		}
		t.Logf("%-14q %v count=%d err=%v", p, el.Round(time.Millisecond), n, err)
	}
}

// TestBacktrackCancel: cancelling stops a backtracking search in the
// middle of one long run. Uncancelled, the run ends at the line budget
// (a *regex.BudgetError); raised during the run, the flag must win: the search
// returns the cancel error, having done less than the run's whole work.
func TestBacktrackCancel(t *testing.T) {
	m, err := Compile(Options{Pattern: `(?=(a*)*b)`})
	if err != nil {
		t.Fatal(err)
	}
	line := bytes.Repeat([]byte("a"), 4<<20)
	// The flag is raised at the token's 6th poll (6 PollPeriods at
	// least), well within the run's budget of a second.
	var polls atomic.Int32
	tok := cancel.New(time.Time{}, func() bool { return polls.Add(1) > 5 })
	defer tok.Release()
	start := time.Now()
	_, _, err = m.Search(line, -1, true, nil, tok)
	t.Logf("%v after %v", err, time.Since(start))
	if err != cancel.ErrSignal {
		t.Fatalf("got %v, want the cancel error", err)
	}
}
