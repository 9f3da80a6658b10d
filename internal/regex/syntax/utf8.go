package syntax

import "unicode/utf8"

// UTF8Sequences calls emit with the byte-range sequences that match exactly
// the UTF-8 encodings of the scalar values of cls, in ascending order
// (regex-syntax's Utf8Sequences). The slice passed to emit is reused.
func UTF8Sequences(cls RuneClass, emit func([]ByteRange)) {
	var stack []RuneRange
	var buf [4]ByteRange
	for i := len(cls) - 1; i >= 0; i-- {
		stack = append(stack, cls[i])
	}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
	inner:
		for {
			s, e := r.Lo, r.Hi
			// Surrogates are not scalar values.
			if s <= 0xDFFF && e >= 0xD800 {
				if s < 0xD800 {
					if e > 0xDFFF {
						stack = append(stack, RuneRange{0xE000, e})
					}
					r = RuneRange{s, 0xD7FF}
					continue
				}
				if e > 0xDFFF {
					r = RuneRange{0xE000, e}
					continue
				}
				break inner
			}
			for _, m := range [3]rune{0x7F, 0x7FF, 0xFFFF} {
				if s <= m && e > m {
					stack = append(stack, RuneRange{m + 1, e})
					r = RuneRange{s, m}
					continue inner
				}
			}
			if e <= 0x7F {
				buf[0] = ByteRange{byte(s), byte(e)}
				emit(buf[:1])
				break inner
			}
			for i := uint(1); i < 4; i++ {
				m := rune(1)<<(6*i) - 1
				if s&^m != e&^m {
					if s&m != 0 {
						stack = append(stack, RuneRange{(s | m) + 1, e})
						r = RuneRange{s, s | m}
						continue inner
					}
					if e&m != m {
						stack = append(stack, RuneRange{e &^ m, e})
						r = RuneRange{s, (e &^ m) - 1}
						continue inner
					}
				}
			}
			var sb, eb [4]byte
			n := utf8.EncodeRune(sb[:], s)
			utf8.EncodeRune(eb[:], e)
			for i := 0; i < n; i++ {
				buf[i] = ByteRange{sb[i], eb[i]}
			}
			emit(buf[:n])
			break inner
		}
	}
}
