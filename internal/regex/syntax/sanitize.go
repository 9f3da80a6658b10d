package syntax

import "strings"

// sanitizeBraces escapes every `{` and `}` that cannot start or end a counted
// repetition, exactly like the reference does before compiling: `{N}`,
// `{N,}` and `{N,M}` (ASCII digits only, no spaces) stay, as do the braces
// right after `\p`, `\P`, `\x` and `\u`; any other brace becomes `\{` or `\}`.
// The text after any other backslash is copied verbatim.
func sanitizeBraces(p string) string {
	if !strings.ContainsAny(p, "{}") {
		return p
	}
	var b strings.Builder
	b.Grow(len(p) + 8)
	modified := false
	n := len(p)
	for i := 0; i < n; {
		c := p[i]
		if c == '\\' && i+1 < n {
			b.WriteByte('\\')
			i++
			_, w := decodeRuneStr(p[i:])
			ch := p[i]
			b.WriteString(p[i : i+w])
			i += w
			if (ch == 'p' || ch == 'P' || ch == 'x' || ch == 'u') && i < n && p[i] == '{' {
				if end := strings.IndexByte(p[i+1:], '}'); end >= 0 {
					end += i + 1
					b.WriteString(p[i : end+1])
					i = end + 1
				} else {
					b.WriteString(p[i:])
					i = n
				}
			}
			continue
		}
		switch c {
		case '{':
			if end := validRepetitionEnd(p, i); end >= 0 {
				b.WriteString(p[i : end+1])
				i = end + 1
				continue
			}
			b.WriteString(`\{`)
			modified = true
			i++
		case '}':
			b.WriteString(`\}`)
			modified = true
			i++
		default:
			_, w := decodeRuneStr(p[i:])
			b.WriteString(p[i : i+w])
			i += w
		}
	}
	if !modified {
		return p
	}
	return b.String()
}

// validRepetitionEnd reports the index of the `}` closing a counted
// repetition `{N}`, `{N,}` or `{N,M}` that starts at p[start] == '{', or -1.
func validRepetitionEnd(p string, start int) int {
	i := start + 1
	n := len(p)
	if i >= n || !isDigit(p[i]) {
		return -1
	}
	for i < n && isDigit(p[i]) {
		i++
	}
	if i >= n {
		return -1
	}
	if p[i] == '}' {
		return i
	}
	if p[i] != ',' {
		return -1
	}
	i++
	if i >= n {
		return -1
	}
	for i < n && isDigit(p[i]) {
		i++
	}
	if i < n && p[i] == '}' {
		return i
	}
	return -1
}

// escapeParens escapes every unescaped `(` and `)`; the reference retries a
// pattern this way once when the first compile failed on an unclosed or
// unopened group, so that `hello(` searches for the text `hello(`.
func escapeParens(p string) string {
	if !strings.ContainsAny(p, "()") {
		return p
	}
	var b strings.Builder
	b.Grow(len(p) + 4)
	n := len(p)
	for i := 0; i < n; {
		if p[i] == '\\' && i+1 < n {
			b.WriteByte('\\')
			i++
			_, w := decodeRuneStr(p[i:])
			b.WriteString(p[i : i+w])
			i += w
			continue
		}
		if p[i] == '(' || p[i] == ')' {
			b.WriteByte('\\')
		}
		_, w := decodeRuneStr(p[i:])
		b.WriteString(p[i : i+w])
		i += w
	}
	return b.String()
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
