package search

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/cancel"
)

// lines runs a search and returns the reported lines as "N:text".
func lines(t *testing.T, o Options, data string) []string {
	t.Helper()
	m, err := Compile(o)
	if err != nil {
		t.Fatalf("Compile(%q): %v", o.Pattern, err)
	}
	ms, n, err := m.Search([]byte(data), -1, true, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n != len(ms) {
		t.Fatalf("count %d, %d matches", n, len(ms))
	}
	out := []string{}
	for _, x := range ms {
		out = append(out, itoa(x.LineNumber)+":"+x.Line)
	}
	return out
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// The expectations below are the reference's answers (see testdata).
func TestDialect(t *testing.T) {
	ci := func(p string) Options { return Options{Pattern: p, IgnoreCase: true} }
	p := func(p string) Options { return Options{Pattern: p} }
	tests := []struct {
		name string
		o    Options
		data string
		want []string
	}{
		// Braces that cannot be a repetition are literal.
		{"template", p("${platform}"), "a ${platform} b\n", nil}, // `$` still anchors
		{"braces", p("interface X {}"), "interface X {}\n", []string{"1:interface X {}"}},
		{"repeat", p("a{2}"), "aa\na{2}\n", []string{"1:aa"}},
		{"open repeat", p("a{2,}"), "a\naaa\n", []string{"2:aaa"}},
		{"no min", p("a{,2}"), "aa\na{,2}\n", []string{"2:a{,2}"}},
		{"spaces", p("a{ 2 }"), "aa\na{ 2 }\n", []string{"2:a{ 2 }"}},
		{"hex brace", p(`\x{41}\u{42}`), "AB\n", []string{"1:AB"}},
		{"prop brace", p(`\p{Greek}{2}`), "αβ\nα\n", []string{"1:αβ"}},
		{"escaped after U", p(`x\U{41}`), "", nil},
		// Parentheses: one retry with literal parentheses.
		{"unclosed", p("hello("), "say hello(world)\nhello\n", []string{"1:say hello(world)"}},
		{"unopened", p("foo)"), "foo)\nfoo\n", []string{"1:foo)"}},
		{"all escaped", p("(a))"), "a)\n(a))\n", []string{"2:(a))"}},
		{"flag group", p("(?i"), "(?i\nx\n", []string{"1:(?i"}},
		{"comment eats paren", p("(?x) a b # c"), "ab\n", nil},
		// Unicode classes.
		{`\w`, p(`^\w+$`), "é\n日本\n٣\n_\n\u200d\n-\n", []string{"1:é", "2:日本", "3:٣", "4:_", "5:\u200d"}},
		{`\d`, p(`^\d+$`), "٣\n１２\n123\nx\n", []string{"1:٣", "2:１２", "3:123"}},
		{`\s`, p(`^\s+x$`), "\u00a0x\n\u3000x\n\u200bx\n", []string{"1:\u00a0x", "2:\u3000x"}},
		{`\b`, p(`\bfoo\b`), "éfoo\nfooé\n foo \nfoo_\n日foo\n", []string{"3: foo"}},
		{`\B`, p(`\Bfoo`), "éfoo\nfoo\n", []string{"1:éfoo"}},
		{`\b after é`, p(`é\b`), "café\ncafé1\n", []string{"1:café"}},
		{`\< \>`, p(`\<foo\>`), "éfoo\nfoo\nfoo bar\n", []string{"2:foo", "3:foo bar"}},
		{"posix is ASCII", p(`[[:alpha:]]`), "é\n", nil},
		{"ASCII word", p(`(?-u)\w`), "é\nx\n", []string{"2:x"}},
		{"class ops", p(`[a-z&&[^aeiou]]+x`), "bcdx\naex\n", []string{"1:bcdx"}},
		// Case folding (simple Unicode folding).
		{"STRASSE", ci("STRASSE"), "straße\nstrasse\nSTRASSE\nſtraſſe\n", []string{"2:strasse", "3:STRASSE", "4:ſtraſſe"}},
		{"ß", ci("straße"), "STRASSE\nSTRAẞE\nstraße\n", []string{"2:STRAẞE", "3:straße"}},
		{"long s", ci("s"), "ſ\nS\nx\n", []string{"1:ſ", "2:S"}},
		{"sigma", ci("σ"), "Σ\nς\nσ\n", []string{"1:Σ", "2:ς", "3:σ"}},
		{"kelvin", ci("k"), "K\n\u212a\n", []string{"1:K", "2:\u212a"}},
		{"dotted I", ci("i"), "İ\nı\nI\n", []string{"3:I"}},
		{"class fold", ci("[a-z]+"), "\u212a\nſ\n", []string{"1:\u212a", "2:ſ"}},
		{"negated fold", ci("[^k]"), "K\n", nil},
		{"inline off", ci("a(?-i)B"), "Ab\nAB\n", []string{"2:AB"}},
		{"flags persist", p("a(?i)b|c"), "aB\nC\n", []string{"1:aB", "2:C"}},
		// Lines.
		{"$ before CR", p("foo$"), "foo\r\nfoo\nfoo \n", []string{"2:foo"}},
		{"CR literal", p(`foo\r$`), "foo\r\n", []string{"1:foo"}},
		{"^ line start", p("^bar"), "foo\nbar\n", []string{"2:bar"}},
		{`\A per line`, p(`\Abar`), "foo\nbar\n", []string{"2:bar"}},
		{"no span", Options{Pattern: `foo\nbar`, Multiline: true}, "foo\nbar\n", nil},
		{"empty pattern", p(""), "a\n\nb", []string{"1:a", "2:", "3:b"}},
		{"empty data", p("x*"), "", nil},
		{"final newline", p("x*"), "a\n", []string{"1:a"}},
		{"no final newline", p("b"), "a\nb", []string{"2:b"}},
		{"empty line", p("^$"), "a\n\nb\n", []string{"2:"}},
		{"trailing space", p("a"), "\ta  \n a \u00a0\u3000\u2028\u0085\r\n", []string{"1:\ta", "2: a"}},
		{"one hit per line", p("a"), "aaa a\n", []string{"1:aaa a"}},
		{"CRLF mode", p(`(?mR)^x$`), "x\r\n", []string{"1:x"}},
		{"dot is Unicode", p(`^.$`), "😀\né\n", []string{"1:😀", "2:é"}},
		{"byte dot", p(`(?-u)^..$`), "é\n", []string{"1:é"}},
		{"invalid UTF-8 is not a char", p("a.b"), "a\xffb\na\u00e9b\n", []string{"2:aéb"}},
		{"raw byte", p(`(?-u:\xff)`), "a\xffb\n", []string{"1:a\ufffdb"}},
		{"lossy output", p("a"), "a\xe2\x82b\xe2\x82\n", []string{"1:a\ufffdb\ufffd"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := lines(t, tc.o, tc.data)
			want := tc.want
			if want == nil {
				want = []string{}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%q on %q: got %q, want %q", tc.o.Pattern, tc.data, got, want)
			}
		})
	}
}

func TestMaxColumns(t *testing.T) {
	tests := []struct {
		max       int
		data      string
		line      string
		truncated bool
	}{
		{10, "aaaaaaaaaa", "aaaaaaaaaa", false},
		{10, "aaaaaaaaaaa", "aaaaaaa...", true},
		{10, "aaaaaaaaaa   ", "aaaaaaaaaa", false}, // trimmed first
		{10, "aaaaaaaéé", "aaaaaaa...", true},      // 11 bytes; cut at 7
		{10, "aaaaaaéééé", "aaaaaa...", true},      // cut inside é moves back
		{8, "a日本語テキスト", "a日...", true},             // cut at 5 falls inside 本
		{7, "a😀😀😀", "a...", true},
		{0, "abc", "...", true},
		{0, "", "", false},
		{3, "abcd", "...", true},
		{4, "abcdef", "a...", true},
		{6, "a\xff\xff\xff\xff", "a...", true}, // measured after U+FFFD replacement
	}
	for _, tc := range tests {
		m, err := Compile(Options{Pattern: "^", MaxColumns: tc.max, HasMaxColumns: true})
		if err != nil {
			t.Fatal(err)
		}
		ms, _, _ := m.Search([]byte(tc.data), -1, true, nil, nil)
		if tc.data == "" {
			if len(ms) != 0 {
				t.Errorf("empty data matched")
			}
			continue
		}
		if ms[0].Line != tc.line || ms[0].Truncated != tc.truncated {
			t.Errorf("max %d on %q: got %q %v, want %q %v", tc.max, tc.data, ms[0].Line, ms[0].Truncated, tc.line, tc.truncated)
		}
	}
	// Context lines are cut too, without a flag.
	m, _ := Compile(Options{Pattern: "x", MaxColumns: 5, HasMaxColumns: true, ContextBefore: 1, ContextAfter: 1})
	ms, _, _ := m.Search([]byte("0123456789\nx\n0123456789\n"), -1, true, nil, nil)
	want := []Match{{LineNumber: 2, Line: "x", ContextBefore: []ContextLine{{1, "01..."}}, ContextAfter: []ContextLine{{3, "01..."}}}}
	if !reflect.DeepEqual(ms, want) {
		t.Errorf("got %+v", ms)
	}
}

func TestContextAndLimit(t *testing.T) {
	data := []byte("a1\nx\na2\na3\nx\nx\na4\n")
	type cl = []ContextLine
	tests := []struct {
		name          string
		before, after int
		limit         int
		want          []Match
		count         int
	}{
		{"after cut by next match", 1, 1, -1, []Match{
			{LineNumber: 1, Line: "a1", ContextAfter: cl{{2, "x"}}},
			{LineNumber: 3, Line: "a2"},
			{LineNumber: 4, Line: "a3", ContextAfter: cl{{5, "x"}}},
			{LineNumber: 7, Line: "a4", ContextBefore: cl{{6, "x"}}},
		}, 4},
		{"before not repeated", 2, 0, -1, []Match{
			{LineNumber: 1, Line: "a1"},
			{LineNumber: 3, Line: "a2", ContextBefore: cl{{2, "x"}}},
			{LineNumber: 4, Line: "a3"},
			{LineNumber: 7, Line: "a4", ContextBefore: cl{{5, "x"}, {6, "x"}}},
		}, 4},
		{"cap counts one more", 0, 3, 1, []Match{{LineNumber: 1, Line: "a1", ContextAfter: cl{{2, "x"}}}}, 2},
		{"cap after-context stops at extra match", 0, 3, 3, []Match{
			{LineNumber: 1, Line: "a1", ContextAfter: cl{{2, "x"}}},
			{LineNumber: 3, Line: "a2"},
			{LineNumber: 4, Line: "a3", ContextAfter: cl{{5, "x"}, {6, "x"}}},
		}, 4},
		{"cap 0 behaves as 1", 0, 0, 0, []Match{{LineNumber: 1, Line: "a1"}}, 2},
		{"cap not reached", 0, 0, 4, []Match{{LineNumber: 1, Line: "a1"}, {LineNumber: 3, Line: "a2"}, {LineNumber: 4, Line: "a3"}, {LineNumber: 7, Line: "a4"}}, 4},
	}
	for _, tc := range tests {
		m, err := Compile(Options{Pattern: "a", ContextBefore: tc.before, ContextAfter: tc.after})
		if err != nil {
			t.Fatal(err)
		}
		ms, n, _ := m.Search(data, tc.limit, true, nil, nil)
		if n != tc.count || !reflect.DeepEqual(ms, tc.want) {
			t.Errorf("%s: got %d %+v\nwant %d %+v", tc.name, n, ms, tc.count, tc.want)
		}
		_, n2, _ := m.Search(data, tc.limit, false, nil, nil)
		if n2 != n {
			t.Errorf("%s: count-only %d, with lines %d", tc.name, n2, n)
		}
	}
	// Whitespace-only context lines are reported empty; context stops at
	// the end of the data.
	m, _ := Compile(Options{Pattern: "a", ContextBefore: 2, ContextAfter: 5})
	ms, _, _ := m.Search([]byte("a  \n \t\nb\n\na\ny\nz"), -1, true, nil, nil)
	want := []Match{
		{LineNumber: 1, Line: "a", ContextAfter: cl{{2, ""}, {3, "b"}, {4, ""}}},
		{LineNumber: 5, Line: "a", ContextAfter: cl{{6, "y"}, {7, "z"}}},
	}
	if !reflect.DeepEqual(ms, want) {
		t.Errorf("got %+v", ms)
	}
}

func TestHasMatchRawBytes(t *testing.T) {
	tests := []struct {
		o    Options
		data string
		want bool
	}{
		{Options{Pattern: `foo\nbar`}, "foo\nbar\n", true}, // spans lines here
		{Options{Pattern: `^bar`}, "foo\nbar\n", false},    // ^ is the buffer start
		{Options{Pattern: `^bar`, Multiline: true}, "foo\nbar\n", true},
		{Options{Pattern: `foo$`}, "foo\nbar\n", false},
		{Options{Pattern: `x*`}, "", true},
		{Options{Pattern: `a`}, "x\x00a\n", true}, // binary data is searched
		{Options{Pattern: `o.b`}, "foo\nbar\n", false},
		{Options{Pattern: `o[^x]b`}, "foo\nbar\n", true},
		{Options{Pattern: `é`}, "\xe9\n", false},
	}
	for _, tc := range tests {
		m, err := Compile(tc.o)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.HasMatch([]byte(tc.data)); got != tc.want {
			t.Errorf("%q on %q: %v", tc.o.Pattern, tc.data, got)
		}
	}
	if !IsBinary([]byte("a\x00")) || IsBinary([]byte("abc")) {
		t.Error("IsBinary")
	}
}

// TestCancel: a stopped token ends a search at its first look, with the
// token's error and a fraction of the work (matches) of a full search; a
// live one changes nothing.
func TestCancel(t *testing.T) {
	data := bytes.Repeat([]byte("some text with the word\n"), 200000)
	for _, p := range []string{`\w+d$`, `word`, `(?i)t\w+ w`} {
		m, _ := Compile(Options{Pattern: p})
		_, full, err := m.Search(data, -1, false, nil, cancel.New(time.Time{}, nil))
		if err != nil || full != 200000 {
			t.Fatalf("%q: live token: %d matches, %v", p, full, err)
		}
		stop := errors.New("Aborted: Timeout")
		tok := cancel.New(time.Time{}, nil)
		tok.Stop(stop)
		_, n, err := m.Search(data, -1, true, nil, tok)
		if !errors.Is(err, stop) || n > full/10 {
			t.Errorf("%q: stopped token: err %v after %d of %d matches", p, err, n, full)
		}
		if ok, err := m.HasMatchCancel(data, tok); ok || !errors.Is(err, stop) {
			t.Errorf("%q: HasMatchCancel with a stopped token: %v %v", p, ok, err)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	m, _ := Compile(Options{Pattern: `\b\w+_\w+\(`, ContextAfter: 1})
	data := bytes.Repeat([]byte("x := foo_bar(1)\nnothing\nɑ_β(2)\n"), 2000)
	want, wn, _ := m.Search(data, -1, true, nil, nil)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				got, n, _ := m.Search(data, -1, true, nil, nil)
				if n != wn || !reflect.DeepEqual(got, want) || !m.HasMatch(data) {
					t.Error("concurrent results differ")
				}
			}
		}()
	}
	wg.Wait()
}

func TestCountOnlyDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	data := bytes.Repeat([]byte("func foo_bar(x int) error {\n\treturn nil\n}\n"), 1000)
	for _, p := range []string{`\w+_\w+\(`, `return`, `(?i)RETURN`, `[a-z]+\(`, `\bnil\b`} {
		m, _ := Compile(Options{Pattern: p})
		m.Search(data, -1, false, nil, nil) // warm the automaton
		allocs := testing.AllocsPerRun(20, func() { m.Search(data, -1, false, nil, nil) })
		if allocs > 0 {
			t.Errorf("%q: %.1f allocations per search", p, allocs)
		}
	}
}

func TestLossy(t *testing.T) {
	for in, want := range map[string]string{
		"a\xff\xfeb":                 "a\ufffd\ufffdb",
		"a\xe2\x82b\xe2\x82":         "a\ufffdb\ufffd",
		"\xf0\x9f\x98b":              "\ufffdb",
		"\xc0\xaf\xed\xa0\x80":       "\ufffd\ufffd\ufffd\ufffd\ufffd",
		"ok é \xf4\x90\x80\x80 done": "ok é \ufffd\ufffd\ufffd\ufffd done",
	} {
		if got := string(appendLossy(nil, []byte(in))); got != want {
			t.Errorf("appendLossy(%q) = %q, want %q", in, got, want)
		}
	}
}

func ExampleMatcher_Search() {
	m, err := Compile(Options{Pattern: `fn \w+\(`, ContextAfter: 1})
	if err != nil {
		panic(err)
	}
	ms, n, _ := m.Search([]byte("x\nfn main() {   \n\tbody\n}\n"), -1, true, nil, nil)
	fmt.Println(n, ms[0].LineNumber, ms[0].Line, ms[0].ContextAfter)
	// Output: 1 2 fn main() { [{3 	body}]
}
