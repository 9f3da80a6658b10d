package glob

import (
	"strings"
	"testing"
)

// FuzzGlob normalises, compiles and matches arbitrary patterns against
// arbitrary paths. Nothing may panic, and a pattern that compiles answers
// as the plain automaton of its unexpanded tokens does, matched without a
// closure table (matchSparse): the expansion into parts, their literal
// fast paths and the bitset simulation change nothing.
func FuzzGlob(f *testing.F) {
	for _, c := range refCases {
		for _, p := range refTree {
			f.Add(c.pattern, p, c.recursive)
		}
	}
	for _, s := range [][2]string{
		{"{a,b}{c,d}", "ac"}, {"{a,{b,c}}/x", "c/x"}, {"**/{a/**,b}", "q/a/z"},
		{"[!a]?", "b/"}, {"[a-]x", "-x"}, {"[]a]", "]"}, {"[^]]", "x"}, {"a/**/b", "a/b"},
		{"*.{ts,tsx}", "src/é.tsx"}, {"caf??.txt", "café.txt"}, {"{,a}b", "b"},
		{"{a/**/,b}", "a"}, {"**/**/x", "x"}, {"[ä-ü]", "ö"}, {"x{", "x"}, {"{**}", "a"},
	} {
		f.Add(s[0], s[1], true)
		f.Add(s[0], s[1], false)
	}
	f.Fuzz(func(t *testing.T, p, rel string, recursive bool) {
		if len(p) > 512 || len(rel) > 512 {
			return
		}
		// Scanned paths are relative and have no empty component.
		if rel == "" || rel[0] == '/' || rel[len(rel)-1] == '/' || strings.Contains(rel, "//") {
			return
		}
		norm := Normalize(p, recursive)
		m, err := Compile(norm)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "error parsing glob '") {
				t.Fatalf("Compile(%q): error without globset's prefix: %v", norm, err)
			}
			return
		}
		got := m.Match(rel)
		toks, err := parse(norm, Syntax{})
		if err != nil {
			t.Fatalf("parse(%q) fails where Compile did not: %v", norm, err)
		}
		want := false
		if len(toks) == 1 && toks[0].kind == tRecPrefix {
			want = true // a lone "**" is everything (globset special-cases it)
		} else {
			prog := compileProg(toks, 0)
			want = prog.matchSparse([]string{rel})
		}
		if got != want {
			t.Fatalf("pattern %q ~ %q: Match %v, plain automaton %v", norm, rel, got, want)
		}
	})
}

// TestClassAcrossSlash pins what FuzzGlob found: a negated class matches '/'
// in globset, so "**/a[!0]b" matches the path "a/b" (the reference's answer
// over a tree holding a/b), which the last-component shortcut missed; and
// the brace quirks, with the reference's answers.
func TestClassAcrossSlash(t *testing.T) {
	checkMatches(t, []matchCase{
		{"**/a[!0]b", "a/b", true},
		{"a[!0]b", "a/b", true},
		{"**/a[!/]b", "a/b", false},
		{"**/x[.-0]y", "q/x/y", true},
		{"**/*.[ch]", "d/a.c", true},
		{"**/*.[ch]", "d/a/c", false},
		{"**/*[!a]*", "0/a", true},
		{"x*{}", "x", true},
		{"x*{,}", "x", true},
		// globset drops empty alternatives (found by a random
		// differential run against the reference).
		{"{,a}b", "b", false},
		{"{,a}b", "ab", true},
		{"{,}b", "b", true},
		{"{{},a}", "a", true},
		{"[ab][^/]{,.ts{,c,[ab]}[ab]}", "ab", false},
		{"a*{d[ab]{,},{{cc}{}x y[!a]}[ab]**,{}}b", "ab", false},
	})
}
