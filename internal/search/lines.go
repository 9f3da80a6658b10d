package search

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// trimRightSpace drops trailing Unicode white space (Rust's trim_end).
// Invalid UTF-8 is not white space and stops the trim.
func trimRightSpace(b []byte) []byte {
	for len(b) > 0 {
		c := b[len(b)-1]
		if c < utf8.RuneSelf {
			if c == ' ' || '\t' <= c && c <= '\r' {
				b = b[:len(b)-1]
				continue
			}
			return b
		}
		r, size := utf8.DecodeLastRune(b)
		if r == utf8.RuneError && size <= 1 || !unicode.IsSpace(r) {
			return b
		}
		b = b[:len(b)-size]
	}
	return b
}

// invalidPrefixLen returns the length of the maximal prefix of b (which
// starts with invalid UTF-8) that Rust's from_utf8_lossy replaces by one
// U+FFFD: a lead byte and the continuation bytes valid after it.
func invalidPrefixLen(b []byte) int {
	c := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case 0xC2 <= c && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case 0xE1 <= c && c <= 0xEC || c == 0xEE || c == 0xEF:
		need = 2
	case c == 0xED:
		need, hi = 2, 0x9F
	case c == 0xF0:
		need, lo = 3, 0x90
	case 0xF1 <= c && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	n := 1
	for i := 0; i < need && n < len(b); i++ {
		x := b[n]
		if i == 0 {
			if x < lo || x > hi {
				return n
			}
		} else if x < 0x80 || x > 0xBF {
			return n
		}
		n++
	}
	return n
}

// appendLossy appends b to dst, replacing invalid UTF-8 like Rust's
// String::from_utf8_lossy.
func appendLossy(dst, b []byte) []byte {
	for len(b) > 0 {
		c := b[0]
		if c < utf8.RuneSelf {
			dst = append(dst, c)
			b = b[1:]
			continue
		}
		r, size := utf8.DecodeRune(b)
		if r != utf8.RuneError || size > 1 {
			dst = append(dst, b[:size]...)
			b = b[size:]
			continue
		}
		dst = append(dst, "\uFFFD"...)
		b = b[invalidPrefixLen(b):]
	}
	return dst
}

// formatLine turns the bytes of a line into what the reference reports:
// trailing white space trimmed, invalid UTF-8 replaced, and when maxCols
// >= 0 and the result is longer than maxCols bytes, cut to maxCols-3 bytes
// at a character boundary plus "...".
func formatLine(b []byte, maxCols int, scratch *[]byte) (string, bool) {
	b = trimRightSpace(b)
	if utf8.Valid(b) {
		if maxCols < 0 || len(b) <= maxCols {
			return string(b), false
		}
	} else {
		*scratch = appendLossy((*scratch)[:0], b)
		b = *scratch
		if maxCols < 0 || len(b) <= maxCols {
			return string(b), false
		}
	}
	cut := max(maxCols-3, 0)
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	out := make([]byte, 0, cut+3)
	out = append(out, b[:cut]...)
	out = append(out, "..."...)
	return string(out), true
}

// lineEnd is the index of the '\n' ending the line that holds pos, or
// len(data).
func lineEnd(data []byte, pos int) int {
	if i := bytes.IndexByte(data[pos:], '\n'); i >= 0 {
		return pos + i
	}
	return len(data)
}
