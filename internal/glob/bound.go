package glob

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// maxNestCost bounds how deeply braces may nest. The reference compiles a
// glob into a regex whose parser refuses more than 250 levels of nesting; a
// group of alternatives ("{a,b}") costs it two levels, a group without a
// comma ("{a}") one. Patterns the reference accepts stay accepted (124
// nested "{a," or 249 nested "{a"); deeper ones are refused with a clear
// message rather than the reference's "error parsing pattern 0".
const maxNestCost = 250

// checkNesting returns why p nests braces too deeply, or "". Classes are
// skipped as check skips them.
func checkNesting(p string) string {
	// costs holds, per open brace, 1 plus 1 once a comma was seen in it.
	var costs []int
	total := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '[':
			i = classEnd(p, i)
		case '{':
			costs = append(costs, 1)
			total++
		case ',':
			if n := len(costs); n > 0 && costs[n-1] == 1 {
				costs[n-1] = 2
				total++
			}
		case '}':
			if n := len(costs); n > 0 {
				total -= costs[n-1]
				costs = costs[:n-1]
			}
		}
		if total >= maxNestCost {
			return fmt.Sprintf("braces nest too deeply (over %d levels; a group with a comma counts twice)", maxNestCost-1)
		}
	}
	return ""
}

// collapseEmptyGroups reduces nested groups that hold nothing ("{{{}}}")
// to one "{}": the reference answers "{" repeated 10000 times (which
// Normalize closes) as a pattern with one empty group, whereas keeping
// every level would nest past maxNestCost. Classes are left alone.
func collapseEmptyGroups(p string) string {
	if !strings.Contains(p, "{{}}") {
		return p
	}
	out := make([]byte, 0, len(p))
	var opens []int // offsets in out of the open '{'
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '[':
			end := classEnd(p, i)
			out = append(out, p[i:end+1]...)
			i = end
		case '{':
			opens = append(opens, len(out))
			out = append(out, c)
		case '}':
			if n := len(opens); n > 0 {
				if opens[n-1] == len(out)-3 && string(out[len(out)-2:]) == "{}" {
					out = out[:len(out)-2]
				}
				opens = opens[:n-1]
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return string(out)
}

// classEnd returns the index of the ']' closing the class opened at p[i]
// (with globset's rules: a ']' first, after an optional '!' or '^', is a
// member), or len(p)-1 when it is unclosed.
func classEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for j < len(p) && p[j] != ']' {
		j++
	}
	return min(j, len(p)-1)
}

// maxBacktrackExpansions is the number of brace expansions above which a
// pattern is matched by a regular expression (linear time) instead of
// doublestar, whose brace matching tries every expansion in turn: "{a,a}"
// repeated 25 times took seconds against one short path.
const maxBacktrackExpansions = 64

// expansions returns how many brace-free patterns the doublestar pattern p
// expands to, saturating at limit+1.
func expansions(p string, limit int) int {
	n, _ := expandCount(p, 0, limit, false)
	return n
}

// expandCount counts the expansions of the sequence starting at p[i], up
// to the end of p or, when inGroup, to the ',' or '}' that ends the
// alternative; it returns the count and the index where it stopped.
func expandCount(p string, i, limit int, inGroup bool) (int, int) {
	total := 1
	for i < len(p) {
		switch p[i] {
		case '\\':
			i += 2
			continue
		case '[':
			i = doublestarClassEnd(p, i) + 1
			continue
		case ',', '}':
			if inGroup {
				return total, i
			}
		case '{':
			sum := 0
			j := i + 1
			for {
				var n int
				n, j = expandCount(p, j, limit, true)
				sum = min(sum+n, limit+1)
				if j >= len(p) || p[j] == '}' {
					break
				}
				j++ // the ','
			}
			total = min(total*sum, limit+1)
			i = j + 1
			continue
		}
		i++
	}
	return total, i
}

// doublestarClassEnd returns the index of the ']' closing the class opened
// at p[i] in a doublestar pattern ('\' escapes), or len(p)-1.
func doublestarClassEnd(p string, i int) int {
	for j := i + 1; j < len(p); j++ {
		switch p[j] {
		case '\\':
			j++
		case ']':
			return j
		}
	}
	return len(p) - 1
}

// braceQuirk reports whether p may meet one of doublestar's brace quirks,
// where it answers differently from globset (and the regular expression):
//   - an alternative ending in '/': doublestar's end-of-name rule lets
//     "{a/**/,b}" match "a";
//   - an empty alternative: doublestar's end-of-name rule does not see
//     through it, so "x*{}" missed "x";
//   - a '*' ending one piece of an expansion next to a '*' starting the
//     next: doublestar expands braces textually, so "{*}*/*" becomes the
//     recursive "**/*".
//
// The second check is conservative (a '*' before and another after a brace
// delimiter) and stays false on the common "*.{ts,js}" and "{*.ts,*.js}".
func braceQuirk(p string) bool {
	for _, s := range []string{"/,", "/}", "{}", "{,", ",,", ",}"} {
		if strings.Contains(p, s) {
			return true
		}
	}
	starBefore, starAfter := false, false
	for i := 0; i < len(p); i++ {
		if p[i] != '*' {
			continue
		}
		if i+1 < len(p) && strings.IndexByte("{,}", p[i+1]) >= 0 {
			starBefore = true
		}
		if i > 0 && strings.IndexByte("{,}", p[i-1]) >= 0 {
			starAfter = true
		}
	}
	return starBefore && starAfter
}

// classMatchesSlash reports whether a class of the doublestar pattern p
// matches '/' (a negated class does, unless it lists '/'): such a pattern
// can match across components, as globset's does.
func classMatchesSlash(p string) bool {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			end := doublestarClassEnd(p, i)
			var b strings.Builder
			writeClass(&b, p[i+1:end])
			if re, err := regexp.Compile(b.String()); err != nil || re.MatchString("/") {
				return true
			}
			i = end
		}
	}
	return false
}

// compileRegexp translates a doublestar pattern, as produced by translate,
// into an anchored regular expression that matches the same paths as
// globset: '*' and '?' stay within a component, "**/" at the start of a
// component matches any number of whole components, braces become
// alternations without their empty branches (globset drops them: "{,a}b"
// matches "ab" only; a group of empty branches matches "" and counts as
// empty in turn), and classes
// keep doublestar's reading (a negated class matches '/' too).
func compileRegexp(p string) (*regexp.Regexp, error) {
	body, _ := regexpSeq(p, 0, false)
	return regexp.Compile(`(?s)\A` + body + `\z`)
}

// regexpSeq translates the sequence starting at p[i], up to the end of p
// or, when inGroup, to the ',' or '}' ending the branch; it returns the
// expression and the index where it stopped.
func regexpSeq(p string, i int, inGroup bool) (string, int) {
	var b strings.Builder
	for i < len(p) {
		c := p[i]
		switch {
		case inGroup && (c == ',' || c == '}'):
			return b.String(), i
		case c == '*' && strings.HasPrefix(p[i:], "**") && (i == 0 || p[i-1] == '/'):
			switch {
			case i+2 == len(p):
				b.WriteString(`.*`)
				i += 2
			case p[i+2] == '/':
				b.WriteString(`(?:.*/)?`)
				i += 3
			default:
				b.WriteString(`[^/]*`)
				i += 2
			}
		case c == '*':
			b.WriteString(`[^/]*`)
			i++
		case c == '?':
			b.WriteString(`[^/]`)
			i++
		case c == '[':
			end := doublestarClassEnd(p, i)
			writeClass(&b, p[i+1:end])
			i = end + 1
		case c == '{':
			var branches []string
			j := i + 1
			for {
				var br string
				br, j = regexpSeq(p, j, true)
				if br != "" {
					branches = append(branches, br)
				}
				if j >= len(p) || p[j] == '}' {
					break
				}
				j++ // the ','
			}
			// A group of empty branches matches "" and is itself an empty
			// branch of an enclosing group (globset drops empty regexes).
			if len(branches) > 0 {
				b.WriteString(`(?:` + strings.Join(branches, "|") + `)`)
			}
			i = j + 1
		default:
			if c == '\\' && i+1 < len(p) {
				i++
			}
			r, size := utf8.DecodeRuneInString(p[i:])
			fmt.Fprintf(&b, `\x{%x}`, r)
			i += size
		}
	}
	return b.String(), i
}

// writeClass writes the doublestar class body (between '[' and ']') as a
// regular expression class: an optional leading '!' or '^' negates, '\'
// escapes, "a-z" is a range. A descending range matches nothing, as in
// doublestar.
func writeClass(b *strings.Builder, body string) {
	negate := len(body) > 0 && (body[0] == '!' || body[0] == '^')
	if negate {
		body = body[1:]
	}
	var items []string
	last := rune(-1)
	for len(body) > 0 {
		r, size := utf8.DecodeRuneInString(body)
		body = body[size:]
		if r == '-' && last >= 0 && len(body) > 0 {
			if body[0] == '\\' {
				body = body[1:]
			}
			hi, size := utf8.DecodeRuneInString(body)
			body = body[size:]
			items = items[:len(items)-1]
			if last <= hi {
				items = append(items, fmt.Sprintf(`\x{%x}-\x{%x}`, last, hi))
			}
			last = -1
			continue
		}
		if r == '\\' && len(body) > 0 {
			r, size = utf8.DecodeRuneInString(body)
			body = body[size:]
		}
		items = append(items, fmt.Sprintf(`\x{%x}`, r))
		last = r
	}
	switch {
	case len(items) == 0 && negate:
		b.WriteString(`[\x{0}-\x{10ffff}]`)
	case len(items) == 0:
		b.WriteString(`[^\x{0}-\x{10ffff}]`)
	default:
		b.WriteByte('[')
		if negate {
			b.WriteByte('^')
		}
		b.WriteString(strings.Join(items, ""))
		b.WriteByte(']')
	}
}
