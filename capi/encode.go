package main

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/fscache/fscache/internal/engine"
	"github.com/fscache/fscache/internal/walk"
)

// appendString appends s as a JSON string. Invalid UTF-8 bytes become
// U+FFFD, as Rust's lossy conversion does. The output is ASCII: every
// non-ASCII character is written as a \u escape (a surrogate pair beyond
// U+FFFF), so that the Node addon can hand a result to JSON.parse as a
// one-byte string without decoding or copying it.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		b = append(b, s[start:i]...)
		if r == utf8.RuneError && n == 1 {
			r = utf8.RuneError
		}
		b = appendRuneEscape(b, r)
		i += n
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

const hex = "0123456789abcdef"

// appendRuneEscape appends r as a JSON \u escape, a surrogate pair beyond
// the BMP.
func appendRuneEscape(b []byte, r rune) []byte {
	if r >= 0x10000 {
		r1, r2 := utf16.EncodeRune(r)
		b = appendRuneEscape(b, r1)
		return appendRuneEscape(b, r2)
	}
	return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}

func appendGlobMatch(b []byte, m engine.GlobMatch) []byte {
	b = append(b, `{"path":`...)
	b = appendString(b, m.Path)
	b = append(b, `,"fileType":`...)
	b = strconv.AppendInt(b, int64(m.Type), 10)
	if m.Mtime >= 0 { // none before the epoch, as in pi-natives
		// Milliseconds with their fraction, in the shortest form that reads
		// back as the same float64 (JSON.parse then gives 18.2's number).
		b = append(b, `,"mtime":`...)
		b = strconv.AppendFloat(b, walk.MtimeMs(m.Mtime), 'f', -1, 64)
	}
	if m.Size >= 0 {
		b = append(b, `,"size":`...)
		b = strconv.AppendInt(b, m.Size, 10)
	}
	return append(b, '}')
}

func appendFuzzyResult(b []byte, r engine.FuzzyFindResult) []byte {
	b = append(b, `{"matches":[`...)
	for i, m := range r.Matches {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"path":`...)
		b = appendString(b, m.Path)
		b = append(b, `,"isDirectory":`...)
		b = strconv.AppendBool(b, m.IsDirectory)
		b = append(b, `,"score":`...)
		b = strconv.AppendInt(b, int64(m.Score), 10)
		b = append(b, '}')
	}
	b = append(b, `],"totalMatches":`...)
	b = strconv.AppendInt(b, int64(r.TotalMatches), 10)
	return append(b, '}')
}

func appendContext(b []byte, name string, lines []engine.ContextLine) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, `":[`...)
	for i, l := range lines {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"lineNumber":`...)
		b = strconv.AppendInt(b, int64(l.LineNumber), 10)
		b = append(b, `,"line":`...)
		b = appendString(b, l.Line)
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendGrepMatch(b []byte, m engine.GrepMatch) []byte {
	b = append(b, `{"path":`...)
	b = appendString(b, m.Path)
	b = append(b, `,"lineNumber":`...)
	b = strconv.AppendInt(b, int64(m.LineNumber), 10)
	b = append(b, `,"line":`...)
	b = appendString(b, m.Line)
	if m.ContextBefore != nil {
		b = appendContext(b, "contextBefore", m.ContextBefore)
	}
	if m.ContextAfter != nil {
		b = appendContext(b, "contextAfter", m.ContextAfter)
	}
	if m.Truncated {
		b = append(b, `,"truncated":true`...)
	}
	if m.Lossy {
		b = append(b, `,"lossy":true`...)
	}
	if m.CRBefore {
		b = append(b, `,"crBefore":true`...)
	}
	if m.MatchCount != nil {
		b = append(b, `,"matchCount":`...)
		b = strconv.AppendInt(b, int64(*m.MatchCount), 10)
	}
	return append(b, '}')
}

// grepResultSize estimates the size of r's JSON, escapes aside: the
// buffer okEncoded writes it into.
func grepResultSize(r *engine.GrepResult) int {
	n := 160
	engine.EachMatch(r, func(m *engine.GrepMatch) error {
		n += 64 + len(m.Path) + len(m.Line)
		for _, c := range m.ContextBefore {
			n += 40 + len(c.Line)
		}
		for _, c := range m.ContextAfter {
			n += 40 + len(c.Line)
		}
		return nil
	})
	return n + n/32
}

// fuzzyResultSize estimates the size of r's JSON, escapes aside.
func fuzzyResultSize(r engine.FuzzyFindResult) int {
	n := 64
	for i := range r.Matches {
		n += 56 + len(r.Matches[i].Path)
	}
	return n + n/32
}

func appendGrepResult(b []byte, r *engine.GrepResult) []byte {
	b = append(b, `{"matches":[`...)
	first := true
	engine.EachMatch(r, func(m *engine.GrepMatch) error {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendGrepMatch(b, *m)
		return nil
	})
	b = append(b, `],"totalMatches":`...)
	b = strconv.AppendInt(b, int64(r.TotalMatches), 10)
	b = append(b, `,"filesWithMatches":`...)
	b = strconv.AppendInt(b, int64(r.FilesWithMatches), 10)
	b = append(b, `,"filesSearched":`...)
	b = strconv.AppendInt(b, int64(r.FilesSearched), 10)
	if r.LimitReached {
		b = append(b, `,"limitReached":true`...)
	}
	return append(b, '}')
}

// appendError appends the error envelope for err.
func appendError(b []byte, code engine.Code, msg string) []byte {
	b = append(b, `{"error":{"code":`...)
	b = appendString(b, string(code))
	b = append(b, `,"message":`...)
	b = appendString(b, msg)
	return append(b, `}}`...)
}
