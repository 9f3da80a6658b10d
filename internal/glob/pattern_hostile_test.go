package glob

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestHostilePatterns compiles and matches patterns a model could write by
// accident or on purpose. Each must settle (no time is asserted but a hang,
// hangLimit; the figures are logged) with the reference's answer (14.9.9's glob, recorded over a tree holding these
// paths except the 4000-byte one, which no file system allows), or with a
// clear error where the reference refuses too ("Failed to build glob
// matcher: error parsing pattern 0"). The one difference: "{" x10000 then
// "a" nests 10000 deep and is refused; the reference refuses it as well.
func TestHostilePatterns(t *testing.T) {
	const hangLimit = time.Minute // far beyond any machine's time
	long := strings.Repeat("a", 4000)
	deep := strings.Repeat("d/", 300) + "a"
	a40 := strings.Repeat("a", 40)
	paths := []string{"a", "b", a40, a40 + "a", long, deep, "top.txt"}
	alts := make([]string, 10000)
	for i := range alts {
		alts[i] = fmt.Sprintf("n%d", i)
	}
	for _, c := range []struct {
		name, pattern string
		want          []string // matching paths; nil with err
		err           string   // part of the error
	}{
		{"20 nested braces", strings.Repeat("{", 20) + "a" + strings.Repeat("}", 20), []string{"a", deep}, ""},
		{"124 nested alternations", strings.Repeat("{a,", 124) + "b" + strings.Repeat("}", 124), []string{"a", "b", deep}, ""},
		{"125 nested alternations", strings.Repeat("{a,", 125) + "b" + strings.Repeat("}", 125), nil, "braces nest too deeply"},
		{"249 nested groups", strings.Repeat("{", 249) + "a" + strings.Repeat("}", 249), []string{"a", deep}, ""},
		{"250 nested groups", strings.Repeat("{", 250) + "a" + strings.Repeat("}", 250), nil, "braces nest too deeply"},
		{"5000 nested alternations", strings.Repeat("{a,", 5000) + "b" + strings.Repeat("}", 5000), nil, "braces nest too deeply"},
		{"10000 unclosed braces", strings.Repeat("{", 10000), []string{}, ""},
		{"10000 unclosed braces, then a", strings.Repeat("{", 10000) + "a", nil, "braces nest too deeply"},
		{"{a,b} x40", strings.Repeat("{a,b}", 40), []string{a40}, ""},
		{"{a,a} x40", strings.Repeat("{a,a}", 40), []string{a40}, ""},
		{"{a,aa} x40", strings.Repeat("{a,aa}", 40), []string{a40, a40 + "a"}, ""},
		{"{a,b} x2000", strings.Repeat("{a,b}", 2000), []string{}, ""},
		{"{*,a} x40", strings.Repeat("{*,a}", 40), []string{"a", "b", a40, a40 + "a", long, deep, "top.txt"}, ""},
		{"{**/a,a} x20", strings.Repeat("{**/a,a}", 20), []string{}, ""},
		{"10000 alternatives", "{" + strings.Join(alts, ",") + "}", []string{}, ""},
		{"1000 stars", strings.Repeat("*", 1000) + "x", []string{}, ""},
		{"*a x50", strings.Repeat("*a", 50) + "x", []string{}, ""},
		{"**/ x200", strings.Repeat("**/", 200) + "a", []string{"a", deep}, ""},
		{"**/a x50", strings.Repeat("**/a", 50) + "x", []string{}, ""},
		{"1000 ?", strings.Repeat("?", 1000), []string{}, ""},
		{"100 kB literal", strings.Repeat("a", 100000), []string{}, ""},
		{"10 kB class", "[" + strings.Repeat("a", 10000) + "]", []string{"a", deep}, ""},
		{"[!x] x200", strings.Repeat("[!x]", 200), []string{}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			m, err := Compile(Normalize(c.pattern, true))
			var got []string
			if err == nil {
				got = []string{}
				for _, p := range paths {
					if m.Match(p) {
						got = append(got, p)
					}
				}
			}
			took := time.Since(start)
			t.Logf("%s: %d matches, err %.80v, %v", c.name, len(got), err, took)
			if took > hangLimit {
				t.Errorf("hang: took %v", took)
			}
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("want an error containing %q, got %v", c.err, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("matches %q, want %q", short(got), short(c.want))
			}
		})
	}
}

func short(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		if len(p) > 20 {
			p = fmt.Sprintf("%s...(%d bytes)", p[:10], len(p))
		}
		out[i] = p
	}
	return out
}
