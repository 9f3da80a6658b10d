package regex

import (
	"bytes"
	"math/rand"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/cancel"
)

// patternGen builds random patterns. With goCompat it only uses syntax that
// means the same in Go's regexp on ASCII input, so Go can be the oracle.
type patternGen struct {
	r        *rand.Rand
	goCompat bool
}

var (
	compatAtoms = []string{"a", "b", "c", "ab", "ba", "A", "_", " ", "-", `\.`, `\w`, `\W`, `\d`, `\s`, `\S`, `\b`, `\B`,
		"^", "$", `\A`, `\z`, ".", "[ab]", "[^a]", "[a-c]", "[[:alpha:]]", `[\w-]`, "x", "k", "s", "[^ ]", `\(`, "(?i:ab)", "(?s:.)"}
	rustAtoms = []string{"é", "É", "ß", "日", "K", "ſ", "σ", "ς", `\pL`, `\p{Greek}`, `[é-ö]`, `\<`, `\>`, `(?-u:\w)`,
		`(?-u:\b)`, `(?-u:.)`, `[a&&[ab]]`, `[\w--\d]`, `\x{E9}`, `(?R:$)`, `(?mR:^)`, `\p{Lu}`, "(?i:ſ)", `(?i)é`}
)

func (g *patternGen) atom() string {
	if !g.goCompat && g.r.Intn(3) == 0 {
		return rustAtoms[g.r.Intn(len(rustAtoms))]
	}
	return compatAtoms[g.r.Intn(len(compatAtoms))]
}

func (g *patternGen) gen(depth int) string {
	if depth > 3 {
		return g.atom()
	}
	switch x := g.r.Intn(100); {
	case x < 35:
		return g.atom()
	case x < 55:
		var b strings.Builder
		for range 1 + g.r.Intn(4) {
			b.WriteString(g.gen(depth + 1))
		}
		return b.String()
	case x < 65:
		return "(" + g.gen(depth+1) + "|" + g.gen(depth+1) + ")"
	case x < 72:
		return "(?:" + g.gen(depth+1) + ")"
	case x < 77:
		return "(?i:" + g.gen(depth+1) + ")"
	case x < 80:
		return "(?m:" + g.gen(depth+1) + ")"
	}
	ops := []string{"?", "*", "+", "{2}", "{1,3}", "{0,2}", "??", "*?", "{2,}"}
	return "(?:" + g.gen(depth+1) + ")" + ops[g.r.Intn(len(ops))]
}

// randomText returns lines of random characters; non-ASCII only when
// ascii is false.
func randomText(r *rand.Rand, ascii bool, lines int) []byte {
	chars := []string{"a", "b", "c", "A", "B", "_", " ", "-", ".", "k", "s", "x", "1", "\t", "(", "K"}
	if !ascii {
		chars = append(chars, "é", "É", "ß", "日", "ſ", "σ", "ς", "Σ", "\u212a", "\xff", "\xc3", "\r")
	}
	var b bytes.Buffer
	for i := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		for range r.Intn(12) {
			b.WriteString(chars[r.Intn(len(chars))])
		}
	}
	if r.Intn(3) > 0 {
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// naiveLines checks every line separately with the NFA simulation.
func naiveLines(m *Regexp, data []byte) []int {
	var out []int
	sim := m.n.newSim()
	nl := bytes.Count(data, []byte{'\n'})
	for i, line := range bytes.Split(data, []byte{'\n'}) {
		if i == nl && len(line) == 0 {
			break // no line after a final newline
		}
		if m.n.simulate(sim, line) {
			out = append(out, i+1)
		}
	}
	return out
}

// TestRandomPathsAgree compares, on random patterns and inputs, the path
// Compile picked (literal prefilter, pure literal search or DFA) with the
// plain DFA, with the NFA simulation and with a naive line-by-line check.
func TestRandomPathsAgree(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	g := &patternGen{r: r}
	n := 1500
	if testing.Short() {
		n = 300
	}
	for i := range n {
		g.goCompat = i%2 == 0
		p := g.gen(0)
		o := Options{Pattern: p, IgnoreCase: r.Intn(5) == 0, Multiline: r.Intn(5) == 0}
		m, err := Compile(o)
		if err != nil {
			t.Fatalf("%q: %v", p, err)
		}
		data := randomText(r, g.goCompat && r.Intn(2) == 0, 1+r.Intn(20))
		got, _ := lineNumbers(t, m, data)

		dfa, _ := Compile(o)
		dfa.lineMode = modeDFA
		viaDFA, _ := lineNumbers(t, dfa, data)

		nfa, _ := Compile(o)
		nfa.lineMode, nfa.forceNFA = modeDFA, true
		viaNFA, _ := lineNumbers(t, nfa, data)

		naive := naiveLines(m, data)
		if !slices.Equal(got, viaDFA) || !slices.Equal(got, viaNFA) || !slices.Equal(got, naive) {
			t.Fatalf("%q (mode %d, %+v) on %q:\n planned %v\n dfa     %v\n nfa     %v\n naive   %v", p, m.lineMode, o, data, got, viaDFA, viaNFA, naive)
		}
		// The buffer-wide DFA against the simulation.
		if h, s := m.hasMatch(data), m.n.simulate(m.n.newSim(), data); h != s {
			t.Fatalf("%q HasMatch=%v, simulation=%v on %q", p, h, s, data)
		}
	}
}

// TestRandomAgainstGoRegexp uses Go's regexp as an independent oracle on
// ASCII input, where both dialects agree.
func TestRandomAgainstGoRegexp(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	g := &patternGen{r: r, goCompat: true}
	n := 2000
	if testing.Short() {
		n = 300
	}
	for range n {
		p := g.gen(0)
		ci, ml := r.Intn(4) == 0, r.Intn(4) == 0
		m, err := Compile(Options{Pattern: p, IgnoreCase: ci, Multiline: ml})
		if err != nil {
			t.Fatalf("%q: %v", p, err)
		}
		flags := ""
		if ci {
			flags += "i"
		}
		if ml {
			flags += "m"
		}
		gp := p
		if flags != "" {
			gp = "(?" + flags + ")" + p
		}
		re := regexp.MustCompile(gp)
		data := randomText(r, true, 1+r.Intn(20))
		got, _ := lineNumbers(t, m, data)
		var want []int
		nl := bytes.Count(data, []byte{'\n'})
		for i, line := range bytes.Split(data, []byte{'\n'}) {
			if i == nl && len(line) == 0 {
				break
			}
			if re.Match(line) {
				want = append(want, i+1)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q (ci=%v ml=%v, mode %d) on %q:\n got  %v\n want %v", p, ci, ml, m.lineMode, data, got, want)
		}
		if h, w := m.hasMatch(data), re.Match(data); h != w {
			t.Fatalf("%q HasMatch=%v, Go=%v on %q", gp, h, w, data)
		}
	}
}

// TestLargeInputsCrossPollWindows searches inputs of several MiB, so scans
// stop and resume at the cancellation polls, in every path.
func TestLargeInputsCrossPollWindows(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	var b bytes.Buffer
	for b.Len() < 3*pollWindow+12345 {
		b.Write(randomText(r, false, 50))
		b.WriteByte('\n')
		if r.Intn(50) == 0 {
			b.WriteString(strings.Repeat("x", 70000) + " needle_here(ab) " + strings.Repeat("y", 5000) + "\n")
		}
	}
	data := b.Bytes()
	for _, p := range []string{`needle`, `\w+_\w+\(`, `e_h`, `(?i)NEEDLE`, `x{3}\s`, `y\n`, `ab|needle`, `\bneedle\b`, `^\w`, `é$`} {
		m, err := Compile(Options{Pattern: p})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := lineNumbers(t, m, data)
		dfa, _ := Compile(Options{Pattern: p})
		dfa.lineMode = modeDFA
		viaDFA, _ := lineNumbers(t, dfa, data)
		naive := naiveLines(m, data)
		if !slices.Equal(got, naive) || !slices.Equal(viaDFA, naive) {
			t.Fatalf("%q: planned %d lines, dfa %d, naive %d", p, len(got), len(viaDFA), len(naive))
		}
		// A live token (the DFA then scans in chunks) changes nothing; a
		// stopped one ends every plan but modeNever with its error.
		live := cancel.New(time.Time{}, nil)
		withTok, err := scanLines(m, data, live)
		if err != nil || !slices.Equal(withTok, got) {
			t.Fatalf("%q: with a live token %d lines (err %v), without %d", p, len(withTok), err, len(got))
		}
		stopped := cancel.New(time.Time{}, nil)
		stopped.Stop(cancel.ErrSignal)
		if _, err := scanLines(m, data, stopped); err != cancel.ErrSignal && m.lineMode != modeNever {
			t.Fatalf("%q: with a stopped token: %v", p, err)
		}
	}
}

// TestDFACacheThrash uses a pattern whose DFA has millions of states: the
// cache is cleared again and again, then the search falls back to the NFA,
// and the answer must not change.
func TestDFACacheThrash(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	var b bytes.Buffer
	for range 40 {
		for range 5000 + r.Intn(5000) {
			b.WriteByte("ab"[r.Intn(2)])
		}
		if r.Intn(3) == 0 {
			b.WriteString("c")
		}
		b.WriteByte('\n')
	}
	data := b.Bytes()
	for _, p := range []string{`a[ab]{20}c`, `(?:a|b)*a[ab]{16}$`, `\ba[ab]{18}c`} {
		m, err := Compile(Options{Pattern: p})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := lineNumbers(t, m, data)
		if want := naiveLines(m, data); !slices.Equal(got, want) {
			t.Fatalf("%q: got %v, want %v", p, got, want)
		}
		if m.hasMatch(data) != m.n.simulate(m.n.newSim(), data) {
			t.Fatalf("%q: HasMatch differs", p)
		}
	}
}

// TestLongLinesPastPollWindows: matching lines and quitting lines much
// longer than the poll window, so that a scan ends past the window's end
// (a match's line, or a line the DFA hands to the NFA).
func TestLongLinesPastPollWindows(t *testing.T) {
	var b bytes.Buffer
	for i := 0; i < 6; i++ {
		b.WriteString("needle " + strings.Repeat("a", 3*pollWindow) + "\n")
		b.WriteString(strings.Repeat("b", pollWindow/3) + "\n")
	}
	data := b.Bytes()
	for _, p := range []string{`needle`, `^needle a`, `a\n?`, `(?i)NEEDLE\s+a`, `a[ab]{40}b`} {
		m, err := Compile(Options{Pattern: p})
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range []searchMode{m.lineMode, modeDFA} {
			m.lineMode = mode
			got, _ := lineNumbers(t, m, data)
			if naive := naiveLines(m, data); !slices.Equal(got, naive) {
				t.Fatalf("%q (mode %v): got lines %v, want %v", p, mode, got, naive)
			}
		}
	}
}
