package regex

import (
	"errors"
	"strings"
	"testing"
)

func TestRejectedPatterns(t *testing.T) {
	tests := []struct{ pattern, msg string }{
		{"(?=a)", "Regex error: regex parse error:\n    (?:(?=a))\n       ^^^\nerror: look-around, including look-ahead and look-behind, is not supported"},
		{"(?<!a)b", "Regex error: regex parse error:\n    (?:(?<!a)b)\n       ^^^^\nerror: look-around, including look-ahead and look-behind, is not supported"},
		{`\1`, "Regex error: regex parse error:\n    (?:\\1)\n       ^^\nerror: backreferences are not supported"},
		{"[z-a]", "Regex error: regex parse error:\n    (?:[z-a])\n        ^^^\nerror: invalid character class range, the start must be <= the end"},
		{"[a", "Regex error: regex parse error:\n    (?:[a)\n       ^\nerror: unclosed character class"},
		{"{2}", "Regex error: regex parse error:\n    (?:{2})\n       ^\nerror: repetition operator missing expression"},
		{`\p{Foo}(`, "Regex error: regex parse error:\n    (?:\\p{Foo}\\()\n       ^^^^^^^\nerror: Unicode property not found"},
		{`\`, "Regex error: regex parse error:\n    (?:\\)\n    ^\nerror: unclosed group"},
		{"(?i-i)", "Regex error: regex parse error:\n    (?:(?i-i))\n         ^ ^\nerror: duplicate flag"},
		{`\w{5000}`, "Regex error: compiled regex exceeds size limit of 104857600"},
		{"a\n(?=b)", "Regex error: regex parse error:\n" + strings.Repeat("~", 79) + "\n1: (?:a\n2: (?=b))\n   ^^^\n" + strings.Repeat("~", 79) + "\nerror: look-around, including look-ahead and look-behind, is not supported"},
	}
	for _, tc := range tests {
		// The Rust dialect's own rejections (look-around goes to the
		// backtracking engine in Compile).
		_, err := compile(Options{Pattern: tc.pattern}, false)
		var e *Error
		if !errors.As(err, &e) || err.Error() != tc.msg {
			t.Errorf("Compile(%q) = %v, want %q", tc.pattern, err, tc.msg)
		}
	}
}
