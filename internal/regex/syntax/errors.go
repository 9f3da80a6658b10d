package syntax

import (
	"errors"
	"sort"
	"strconv"
	"strings"
)

type errKind int

const (
	errCaptureLimitExceeded errKind = iota
	errClassEscapeInvalid
	errClassRangeInvalid
	errClassRangeLiteral
	errClassUnclosed
	errDecimalEmpty
	errDecimalInvalid
	errEscapeHexEmpty
	errEscapeHexInvalid
	errEscapeHexInvalidDigit
	errEscapeUnexpectedEOF
	errEscapeUnrecognized
	errFlagDanglingNegation
	errFlagDuplicate
	errFlagRepeatedNegation
	errFlagUnexpectedEOF
	errFlagUnrecognized
	errGroupNameDuplicate
	errGroupNameEmpty
	errGroupNameInvalid
	errGroupNameUnexpectedEOF
	errGroupUnclosed
	errGroupUnopened
	errNestLimitExceeded
	errRepetitionCountInvalid
	errRepetitionCountDecimalEmpty
	errRepetitionCountUnclosed
	errRepetitionMissing
	errSpecialWordBoundaryUnclosed
	errSpecialWordBoundaryUnrecognized
	errSpecialWordOrRepetitionUnexpectedEOF
	errUnicodeClassInvalid
	errUnsupportedBackreference
	errUnsupportedLookAround
	// Errors of the translation to the hir.
	errUnicodeNotAllowed
	errUnicodePropertyNotFound
	errUnicodePropertyValueNotFound
)

var errMessages = [...]string{
	errCaptureLimitExceeded:                 "exceeded the maximum number of capturing groups (4294967295)",
	errClassEscapeInvalid:                   "invalid escape sequence found in character class",
	errClassRangeInvalid:                    "invalid character class range, the start must be <= the end",
	errClassRangeLiteral:                    "invalid range boundary, must be a literal",
	errClassUnclosed:                        "unclosed character class",
	errDecimalEmpty:                         "decimal literal empty",
	errDecimalInvalid:                       "decimal literal invalid",
	errEscapeHexEmpty:                       "hexadecimal literal empty",
	errEscapeHexInvalid:                     "hexadecimal literal is not a Unicode scalar value",
	errEscapeHexInvalidDigit:                "invalid hexadecimal digit",
	errEscapeUnexpectedEOF:                  "incomplete escape sequence, reached end of pattern prematurely",
	errEscapeUnrecognized:                   "unrecognized escape sequence",
	errFlagDanglingNegation:                 "dangling flag negation operator",
	errFlagDuplicate:                        "duplicate flag",
	errFlagRepeatedNegation:                 "flag negation operator repeated",
	errFlagUnexpectedEOF:                    "expected flag but got end of regex",
	errFlagUnrecognized:                     "unrecognized flag",
	errGroupNameDuplicate:                   "duplicate capture group name",
	errGroupNameEmpty:                       "empty capture group name",
	errGroupNameInvalid:                     "invalid capture group character",
	errGroupNameUnexpectedEOF:               "unclosed capture group name",
	errGroupUnclosed:                        "unclosed group",
	errGroupUnopened:                        "unopened group",
	errNestLimitExceeded:                    "exceed the maximum number of nested parentheses/brackets (" + strconv.Itoa(NestLimit) + ")",
	errRepetitionCountInvalid:               "invalid repetition count range, the start must be <= the end",
	errRepetitionCountDecimalEmpty:          "repetition quantifier expects a valid decimal",
	errRepetitionCountUnclosed:              "unclosed counted repetition",
	errRepetitionMissing:                    "repetition operator missing expression",
	errSpecialWordBoundaryUnclosed:          "special word boundary assertion is either unclosed or contains an invalid character",
	errSpecialWordBoundaryUnrecognized:      "unrecognized special word boundary assertion, valid choices are: start, end, start-half or end-half",
	errSpecialWordOrRepetitionUnexpectedEOF: "found either the beginning of a special word boundary or a bounded repetition on a \\b with an opening brace, but no closing brace",
	errUnicodeClassInvalid:                  "invalid Unicode character class",
	errUnsupportedBackreference:             "backreferences are not supported",
	errUnsupportedLookAround:                "look-around, including look-ahead and look-behind, is not supported",
	errUnicodeNotAllowed:                    "Unicode not allowed here",
	errUnicodePropertyNotFound:              "Unicode property not found",
	errUnicodePropertyValueNotFound:         "Unicode property value not found",
}

// syntaxError is a parse or translation error located in the pattern, the
// counterpart of regex-syntax's ast::Error and hir::Error.
type syntaxError struct {
	kind    errKind
	pattern string
	span    span
	aux     *span
}

// Error renders the error exactly like regex-syntax's error formatter: the
// pattern with carets under the offending spans, then the message.
func (e *syntaxError) Error() string {
	spans := []span{e.span}
	if e.aux != nil {
		spans = append(spans, *e.aux)
	}
	lines, lineCount := patternLines(e.pattern)
	byLine, multi := spansByLine(spans, lineCount)
	notated := notate(lines, lineCount, byLine)
	var b strings.Builder
	b.WriteString("regex parse error:\n")
	if strings.Contains(e.pattern, "\n") {
		divider := strings.Repeat("~", 79)
		b.WriteString(divider)
		b.WriteByte('\n')
		b.WriteString(notated)
		b.WriteString(divider)
		b.WriteByte('\n')
		if len(multi) > 0 {
			b.WriteString(multiLineNotes(multi))
			b.WriteByte('\n')
		}
	} else {
		b.WriteString(notated)
	}
	b.WriteString("error: ")
	b.WriteString(errMessages[e.kind])
	return b.String()
}

// patternLines splits pattern into the lines the formatter shows, each
// without a final '\r', and returns the number of lines it counts: Rust's
// str::lines drops a final empty line, but the formatter counts it back
// when the pattern ends with a newline.
func patternLines(pattern string) (lines []string, lineCount int) {
	lines = strings.Split(pattern, "\n")
	lineCount = len(lines)
	if lineCount > 1 && lines[lineCount-1] == "" {
		lines = lines[:lineCount-1]
	}
	for i := range lines {
		lines[i] = strings.TrimSuffix(lines[i], "\r")
	}
	return lines, lineCount
}

// spansByLine sorts out spans: those within one line go to byLine, indexed
// by that line (0-based, of lineCount; a span off those lines is left out),
// the others to multi. Each list is in the order of spanLess.
func spansByLine(spans []span, lineCount int) (byLine [][]span, multi []span) {
	byLine = make([][]span, lineCount)
	for _, s := range spans {
		if s.isOneLine() {
			i := s.start.line - 1
			if i >= 0 && i < lineCount {
				byLine[i] = append(byLine[i], s)
			}
		} else {
			multi = append(multi, s)
		}
	}
	for i := range byLine {
		sort.Slice(byLine[i], func(x, y int) bool { return spanLess(byLine[i][x], byLine[i][y]) })
	}
	sort.Slice(multi, func(x, y int) bool { return spanLess(multi[x], multi[y]) })
	return byLine, multi
}

// spanLess orders spans by start offset, then by end offset.
func spanLess(a, b span) bool {
	if a.start.offset != b.start.offset {
		return a.start.offset < b.start.offset
	}
	return a.end.offset < b.end.offset
}

// notate renders the pattern's lines, numbered when it has several
// (lineCount > 1) and indented by four spaces otherwise, each followed,
// when it holds spans (byLine), by a line of carets under them.
func notate(lines []string, lineCount int, byLine [][]span) string {
	width := 0
	if lineCount > 1 {
		width = len(strconv.Itoa(lineCount))
	}
	var b strings.Builder
	for i, line := range lines {
		if width > 0 {
			num := strconv.Itoa(i + 1)
			b.WriteString(strings.Repeat(" ", width-len(num)))
			b.WriteString(num)
			b.WriteString(": ")
		} else {
			b.WriteString("    ")
		}
		b.WriteString(line)
		b.WriteByte('\n')
		if len(byLine[i]) > 0 {
			pad := 4
			if width > 0 {
				pad = 2 + width
			}
			writeCarets(&b, pad, byLine[i])
		}
	}
	return b.String()
}

// writeCarets writes the caret line under one line of the pattern: pad
// spaces for its prefix, then carets under the columns of each of spans
// (sorted; at least one caret each), then a newline.
func writeCarets(b *strings.Builder, pad int, spans []span) {
	b.WriteString(strings.Repeat(" ", pad))
	pos := 0
	for _, s := range spans {
		for ; pos < s.start.column-1; pos++ {
			b.WriteByte(' ')
		}
		n := s.end.column - s.start.column
		if n < 1 {
			n = 1
		}
		b.WriteString(strings.Repeat("^", n))
		pos += n
	}
	b.WriteByte('\n')
}

// multiLineNotes describes the spans over several lines, one a line:
// "on line L (column C) through line L' (column C')", the end column that
// of the span's last character.
func multiLineNotes(multi []span) string {
	notes := make([]string, len(multi))
	for i, s := range multi {
		notes[i] = "on line " + strconv.Itoa(s.start.line) + " (column " + strconv.Itoa(s.start.column) +
			") through line " + strconv.Itoa(s.end.line) + " (column " + strconv.Itoa(s.end.column-1) + ")"
	}
	return strings.Join(notes, "\n")
}

// IsBacktrackError reports whether err, a Rust-dialect rejection, is one
// the backtracking engine may lift.
func IsBacktrackError(err error) bool {
	var se *syntaxError
	if !errors.As(err, &se) {
		return false
	}
	switch se.kind {
	case errUnsupportedLookAround, errUnsupportedBackreference:
		return true
	case errEscapeUnrecognized:
		// \k<name>, \k{name}, \g1, \g{1}
		s := se.span.start.offset
		return s+1 < len(se.pattern) && (se.pattern[s+1] == 'k' || se.pattern[s+1] == 'g')
	case errFlagUnrecognized:
		// (?P=name)
		return strings.Contains(se.pattern, "(?P=")
	}
	return false
}
