package regex

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

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
	_, err = scanLines(m, data, nil)
	el := time.Since(start)
	var be *BudgetError
	if !errors.As(err, &be) || be.Limit != btFileBudgetText || be.Line >= 100_000 {
		t.Fatalf("got %v after %v", err, el)
	}
	t.Logf("%v after %v", err, el)
}

// TestPCREEmptyPosixClassNoPanic: "[:]" inside a bracket class of a pattern
// that the backtracking engine runs names no POSIX class; it once sliced
// out of range and panicked in Compile.
func TestPCREEmptyPosixClassNoPanic(t *testing.T) {
	for _, p := range []string{`(?=a)[x[:]]`, `(?=a)[[:]x]`, `\1[[:]`, `(?<=b)[[:]`, `(a)\1[[:alpha:][:]]`} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("Compile(%q) panicked: %v", p, r)
				}
			}()
			Compile(Options{Pattern: p})
		}()
	}
}

// TestBacktrackLineBudgetRetries: a timeout reported before the budget
// elapsed (regexp2's clock read stale on a busy machine) is retried, and
// the line's answer is the retry's; a line reported over budget again and
// again quickly is given up after btAttempts attempts.
func TestBacktrackLineBudgetRetries(t *testing.T) {
	m, err := Compile(Options{Pattern: `a(?=b)`})
	if err != nil {
		t.Fatal(err)
	}
	bt := m.bt
	calls := 0
	bt.attempt = func(s string) (bool, error) {
		calls++
		if calls == 1 {
			return false, errors.New("match timeout")
		}
		return bt.re.MatchString(s)
	}
	if ok, err := bt.match([]byte("xab")); !ok || err != nil || calls != 2 {
		t.Fatalf("spurious timeout: got %v, %v after %d attempts; want a match after 2", ok, err, calls)
	}
	calls = 0
	bt.attempt = func(string) (bool, error) { calls++; return false, errors.New("match timeout") }
	if _, err := bt.match([]byte("xab")); err != errBudget || calls != btAttempts {
		t.Fatalf("timeouts every time: got %v after %d attempts; want errBudget after %d", err, calls, btAttempts)
	}
}

// TestBacktrackLineBudgetReal: a line that really takes longer than the
// budget ends in errBudget, after a second attempt (two, unless regexp2's
// clock read stale again on a busy machine: then at most btAttempts).
func TestBacktrackLineBudgetReal(t *testing.T) {
	m, err := Compile(Options{Pattern: `(?=(a*)*b)`})
	if err != nil {
		t.Fatal(err)
	}
	bt := m.bt
	bt.budget = 20 * time.Millisecond
	bt.re.MatchTimeout = bt.budget
	calls := 0
	bt.attempt = func(s string) (bool, error) { calls++; return bt.re.MatchString(s) }
	line := bytes.Repeat([]byte("a"), 40)
	start := time.Now()
	if _, err := bt.match(line); err != errBudget || calls < 2 || calls > btAttempts {
		t.Fatalf("got %v after %d attempts (%v); want errBudget after 2 to %d", err, calls, time.Since(start), btAttempts)
	}
}
