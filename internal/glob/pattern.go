// Package pattern normalises glob patterns the way the reference does and
// matches relative, '/'-separated paths against them with globset semantics
// (a literal separator: '*' and '?' never cross '/').
package glob

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// Normalize applies the reference's pattern rules: trim, empty becomes "*",
// '\' becomes '/', a recursive pattern gains a "**/" prefix unless it
// contains '/', starts with "**" or is an exact brace union of plain names
// ("{a.txt,b.txt}"), and unbalanced '{' get their closing '}' appended.
// Nested empty brace groups are then collapsed into one "{}".
func Normalize(p string, recursive bool) string {
	p = strings.TrimSpace(p)
	if p == "" {
		p = "*"
	}
	p = strings.ReplaceAll(p, `\`, "/")
	if recursive && !strings.Contains(p, "/") && !strings.HasPrefix(p, "**") && !isBraceUnion(p) {
		p = "**/" + p
	}
	return collapseEmptyGroups(closeBraces(p))
}

// isBraceUnion reports whether p is "{name,name,...}" with plain names only.
func isBraceUnion(p string) bool {
	if len(p) < 2 || p[0] != '{' || p[len(p)-1] != '}' {
		return false
	}
	return !strings.ContainsAny(p[1:len(p)-1], "{}*?[]")
}

// closeBraces appends one '}' per '{' left open.
func closeBraces(p string) string {
	depth := 0
	inClass := false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
			// A ']' right after '[' or "[!" is a member, not the end.
			if i+1 < len(p) && (p[i+1] == '!' || p[i+1] == '^') {
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				i++
			}
		case c == '{':
			depth++
		case c == '}':
			if depth > 0 {
				depth--
			}
		}
	}
	if depth > 0 {
		p += strings.Repeat("}", depth)
	}
	return p
}

// Matcher matches relative paths against one compiled pattern. It is
// immutable and safe for concurrent use.
type Matcher struct {
	pattern string
	// any is true when the pattern matches every non-empty path.
	any bool
	// base, when set, is a pattern for the last path component alone: the
	// pattern was "**/" followed by one component without "**".
	base string
	// suffix, when set, is the literal that the last component must end
	// with (base was "*" + suffix, suffix free of metacharacters).
	suffix string
	// literal, when set, is the exact last component (base had no
	// metacharacters).
	literal string
	// never is set for patterns no path can match (a trailing '/': entries
	// never end with one).
	never bool
	// bytewise is set when '?' or a class occurs: globset matches those
	// against single bytes, doublestar against characters, so non-ASCII
	// paths are matched in their Latin-1 spelling, one rune per byte.
	bytewise bool
	// bytePattern and byteBase are pattern and base in that spelling.
	bytePattern, byteBase string
	// re, when set, replaces doublestar for the whole pattern: the pattern
	// has more brace expansions than doublestar can try in reasonable time
	// (see maxBacktrackExpansions). It is in the byte spelling when
	// bytewise.
	re *regexp.Regexp
}

// Compile validates a normalised pattern. The error text mirrors globset's:
// "error parsing glob '<pattern>': <reason>".
func Compile(p string) (*Matcher, error) {
	if reason := check(p); reason != "" {
		return nil, fmt.Errorf("error parsing glob '%s': %s", p, reason)
	}
	m := &Matcher{pattern: translate(p)}
	switch {
	case p == "**" || p == "**/" || p == "**/**":
		m.any = true
	case strings.HasSuffix(p, "/"):
		m.never = true
	}
	if rest, ok := strings.CutPrefix(m.pattern, "**/"); ok && !strings.ContainsAny(rest, "/{}") && !strings.Contains(rest, "**") &&
		!classMatchesSlash(rest) {
		m.base = rest
		switch {
		case !strings.ContainsAny(rest, `*?[]\`):
			m.literal = rest
		case rest[0] == '*' && !strings.ContainsAny(rest[1:], `*?[]\`):
			m.suffix = rest[1:]
		}
	}
	if strings.ContainsAny(p, "?[") {
		m.bytewise = true
		m.bytePattern, m.byteBase = latin1(m.pattern), latin1(m.base)
	}
	if !doublestar.ValidatePattern(m.pattern) {
		return nil, fmt.Errorf("error parsing glob '%s': invalid pattern", p)
	}
	// A class that matches '/' (a negated one) lets a match cross
	// components, which doublestar's one-star backtracking misses ("**/*[!a]*"
	// against "0/a"); globset's regular expression does not.
	if expansions(m.pattern, maxBacktrackExpansions) > maxBacktrackExpansions || braceQuirk(m.pattern) ||
		classMatchesSlash(m.pattern) {
		src := m.pattern
		if m.bytewise {
			src = m.bytePattern
		}
		re, err := compileRegexp(src)
		if err != nil {
			return nil, fmt.Errorf("error parsing glob '%s': %v", p, err)
		}
		m.re = re
	}
	return m, nil
}

// translate rewrites a globset pattern into the doublestar pattern that
// matches the same paths. Normalised patterns hold no '\', so escapes are
// free to use here.
//   - "**" is recursive in globset only as a whole component (after the start,
//     '/' and before the end, '/', or, in an alternative, ',' and '}');
//     elsewhere it is a plain '*'.
//   - a trailing "/**" matches what is inside a directory, not the directory
//     itself, whereas doublestar's also matches the directory: add "/*".
//   - a ']' first in a class is a member: escape it.
func translate(p string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '[':
			j := i + 1
			b.WriteByte('[')
			if j < len(p) && (p[j] == '!' || p[j] == '^') {
				b.WriteByte(p[j])
				j++
			}
			if j < len(p) && p[j] == ']' {
				b.WriteString(`\]`)
				j++
			}
			for j < len(p) && p[j] != ']' {
				b.WriteByte(p[j])
				j++
			}
			if j < len(p) {
				b.WriteByte(']')
			}
			i = j
		case c == '{':
			depth++
			b.WriteByte(c)
		case c == '}':
			depth--
			b.WriteByte(c)
		case c == '*' && i+1 < len(p) && p[i+1] == '*':
			n := i
			for n < len(p) && p[n] == '*' {
				n++
			}
			before := i == 0 || p[i-1] == '/'
			after := n == len(p) || p[n] == '/' || depth > 0 && (p[n] == ',' || p[n] == '}')
			if !before || !after || n-i > 2 {
				b.WriteByte('*')
			} else {
				b.WriteString("**")
				if i > 0 && (n == len(p) || p[n] != '/') {
					b.WriteString("/*")
				}
			}
			i = n - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// check returns globset's reason for rejecting p, or "" when p is valid.
func check(p string) string {
	if r := checkNesting(p); r != "" {
		return r
	}
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '[':
			j := i + 1
			if j < len(p) && (p[j] == '!' || p[j] == '^') {
				j++
			}
			start := j
			if j < len(p) && p[j] == ']' {
				j++
			}
			for j < len(p) && p[j] != ']' {
				j++
			}
			if j >= len(p) {
				return "unclosed character class; missing ']'"
			}
			if r := checkRanges(p[start:j]); r != "" {
				return r
			}
			i = j
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return "unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)"
			}
			depth--
		}
	}
	return ""
}

// checkRanges rejects a class body with a descending range such as "z-a".
func checkRanges(body string) string {
	rs := []rune(body)
	for i := 1; i+1 < len(rs); i++ {
		if rs[i] == '-' && rs[i-1] > rs[i+1] {
			return fmt.Sprintf("invalid range; '%c' > '%c'", rs[i-1], rs[i+1])
		}
	}
	return ""
}

// Match reports whether the relative path rel matches.
func (m *Matcher) Match(rel string) bool {
	if m.any {
		return rel != ""
	}
	if m.never {
		return false
	}
	if m.re != nil {
		if m.bytewise {
			rel = latin1(rel)
		}
		return m.re.MatchString(rel)
	}
	if m.bytewise && !ascii(rel) {
		if m.base != "" {
			return doublestar.MatchUnvalidated(m.byteBase, latin1(rel[strings.LastIndexByte(rel, '/')+1:]))
		}
		return doublestar.MatchUnvalidated(m.bytePattern, latin1(rel))
	}
	if m.base != "" {
		// literal and suffix hold no '/': they are tested on the whole
		// path, without looking for the last component.
		switch {
		case m.literal != "":
			n := len(rel) - len(m.literal)
			return strings.HasSuffix(rel, m.literal) && (n == 0 || rel[n-1] == '/')
		case m.suffix != "" || m.base == "*":
			return strings.HasSuffix(rel, m.suffix)
		}
		return doublestar.MatchUnvalidated(m.base, rel[strings.LastIndexByte(rel, '/')+1:])
	}
	return doublestar.MatchUnvalidated(m.pattern, rel)
}

// ascii reports whether s is all ASCII.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// latin1 spells every byte of s as the rune of the same value, so that
// rune-wise matching of the result is byte-wise matching of s.
func latin1(s string) string {
	if ascii(s) {
		return s
	}
	b := make([]byte, 0, 2*len(s))
	for i := 0; i < len(s); i++ {
		b = utf8.AppendRune(b, rune(s[i]))
	}
	return string(b)
}

// String returns the pattern as compiled.
func (m *Matcher) String() string { return m.pattern }
