package ignore

import (
	"strings"
	"testing"
)

// matchRules compiles rules as one ignore file and matches path (relative
// to the file's directory) against it.
func matchRules(t testing.TB, rules, path string, isDir bool) Match {
	t.Helper()
	f := parseRuleFile("/root", []byte(rules))
	if f == nil {
		return None
	}
	rel, name := "", path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		rel, name = path[:i], path[i+1:]
	}
	return f.match(rel, rel != "", name, isDir)
}

func TestRuleMatching(t *testing.T) {
	const (
		N = None
		I = Ignore
		W = Whitelist
	)
	tests := []struct {
		rules string
		path  string
		dir   bool
		want  Match
	}{
		// ripgrep's gitignore tests (ig*, ignot*).
		{"months", "months", false, I},
		{"*.lock", "Cargo.lock", false, I},
		{"*.rs", "src/main.rs", false, I},
		{"src/*.rs", "src/main.rs", false, I},
		{"/*.c", "cat-file.c", false, I},
		{"/src/*.rs", "src/main.rs", false, I},
		{"!src/main.rs\n*.rs", "src/main.rs", false, I},
		{"foo/", "foo", true, I},
		{"**/foo", "foo", false, I},
		{"**/foo", "src/foo", false, I},
		{"**/foo/**", "src/foo/bar", false, I},
		{"**/foo/**", "wat/src/foo/bar/baz", false, I},
		{"**/foo/bar", "foo/bar", false, I},
		{"**/foo/bar", "src/foo/bar", false, I},
		{"abc/**", "abc/x", false, I},
		{"abc/**", "abc/x/y", false, I},
		{"abc/**", "abc/x/y/z", false, I},
		{"a/**/b", "a/b", false, I},
		{"a/**/b", "a/x/b", false, I},
		{"a/**/b", "a/x/y/b", false, I},
		{`\!xy`, "!xy", false, I},
		{`\#foo`, "#foo", false, I},
		{"target", "grep/target", false, I},
		{"Cargo.lock", "tabwriter-bin/Cargo.lock", false, I},
		{"/foo/bar/baz", "foo/bar/baz", false, I},
		{"foo/", "xyz/foo", true, I},
		{"node_modules/ ", "node_modules", true, I},
		{"**/", "foo/bar", true, I},
		{"path1/*", "path1/foo", false, I},
		{".a/b", ".a/b", false, I},
		{`\[`, "[", false, I},
		{`\?`, "?", false, I},
		{`\*`, "*", false, I},
		{`\a`, "a", false, I},
		{"s*.rs", "sfoo.rs", false, I},
		{"**", "foo.rs", false, I},
		{"**/**/*", "a/foo.rs", false, I},
		{"amonths", "months", false, N},
		{"monthsa", "months", false, N},
		{"/src/*.rs", "src/grep/src/main.rs", false, N},
		{"/*.c", "mozilla-sha1/sha1.c", false, N},
		{"*.rs\n!src/main.rs", "src/main.rs", false, W},
		{"foo/", "foo", false, N},
		{"**/foo/**", "wat/src/afoo/bar/baz", false, N},
		{"**/foo/**", "wat/src/fooa/bar/baz", false, N},
		{"**/foo/bar", "foo/src/bar", false, N},
		{"#foo", "#foo", false, N},
		{"\n\n\n", "foo", false, N},
		{"foo/**", "foo", true, N},
		{"!/bar", "foo/bar", false, N},
		{"*\n!**/", "foo", true, W},
		{"src/*.rs", "src/grep/src/main.rs", false, N},
		{"path1/*", "path2/path1/foo", false, N},
		{"s*.rs", "src/foo.rs", false, N},
		{"*.html", "foo.html", false, I},
		{"*.html", "foo.HTML", false, N},

		// Last matching rule wins; directory-only rules are skipped for
		// files, letting an earlier rule decide.
		{"*.log\n!keep.log", "keep.log", false, W},
		{"!keep.log\n*.log", "keep.log", false, I},
		{"keep\n!keep/", "keep", false, I},
		{"keep\n!keep/", "keep", true, W},
		{"d/", "d", false, N},
		{"d/", "x/d", true, I},

		// Anchoring.
		{"/top", "top", false, I},
		{"/top", "a/top", false, N},
		{"a/b", "a/b", false, I},
		{"a/b", "x/a/b", false, N},
		{"a/b/", "a/b", true, I},
		{"!/", "x", false, N},
		{"/", "x", false, N},
		{"!", "anything/at/all", true, W},

		// Stars and question marks stay within a component.
		{"a*", "abc", false, I},
		{"a*", "x/abc", false, I},
		{"a/*", "a/b/c", false, N},
		{"a/*/c", "a/b/c", false, I},
		{"a/?", "a/b", false, I},
		{"a?b", "a/b", false, N},
		{"a*b", "a/b", false, N},
		{"a**b", "a/b", false, N},
		{"a**b", "axxb", false, I},
		{"**/*.txt", "a/b/c.txt", false, I},
		{"/**/x", "a/b/x", false, I},
		{"/**/x", "x", false, I},
		{"**/a/**/b/**", "z/a/b/c", false, I},
		{"a/**", "a", true, N},
		{"a/**/", "a/b", true, I},
		{"a/**/", "a/b", false, N},
		{"**/**", "a/b", false, I},
		{"a/**/**/b", "a/b", false, I},
		{"a/**/**/b", "a/x/y/b", false, I},

		// Classes.
		{"[abc]", "b", false, I},
		{"[abc]", "d", false, N},
		{"[a-c]x", "bx", false, I},
		{"[!a]x", "ax", false, N},
		{"[!a]x", "bx", false, I},
		{"[^a]x", "bx", false, I},
		{"[]]", "]", false, I},
		{"[!]]", "a", false, I},
		{"[-a]", "-", false, I},
		{"[a-]", "-", false, I},
		{"[]-a]", "^", false, I},
		{"a[!b]c", "a/c", false, I}, // globset: a negated class matches '/'
		{"a[/]c", "a/c", false, I},
		{"[z-a]", "z", false, N}, // invalid range: line skipped
		{"[abc", "[abc", false, I},
		{"a[", "a[", false, I},
		{"[a[b", "[a[b", false, I},
		{`[\]]x`, `\]x`, false, I},
		{"?", "é", false, N},
		{"??", "é", false, I},
		{"[é]", "é", false, N},
		{"[é][é]", "é", false, I},
		{"[a-é]?", "é", false, I},
		{"[ü-ā][ü-ā]", "ü", false, I}, // bytes C3, BC..C4, 81
		{"[ü-ā][ü-ā]", "ā", false, I},
		{"[ü-ā][ü-ā]", "é", false, N},
		{"x[ü-ā]", "xü", false, N},

		// Alternation.
		{"*.{js,ts}", "a.ts", false, I},
		{"*.{js,ts}", "a.tsx", false, N},
		{"{a,b/c}", "b/c", false, I},
		{"{a,b/c}", "x/b/c", false, N},
		{"x{a,{b,c}}", "xc", false, I},
		{"x{,a}", "x", false, N},
		{"x{,a}", "xa", false, I},
		{"x{}", "x", false, I},
		{"{a,b", "a", false, N},
		{"a}", "a}", false, N},
		{"a,b", "a,b", false, I},
		{"{**/a,b}", "x/a", false, I},
		{"{a/**,b}", "a/x", false, I},

		// Escapes, comments, spaces.
		{`\#a`, "#a", false, I},
		{"#a", "#a", false, N},
		{` #a`, " #a", false, I},
		{`\!a`, "!a", false, I},
		{"!a", "a", false, W},
		{`!\!a`, "!a", false, W},
		{"a  ", "a", false, I},
		{"a\t", "a", false, I},
		{"a\u00a0", "a", false, I},
		{`a\ `, "a ", false, I},
		{`a\ `, "a", false, N},
		{`a\  `, "a", false, N}, // dangling escape after trimming
		{`a\  `, "a ", false, N},
		{`a\\ `, `a\ `, false, I},
		{`a\`, `a\`, false, N},
		{`a\/`, "a", true, I},
		{`a\/`, "a", false, N},
		{"a\r\nb", "b", false, I},
		{"a\r\nb", "a", false, I},
		{"a\rb", "a\rb", false, I},
		{"\uFEFFa", "a", false, I},
		{"\uFEFF\uFEFFa", "a", false, I},
		{"x\n\uFEFFa", "a", false, N},
		{"a\nb\xffc\nd", "a", false, I},
		{"a\nb\xffc\nd", "d", false, N},
		{"*.tar.gz", "x.tar.gz", false, I},
		{"*.gz", "x.tar.gz", false, I},
		{"*.", "x.", false, I},
		{"*~", "x~", false, I},
		{".env*", ".env.local", false, I},
		{"*.min.*", "a.min.js", false, I},
		{"*", "anything", false, I},
		{"/*", "a/b", false, N},
		{"/*", "a", true, I},
	}
	for _, tc := range tests {
		if got := matchRules(t, tc.rules, tc.path, tc.dir); got != tc.want {
			t.Errorf("rules %q path %q dir=%v: got %v, want %v", tc.rules, tc.path, tc.dir, got, tc.want)
		}
	}
}

// TestLongPattern exercises the multi-word NFA state sets.
func TestLongPattern(t *testing.T) {
	seg := strings.Repeat("abcdefghij", 8)
	rules := seg + "/*/" + seg + "*/**/x?"
	path := seg + "/q/" + seg + "zz/m/n/xy"
	if got := matchRules(t, rules, path, false); got != Ignore {
		t.Fatalf("long pattern: got %v", got)
	}
	if got := matchRules(t, rules, path+"z", false); got != None {
		t.Fatalf("long pattern: got %v", got)
	}
	huge := strings.Repeat("[ab]", 600)
	if got := matchRules(t, "x/"+huge, "x/"+strings.Repeat("ab", 300), false); got != Ignore {
		t.Fatalf("huge pattern: got %v", got)
	}
}

func TestMatchString(t *testing.T) {
	if None.String() != "none" || Ignore.String() != "ignore" || Whitelist.String() != "whitelist" {
		t.Fatal("Match.String")
	}
}
