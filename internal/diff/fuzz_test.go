package diff

import (
	"strings"
	"testing"
)

// FuzzUnified: every patch applies to a and gives exactly b, with stats
// matching the patch, at contexts 0, 1 and 3. The inputs are also read as
// lines over a small alphabet (each byte a line) so that the fuzzer reaches
// repeated lines quickly.
func FuzzUnified(f *testing.F) {
	for _, s := range [][2]string{
		{"", ""}, {"", "a"}, {"a", ""}, {"a", "a\n"}, {"a\nb", "a\nb\n"},
		{"x\r\ny\r\n", "x\ny\r\n"}, {"a\r\n", "a\n"},
		{"}\n\n}\n\n}\n", "}\n}\n\n\n}\n"}, {"a\na\na\na\n", "a\na\n"},
		{"a\nb\nc\nd\ne\nf\ng\n", "a\nB\nc\nd\ne\nf\nG\n"},
		{"abcabba", "cbabac"}, {"\n\n\n", "\n"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, ctx := range []int{0, 1, 3} {
			o := Options{Context: ctx, ContextSet: true}
			check(t, a, b, o)
			check(t, perByte(a), perByte(b), o)
		}
	})
}

// perByte makes each byte of s a line (bytes "0"-"3" lines of their own,
// the others folded onto 4 values), ending with or without a newline as s
// is even or odd in length.
func perByte(s string) string {
	var w strings.Builder
	for i := 0; i < len(s); i++ {
		w.WriteByte('a' + s[i]%5)
		if i < len(s)-1 || len(s)%2 == 0 {
			w.WriteByte('\n')
		}
	}
	return w.String()
}
