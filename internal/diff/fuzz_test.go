package diff

import (
	"errors"
	"strings"
	"testing"
)

// FuzzUnified: every patch applies to a and gives exactly b, with stats
// matching the patch, at contexts 0, 1 and 3. The inputs are also read as
// lines over a small alphabet (each byte a line) so that the fuzzer reaches
// repeated lines quickly; those are also diffed under a small work budget
// and size bound.
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
		// A work budget and a size bound that stop the diff anywhere: an
		// error and no patch, or a patch within the bound that applies.
		x, y := perByte(a), perByte(b)
		o := Options{MaxWork: 1 + len(a)%61*7, MaxBytes: len(b) % 97 * 3}
		p, _, err := Unified("a", "b", x, y, o)
		switch {
		case errors.Is(err, ErrTooCostly), errors.Is(err, ErrTooLarge):
			if p != "" {
				t.Fatalf("%v with a patch", err)
			}
		case err != nil:
			t.Fatal(err)
		case o.MaxBytes > 0 && len(p) > o.MaxBytes:
			t.Fatalf("patch of %d bytes over MaxBytes %d", len(p), o.MaxBytes)
		default:
			if got, err := Apply(x, p); err != nil || got != y {
				t.Fatalf("the bounded patch does not apply: %v", err)
			}
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
