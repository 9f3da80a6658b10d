package syntax

import "strings"

// Parse returns the hir of pattern as the reference builds it: braces that
// cannot be a repetition escaped, the pattern wrapped in (?:...), parsed
// and translated with the given flags (Unicode on), and, when parsing fails
// with an unclosed or unopened group, the parentheses escaped and the
// pattern tried once more. A rejection is an error whose message is the
// reference's ("regex parse error: ..." with the carets); IsBacktrackError
// tells the ones a backtracking engine may lift.
func Parse(pattern string, ignoreCase, multiLine bool) (*Hir, error) {
	f := hirFlags{caseInsensitive: ignoreCase, multiLine: multiLine, unicode: true}
	sanitized := sanitizeBraces(pattern)
	h, err := parseWrapped(sanitized, f)
	if err != nil {
		msg := err.Error()
		if strings.Contains(msg, "unclosed group") || strings.Contains(msg, "unopened group") {
			if esc := escapeParens(sanitized); esc != sanitized {
				h, err = parseWrapped(esc, f)
			}
		}
	}
	return h, err
}

// parseWrapped parses and translates one candidate pattern the way
// grep-regex does: the pattern is wrapped in (?:...), which is why error
// messages show it so.
func parseWrapped(p string, f hirFlags) (*Hir, error) {
	wrapped := "(?:" + p + ")"
	a, e := parseRust(wrapped)
	if e != nil {
		return nil, e
	}
	h, e := translate(wrapped, a, f)
	if e != nil {
		return nil, e
	}
	return h, nil
}
