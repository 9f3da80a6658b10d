package ignore

import (
	"strings"
	"testing"
	"time"
)

// FuzzIgnore parses arbitrary ignore-file content and matches arbitrary
// paths. Nothing may panic, and the verdicts obey gitignore's last-match
// rule: when a one-line file ignores a path, appending the same pattern
// negated ("!" + line) whitelists it, and a file of the negated line alone
// never ignores anything.
func FuzzIgnore(f *testing.F) {
	for _, s := range randSegs {
		f.Add(s, "a/b.log", false)
		f.Add("/"+s+"/", "src/x", true)
	}
	for _, s := range []string{"months", "*.lock", "src/*.rs", "/*.c", "**/foo", "foo/**", "a/**/b",
		"\\#c", "\\!d", "x\\ ", "[a-z]*.py[cod]", "*.{js,ts}", "{a,b}/c", "**", "!x", "# c", "\uFEFFa",
		"a\r", "[]x]", "[!/]", "foo/", "a[", "{", "}", "\\", "***/x", strings.Repeat("*a", 600)} {
		f.Add(s, "a/b.log", false)
		f.Add(s, "months", true)
	}
	f.Fuzz(func(t *testing.T, line, path string, isDir bool) {
		if len(line) > 4096 || len(path) > 4096 {
			return
		}
		rel, name := "", path
		if i := strings.LastIndexByte(path, '/'); i >= 0 {
			rel, name = path[:i], path[i+1:]
		}
		if name == "" {
			return
		}
		verdict := func(rules string) Match {
			f := parseRuleFile("/r", []byte(rules))
			if f == nil {
				return None
			}
			return f.match(rel, rel != "", name, isDir)
		}
		start := time.Now()
		got := verdict(line)
		if got != None && got != Ignore && got != Whitelist {
			t.Fatalf("verdict %d", got)
		}
		if strings.ContainsAny(line, "\n\r") || strings.HasPrefix(line, "!") || strings.HasPrefix(line, "#") ||
			strings.HasPrefix(line, "\\") || strings.HasPrefix(line, "\uFEFF") {
			return
		}
		if neg := verdict("!" + line); neg == Ignore {
			t.Fatalf("%q alone ignores %q", "!"+line, path)
		}
		if got == Ignore {
			if both := verdict(line + "\n!" + line); both != Whitelist {
				t.Fatalf("%q ignores %q (dir %v) but %q after it gives %v", line, path, isDir, "!"+line, both)
			}
		}
		if took := time.Since(start); took > timeScale*time.Second {
			t.Fatalf("%q against %q took %v", line, path, took)
		}
	})
}

// TestHostileIgnoreLines feeds ignore files that a hostile or broken tree
// could hold: each parses and matches in bounded time.
func TestHostileIgnoreLines(t *testing.T) {
	long := strings.Repeat("a", 4000)
	for _, c := range []struct {
		name, rules, path string
		want              Match
	}{
		{"40 kB of *a (skipped: over glob.MaxIgnoreStates)", strings.Repeat("*a", 20000), "x/" + strings.Repeat("a", 255), None},
		{"300 *a (compiled)", strings.Repeat("*a", 300), "x/" + strings.Repeat("a", 255), None},
		{"100 *a", strings.Repeat("*a", 100), "x/" + strings.Repeat("a", 200), Ignore},
		{"100 kB literal line", strings.Repeat("b", 100000), "b", None},
		{"10000 lines", strings.Repeat("*.tmp\nbuild/\n!keep.tmp\n", 3334), "keep.tmp", Whitelist},
		{"deep path rule", strings.Repeat("d/", 300) + "*.x", strings.Repeat("d/", 300) + "y.x", Ignore},
		{"**/ x300", strings.Repeat("**/", 300) + "z", long + "/z", Ignore},
		{"{a,b} x40", strings.Repeat("{a,b}", 40), strings.Repeat("a", 40), Ignore},
		{"NUL and invalid UTF-8", "a\x00b\n\xff\xfe\nc", "c", None},
	} {
		start := time.Now()
		got := matchRules(t, c.rules, c.path, false)
		took := time.Since(start)
		t.Logf("%s: %v in %v", c.name, got, took)
		if got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
		if took > timeScale*time.Second {
			t.Errorf("%s: took %v", c.name, took)
		}
	}
}
