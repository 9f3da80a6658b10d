package syntax

import (
	"math/rand"
	"slices"
	"testing"
	"unicode/utf8"
)

func TestUTF8Sequences(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for range 300 {
		lo := rune(r.Intn(0x110000))
		hi := lo + rune(r.Intn(0x3000))
		if r.Intn(4) == 0 {
			hi = lo + rune(r.Intn(0x110000-int(lo)))
		}
		hi = min(hi, 0x10FFFF)
		var seqs [][]ByteRange
		UTF8Sequences(RuneClass{{lo, hi}}, func(s []ByteRange) { seqs = append(seqs, slices.Clone(s)) })
		matches := func(b []byte) bool {
			for _, s := range seqs {
				if len(s) != len(b) {
					continue
				}
				ok := true
				for i := range s {
					ok = ok && s[i].Lo <= b[i] && b[i] <= s[i].Hi
				}
				if ok {
					return true
				}
			}
			return false
		}
		for range 200 {
			c := lo + rune(r.Intn(int(hi-lo)+1))
			if !utf8.ValidRune(c) {
				continue
			}
			if !matches(utf8.AppendRune(nil, c)) {
				t.Fatalf("[%x-%x] misses %x", lo, hi, c)
			}
			d := rune(r.Intn(0x110000))
			if utf8.ValidRune(d) && (d < lo || d > hi) && matches(utf8.AppendRune(nil, d)) {
				t.Fatalf("[%x-%x] matches %x", lo, hi, d)
			}
		}
	}
}
