package syntax

import "testing"

func TestSanitize(t *testing.T) {
	for in, want := range map[string]string{
		"${platform}": `$\{platform\}`, "a{2}": "a{2}", "a{2,}": "a{2,}", "a{2,3}": "a{2,3}", "a{,3}": `a\{,3\}`,
		`\p{L}{2}`: `\p{L}{2}`, `\x{41}`: `\x{41}`, `\u{41}`: `\u{41}`, `\U{1F}`: `\U\{1F\}`, `\U{41}`: `\U{41}`, `\{`: `\{`,
		`\b{start}`: `\b\{start\}`, "{}": `\{\}`, "x{": `x\{`, `\p{L`: `\p{L`, "é{1}": "é{1}",
	} {
		if got := sanitizeBraces(in); got != want {
			t.Errorf("sanitizeBraces(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"a(": `a\(`, `\(a)`: `\(a\)`, "[(]": `[\(]`, "x": "x"} {
		if got := escapeParens(in); got != want {
			t.Errorf("escapeParens(%q) = %q, want %q", in, got, want)
		}
	}
}
