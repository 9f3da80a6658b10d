package glob

import (
	"strings"
	"testing"
)

// refTree is the relative-path listing the reference was run over.
var refTree = []string{"a", "a/b", "a/b/y.txt", "a/x.txt", "b}", "c", "c/top.txt", "c/z.md", "top.txt", "we[ird.txt", "x}"}

// refCases were recorded from @oh-my-pi/pi-natives 14.9.9's glob over
// refTree (recursive true and false): the matches in path order, or the
// error text after "Invalid glob pattern: ".
var refCases = []struct {
	pattern   string
	recursive bool
	want      string
	err       string
}{
	{"a/**", true, "a/b a/b/y.txt a/x.txt", ""},
	{"a/**", false, "a/b a/b/y.txt a/x.txt", ""},
	{"**", true, "a a/b a/b/y.txt a/x.txt b} c c/top.txt c/z.md top.txt we[ird.txt x}", ""},
	{"**", false, "a a/b a/b/y.txt a/x.txt b} c c/top.txt c/z.md top.txt we[ird.txt x}", ""},
	{"a", true, "a", ""},
	{"a", false, "a", ""},
	{"a/*", true, "a/b a/x.txt", ""},
	{"a/*", false, "a/b a/x.txt", ""},
	{"{a,c}", true, "a c", ""},
	{"{a,c}", false, "a c", ""},
	{"{a,c}/*", true, "a/b a/x.txt c/top.txt c/z.md", ""},
	{"{a,c}/*", false, "a/b a/x.txt c/top.txt c/z.md", ""},
	{"{a/*,c/{z,q}.md}", true, "a/b a/x.txt c/z.md", ""},
	{"{a/*,c/{z,q}.md}", false, "a/b a/x.txt c/z.md", ""},
	{"[!a]*", true, "a/b a/b/y.txt a/x.txt b} c c/top.txt c/z.md top.txt we[ird.txt x}", ""},
	{"[!a]*", false, "b} c top.txt we[ird.txt x}", ""},
	{"[^a]*", true, "a/b a/b/y.txt a/x.txt b} c c/top.txt c/z.md top.txt we[ird.txt x}", ""},
	{"[^a]*", false, "b} c top.txt we[ird.txt x}", ""},
	{"a**", true, "a", ""},
	{"a**", false, "a", ""},
	{"**.txt", true, "top.txt we[ird.txt", ""},
	{"**.txt", false, "top.txt we[ird.txt", ""},
	{"a/**/y.txt", true, "a/b/y.txt", ""},
	{"a/**/y.txt", false, "a/b/y.txt", ""},
	{"**/b", true, "a/b", ""},
	{"**/b", false, "a/b", ""},
	{"b/", true, "", ""},
	{"b/", false, "", ""},
	{"/a", true, "", ""},
	{"/a", false, "", ""},
	{"./a", true, "", ""},
	{"./a", false, "", ""},
	{"*/", true, "", ""},
	{"*/", false, "", ""},
	{" *.md ", true, "c/z.md", ""},
	{" *.md ", false, "", ""},
	{"{top.txt", true, "c/top.txt top.txt", ""},
	{"{top.txt", false, "top.txt", ""},
	{"[a-c]/*.txt", true, "a/x.txt c/top.txt", ""},
	{"[a-c]/*.txt", false, "a/x.txt c/top.txt", ""},
	{"a/b/", true, "", ""},
	{"a/b/", false, "", ""},
	{"**/", true, "a a/b a/b/y.txt a/x.txt b} c c/top.txt c/z.md top.txt we[ird.txt x}", ""},
	{"**/", false, "a a/b a/b/y.txt a/x.txt b} c c/top.txt c/z.md top.txt we[ird.txt x}", ""},
	{"a[/]b", true, "a/b", ""},
	{"a[/]b", false, "a/b", ""},
	{"{}", true, "", ""},
	{"{}", false, "", ""},
	{"{,a}", true, "a", ""},
	{"{,a}", false, "a", ""},
	{"we[ird.txt", true, "", "error parsing glob '**/we[ird.txt': unclosed character class; missing ']'"},
	{"we[ird.txt", false, "", "error parsing glob 'we[ird.txt': unclosed character class; missing ']'"},
	{"**/**", true, "a a/b a/b/y.txt a/x.txt b} c c/top.txt c/z.md top.txt we[ird.txt x}", ""},
	{"**/**", false, "a a/b a/b/y.txt a/x.txt b} c c/top.txt c/z.md top.txt we[ird.txt x}", ""},
	{"x{a", true, "", ""},
	{"x{a", false, "", ""},
	{"*{", true, "a a/b a/b/y.txt a/x.txt b} c c/top.txt c/z.md top.txt we[ird.txt x}", ""},
	{"*{", false, "a b} c top.txt we[ird.txt x}", ""},
	{"[]a]", true, "a", ""},
	{"[]a]", false, "a", ""},
	{"[!]a]", true, "a/b c", ""},
	{"[!]a]", false, "c", ""},
	{"a}", true, "", "error parsing glob '**/a}': unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)"},
	{"a}", false, "", "error parsing glob 'a}': unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)"},
	{"[z-a]*", true, "", "error parsing glob '**/[z-a]*': invalid range; 'z' > 'a'"},
	{"[z-a]*", false, "", "error parsing glob '[z-a]*': invalid range; 'z' > 'a'"},
	{"{a,{b,c}}", true, "a a/b c", ""},
	{"{a,{b,c}}", false, "a c", ""},
	{"***", true, "a b} c top.txt we[ird.txt x}", ""},
	{"***", false, "a b} c top.txt we[ird.txt x}", ""},
	{"[[]*", true, "", ""},
	{"[[]*", false, "", ""},
	{"[a-]", true, "a", ""},
	{"[a-]", false, "a", ""},
	{"[-a]", true, "a", ""},
	{"[-a]", false, "a", ""},
	{"*/**", true, "a/b a/b/y.txt a/x.txt c/top.txt c/z.md", ""},
	{"*/**", false, "a/b a/b/y.txt a/x.txt c/top.txt c/z.md", ""},
	{"{a,c}/**", true, "a/b a/b/y.txt a/x.txt c/top.txt c/z.md", ""},
	{"{a,c}/**", false, "a/b a/b/y.txt a/x.txt c/top.txt c/z.md", ""},
	{"a/{**,x}", true, "a/b a/x.txt", ""},
	{"a/{**,x}", false, "a/b a/x.txt", ""},
	{"{a/**,top.txt}", true, "a/b a/b/y.txt a/x.txt top.txt", ""},
	{"{a/**,top.txt}", false, "a/b a/b/y.txt a/x.txt top.txt", ""},
	{"**/*.{txt,md}", true, "a/b/y.txt a/x.txt c/top.txt c/z.md top.txt we[ird.txt", ""},
	{"**/*.{txt,md}", false, "a/b/y.txt a/x.txt c/top.txt c/z.md top.txt we[ird.txt", ""},
	{"{top.txt,c}", true, "c top.txt", ""},
	{"{top.txt,c}", false, "c top.txt", ""},
	{"{*.txt,c}", true, "a/b/y.txt a/x.txt c c/top.txt top.txt we[ird.txt", ""},
	{"{*.txt,c}", false, "c top.txt we[ird.txt", ""},
	{"{z.md", true, "c/z.md", ""},
	{"{z.md", false, "", ""},
	{"{z.md}", true, "", ""},
	{"{z.md}", false, "", ""},
	{"{{top.txt,q}}", true, "c/top.txt top.txt", ""},
	{"{{top.txt,q}}", false, "top.txt", ""},
	{"{top.txt,}", true, "top.txt", ""},
	{"{top.txt,}", false, "top.txt", ""},
	{"{to?.txt,q}", true, "c/top.txt top.txt", ""},
	{"{to?.txt,q}", false, "top.txt", ""},
	{"?", true, "a a/b c", ""},
	{"?", false, "a c", ""},
	{"*.TXT", true, "", ""},
	{"*.TXT", false, "", ""},
	{"*", true, "a a/b a/b/y.txt a/x.txt b} c c/top.txt c/z.md top.txt we[ird.txt x}", ""},
	{"*", false, "a b} c top.txt we[ird.txt x}", ""},
	{"*.txt", true, "a/b/y.txt a/x.txt c/top.txt top.txt we[ird.txt", ""},
	{"*.txt", false, "top.txt we[ird.txt", ""},
	{"c/*", true, "c/top.txt c/z.md", ""},
	{"c/*", false, "c/top.txt c/z.md", ""},
	{"**/*", true, "a a/b a/b/y.txt a/x.txt b} c c/top.txt c/z.md top.txt we[ird.txt x}", ""},
	{"**/*", false, "a a/b a/b/y.txt a/x.txt b} c c/top.txt c/z.md top.txt we[ird.txt x}", ""},
	{"a/**/*", true, "a/b a/b/y.txt a/x.txt", ""},
	{"a/**/*", false, "a/b a/b/y.txt a/x.txt", ""},
	{"**/a/**", true, "a/b a/b/y.txt a/x.txt", ""},
	{"**/a/**", false, "a/b a/b/y.txt a/x.txt", ""},
	{"a/b/**", true, "a/b/y.txt", ""},
	{"a/b/**", false, "a/b/y.txt", ""},
	{"*/*/*", true, "a/b/y.txt", ""},
	{"*/*/*", false, "a/b/y.txt", ""},
	{"**/*/", true, "", ""},
	{"**/*/", false, "", ""},
	{"[ab]/**", true, "a/b a/b/y.txt a/x.txt", ""},
	{"[ab]/**", false, "a/b a/b/y.txt a/x.txt", ""},
	{"{a,c}/*.{txt,md}", true, "a/x.txt c/top.txt c/z.md", ""},
	{"{a,c}/*.{txt,md}", false, "a/x.txt c/top.txt c/z.md", ""},
	{"a\\x.txt", true, "a/x.txt", ""},
	{"a\\x.txt", false, "a/x.txt", ""},
	{"a\\*", true, "a/b a/x.txt", ""},
	{"a\\*", false, "a/b a/x.txt", ""},
	{"\\*\\*", true, "", ""},
	{"\\*\\*", false, "", ""},
	{"", true, "a a/b a/b/y.txt a/x.txt b} c c/top.txt c/z.md top.txt we[ird.txt x}", ""},
	{"", false, "a b} c top.txt we[ird.txt x}", ""},
}

func TestMatchesReference(t *testing.T) {
	for _, c := range refCases {
		norm := Normalize(c.pattern, c.recursive)
		m, err := Compile(norm)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q (recursive %v): want error %q, got %v", c.pattern, c.recursive, c.err, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q (recursive %v): unexpected error %v", c.pattern, c.recursive, err)
			continue
		}
		var got []string
		for _, p := range refTree {
			if m.Match(p) {
				got = append(got, p)
			}
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%q (recursive %v, normalised %q): want [%s], got [%s]", c.pattern, c.recursive, norm, c.want, g)
		}
	}
}

func TestNormalize(t *testing.T) {
	for _, c := range []struct {
		in        string
		recursive bool
		want      string
	}{
		{"", true, "**/*"},
		{"   ", false, "*"},
		{" *.ts ", true, "**/*.ts"},
		{`src\*.ts`, true, "src/*.ts"},
		{"src/*.ts", true, "src/*.ts"},
		{"**/x", true, "**/x"},
		{"**.md", true, "**.md"},
		{"{a.txt,b.txt}", true, "{a.txt,b.txt}"},
		{"{a.txt,*.md}", true, "**/{a.txt,*.md}"},
		{"{a.txt", true, "**/{a.txt}"},
		{"{{a,b}", false, "{{a,b}}"},
		{"[{]x", false, "[{]x"},
		{"*.ts", false, "*.ts"},
	} {
		if got := Normalize(c.in, c.recursive); got != c.want {
			t.Errorf("Normalize(%q, %v) = %q, want %q", c.in, c.recursive, got, c.want)
		}
	}
}

func TestLiteralSeparator(t *testing.T) {
	m, err := Compile("src/*.go")
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{"src/a.go": true, "src/x/a.go": false, "src/.h.go": true, "a.go": false} {
		if got := m.Match(p); got != want {
			t.Errorf("src/*.go ~ %q = %v, want %v", p, got, want)
		}
	}
}

func BenchmarkMatch(b *testing.B) {
	m, _ := Compile(Normalize("*.go", true))
	paths := []string{"src/net/http/server.go", "src/net/http/testdata/file", "README.md", "a/b/c/d/e/f/g.go"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		m.Match(paths[i%len(paths)])
	}
}

// BenchmarkMatchShapes matches common pattern shapes (a literal suffix, a
// brace of extensions, a path with "**", a base name with a wildcard
// inside, a class) against a mix of paths, as glob() does for every entry
// of a scan.
func BenchmarkMatchShapes(b *testing.B) {
	paths := []string{"src/net/http/server.go", "src/net/http/testdata/file", "README.md", "a/b/c/d/e/f/g.go",
		"packages/app/src/components/Button.tsx", "packages/app/src/index.ts", "docs/guide/intro.md", "x/test_util.py"}
	for _, p := range []string{"*.go", "*.{ts,tsx}", "src/**/*.go", "test_*.py", "*.[ch]", "**/testdata/**", "{src,docs}/**/*.md"} {
		m, err := Compile(Normalize(p, true))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(p, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				m.Match(paths[i%len(paths)])
			}
		})
	}
}

// TestBytewise pins globset's byte semantics of '?' and classes on non-ASCII
// names, as the reference answers (recorded by the conformance suite).
func TestBytewise(t *testing.T) {
	checkMatches(t, []matchCase{
		{"?.txt", "ä.txt", false},
		{"??.txt", "ä.txt", true},
		{"[ä].txt", "ä.txt", false},
		{"caf?.txt", "café.txt", false},
		{"caf??.txt", "café.txt", true},
		{"**/caf??.txt", "d/café.txt", true},
		{"???.md", "日本語.md", false},
		{"emoji?.txt", "emoji😀.txt", false},
		{"emoji????.txt", "emoji😀.txt", true},
		{"*.txt", "ä.txt", true},
		{"d/?", "d/a", true},
		{"src/**/", "src", false},
		{"src/", "src", false},
		{"**/", "src", true},
	})
}

// matchCase is a compiled pattern, a path and whether it matches.
type matchCase struct {
	pattern, path string
	want          bool
}

// checkMatches compiles each case's pattern (as given, not normalised) and
// checks its answer for the path.
func checkMatches(t *testing.T, cases []matchCase) {
	t.Helper()
	for _, c := range cases {
		m, err := Compile(c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Match(c.path); got != c.want {
			t.Errorf("%q ~ %q = %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
}
