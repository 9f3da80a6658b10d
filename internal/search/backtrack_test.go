package search

import (
	"bytes"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/cancel"
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

// TestBacktrackEngineChoice: only look-around and backreference
// rejections go to the backtracking engine; other rejections stay errors.
func TestBacktrackEngineChoice(t *testing.T) {
	for _, p := range []string{`foo(?=bar)`, `(?<!x)y`, `(?<=a)b`, `(?!x)`, `(\w+) \1`, `(?<n>\w) \k<n>`, `(?P<n>a)(?P=n)`, `(a)\g{1}`, `(a)\g1`} {
		m, err := Compile(Options{Pattern: p})
		if err != nil || m.bt == nil {
			t.Errorf("%q: want the backtracking engine, got %v", p, err)
		}
	}
	for _, p := range []string{`foo`, `\bfoo\b`, `(a)(b)`, `a{2}`} {
		m, err := Compile(Options{Pattern: p})
		if err != nil || m.bt != nil {
			t.Errorf("%q: want the Rust engine, got bt=%v err=%v", p, m != nil && m.bt != nil, err)
		}
	}
	for _, p := range []string{`(?=a)[`, `(?=a)\h`, `(?=a`, `a{2,1}(?=b)`, `\k`, `(?=a)a++`} {
		if _, err := Compile(Options{Pattern: p}); err == nil || !strings.HasPrefix(err.Error(), "Regex error: ") {
			t.Errorf("%q: want a Regex error, got %v", p, err)
		}
	}
}

// TestBacktrackPrefilter: the relaxed pattern finds candidate lines and
// drops look-around groups and backreferences.
func TestBacktrackPrefilter(t *testing.T) {
	for _, c := range []struct{ in, net, relaxed string }{
		{`foo(?=bar)`, `foo(?=bar)`, `foo(?:)`},
		{`(?<!x(y))z`, `(?<!x(y))z`, `(?:)z`},
		{`(\w+) \1`, `(\w+) \1`, `(\w+) (?s-u:.*)`},
		{`(?P<a>x)(?P=a)\k{a}\g{1}\g2`, `(?<a>x)\k<a>\k<a>\1\2`, `(?<a>x)(?s-u:.*)(?s-u:.*)(?s-u:.*)(?s-u:.*)`},
		{`[(?=]a(?=b)`, `[(?=]a(?=b)`, `[(?=]a(?:)`},
		{`\Qa.b\E(?=c)`, `a\.b(?=c)`, `a\.b(?:)`},
		{`[[:alpha:]](?=x)`, `[\p{L}](?=x)`, `[\p{L}](?:)`},
		{`(?x) a (?=b)`, `(?x) a (?=b)`, ``},
		{`a(?=b`, `a(?=b`, ``},
	} {
		net, relaxed := rewritePCRE(c.in)
		if net != c.net || relaxed != c.relaxed {
			t.Errorf("rewritePCRE(%q) = %q, %q; want %q, %q", c.in, net, relaxed, c.net, c.relaxed)
		}
	}
	m, err := Compile(Options{Pattern: `needle(?=x)`})
	if err != nil || m.bt.pre == nil || m.bt.pre.lineMode != modePure {
		t.Fatalf("want a literal prefilter, got %v", err)
	}
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
		var be *BudgetError
		if err != nil && !errors.As(err, &be) {
			t.Errorf("%q: unexpected error %v", p, err)
		}
		t.Logf("%-14q %v count=%d err=%v", p, el.Round(time.Millisecond), n, err)
	}
}

// TestBacktrackFileBudget: many lines each under the line budget end at
// the file budget (before the last line: fewer lines were matched than
// the file holds).
func TestBacktrackFileBudget(t *testing.T) {
	m, err := Compile(Options{Pattern: `(?=(a*)*b)`})
	if err != nil {
		t.Fatal(err)
	}
	// Lines of 12 letters take milliseconds each (tens under the race
	// detector): far from the line budget on any machine, while 100k of
	// them take minutes.
	data := bytes.Repeat(append(bytes.Repeat([]byte("a"), 12), '\n'), 100_000)
	start := time.Now()
	_, _, err = m.Search(data, -1, false, nil, nil)
	el := time.Since(start)
	var be *BudgetError
	if !errors.As(err, &be) || be.Limit != btFileBudgetText || be.Line >= 100_000 {
		t.Fatalf("got %v after %v", err, el)
	}
	t.Logf("%v after %v", err, el)
}

// TestBacktrackCancel: cancelling stops a backtracking search in the
// middle of one long run. Uncancelled, the run ends at the line budget
// (a *BudgetError); raised during the run, the flag must win: the search
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
