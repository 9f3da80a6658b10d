package search

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fscache/fscache/internal/regex"
)

// fuzzAgreeing is the alphabet of patterns on which the reference's dialect
// and Go's regexp agree about which ASCII lines match (no Unicode classes,
// no \s (Rust's has \v), no braces (escaped differently), no flags).
const fuzzAgreeing = "abc01 .*+?|()[]^$-\\bwdBWD"

// FuzzRegex compiles arbitrary patterns and searches arbitrary text: it
// must never panic or hang, a rejection is a "Regex error: ..." message,
// and on patterns and ASCII text where the dialects agree the matching
// lines are those Go's regexp finds. Patterns on the backtracking engine
// (look-around, backreferences) run too, within their budgets.
func FuzzRegex(f *testing.F) {
	for _, s := range []struct{ p, hay string }{
		{"a", "a\nb\n"},
		{"a|b", "ab\ncd\nb"},
		{"(a|ab)(c|bcd)", "abcd\nabc\n"},
		{`\bab\b`, "ab\nxab\nab cd\n"},
		{`^a*$`, "\naaa\naab\n"},
		{`[a-c]+0`, "abc0\nd0\n"},
		{`a.c`, "abc\na\nc\n"},
		{`\d\w`, "0a\na0\n"},
		{`foo(?=bar)`, "foobar\nfoobaz\n"},
		{`(\w+) \1`, "hello hello\nhello world\n"},
		{`(?<!x)y`, "xy\nay\n"},
		{`a{2,3}`, "aa\na\n"},
		{`\p{Greek}+`, "αβ\nab\n"},
		{`(?i)straße`, "STRASSE\nstraße\n"},
		{`[[:alpha:]]+\d`, "ab1\n12\n"},
		{`(a+)+$`, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaab\n"},
		{`x{1000}{1000}`, "x\n"},
		{"(", "(\n"},
		{`\`, "\\\n"},
	} {
		f.Add(s.p, []byte(s.hay))
	}
	f.Fuzz(func(t *testing.T, p string, hay []byte) {
		if len(p) > 1000 || len(hay) > 4096 {
			return
		}
		m, err := Compile(Options{Pattern: p})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "Regex error: ") {
				t.Fatalf("%q: error %q lacks the Regex error prefix", p, err)
			}
			return
		}
		ms, n, err := m.Search(hay, -1, true, nil, nil)
		if err != nil {
			if _, ok := err.(*regex.BudgetError); !ok {
				t.Fatalf("%q: unexpected search error %v", p, err)
			}
			return
		}
		if n != len(ms) {
			t.Fatalf("%q: count %d but %d matches", p, n, len(ms))
		}
		if has := m.HasMatch(hay); has != (n > 0) && len(hay) > 0 && !strings.ContainsAny(p, "\\\n^$") && !m.re.Backtracks() {
			// Buffer mode may span lines only through '\n' in a class or
			// an assertion; without those the answers agree.
			if !strings.ContainsAny(p, "[.") && !bytes.Contains(hay, []byte{'\r'}) {
				t.Fatalf("%q on %q: HasMatch %v, Search %d", p, hay, has, n)
			}
		}
		if m.re.Backtracks() || strings.Trim(p, fuzzAgreeing) != "" || !isASCIIText(hay) {
			return
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return
		}
		lines := bytes.Split(hay, []byte{'\n'})
		if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		var want []int
		for i, l := range lines {
			if re.Match(l) {
				want = append(want, i+1)
			}
		}
		var got []int
		for _, mt := range ms {
			got = append(got, mt.LineNumber)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q on %q: lines %v, Go's regexp %v", p, hay, got, want)
		}
	})
}

func isASCIIText(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 || c == '\r' || c == '\v' || c == 0 {
			return false
		}
	}
	return true
}
