package search

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
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
// well under the 5 s with an answer or a BudgetError.
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
		start := time.Now()
		_, n, err := m.Search(line, -1, true, nil, func() error { return nil })
		el := time.Since(start)
		var be *BudgetError
		if err != nil && !errors.As(err, &be) {
			t.Errorf("%q: unexpected error %v", p, err)
		}
		t.Logf("%-14q %v count=%d err=%v", p, el.Round(time.Millisecond), n, err)
		if bound := 5 * time.Second; el > bound && !raceEnabled || el > 3*bound {
			t.Errorf("%q took %v", p, el)
		}
	}
}

// TestBacktrackFileBudget: many lines each just under the line budget end
// at the file budget.
func TestBacktrackFileBudget(t *testing.T) {
	m, err := Compile(Options{Pattern: `(?=(a*)*b)`})
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat(append(bytes.Repeat([]byte("a"), 16), '\n'), 1000)
	start := time.Now()
	_, _, err = m.Search(data, -1, false, nil, nil)
	el := time.Since(start)
	var be *BudgetError
	if !errors.As(err, &be) || be.Limit != btFileBudgetText {
		t.Fatalf("got %v after %v", err, el)
	}
	t.Logf("%v after %v", err, el)
	if el > BacktrackFileBudget+2*BacktrackBudget+2*time.Second {
		t.Errorf("took %v", el)
	}
}

// TestBacktrackCancel: cancelling stops a backtracking search promptly
// even in the middle of one long run.
func TestBacktrackCancel(t *testing.T) {
	m, err := Compile(Options{Pattern: `(?=(a*)*b)`})
	if err != nil {
		t.Fatal(err)
	}
	line := bytes.Repeat([]byte("a"), 4<<20)
	errCancel := errors.New("Aborted: Timeout")
	deadline := time.Now().Add(20 * time.Millisecond)
	start := time.Now()
	_, _, err = m.Search(line, -1, true, nil, func() error {
		if time.Now().After(deadline) {
			return errCancel
		}
		return nil
	})
	el := time.Since(start)
	if err != errCancel {
		t.Fatalf("got %v, want the cancel error", err)
	}
	t.Logf("cancelled after %v", el)
	if el > 500*time.Millisecond {
		t.Errorf("cancellation took %v", el)
	}
}
