// Package glob is the one glob engine of fscache: the dialect of ripgrep's
// globset (a literal separator: '*' and '?' never cross '/'; '?' and
// classes match single bytes), parsed once (syntax.go), compiled into parts
// with literal fast paths (parts.go) and an NFA for the rest (nfa.go). Both
// users share it: gitignore lines (package ignore, through CompileParts)
// and the patterns of glob() and grep's glob option (Normalize and Compile
// here, which add the reference's normalisation and its limits).
package glob

import (
	"fmt"
	"strings"
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
	parts   []Part
}

// Compile compiles a normalised pattern. The error text mirrors globset's:
// "error parsing glob '<pattern>': <reason>".
func Compile(p string) (*Matcher, error) {
	if reason := checkNesting(p); reason != "" {
		return nil, fmt.Errorf("error parsing glob '%s': %s", p, reason)
	}
	parts, err := CompileParts(p, Syntax{})
	if err != nil {
		return nil, fmt.Errorf("error parsing glob '%s': %v", p, err)
	}
	return &Matcher{pattern: p, parts: parts}, nil
}

// Match reports whether the relative path rel matches.
func (m *Matcher) Match(rel string) bool {
	if len(m.parts) == 1 {
		// The common one-part shapes, tested on the whole path: their
		// literal holds no '/', so the last component need not be cut.
		switch pt := &m.parts[0]; pt.Kind {
		case All:
			return true
		case BaseExt, BaseSuffix:
			return strings.HasSuffix(rel, pt.Lit)
		case BaseLit:
			n := len(rel) - len(pt.Lit)
			return strings.HasSuffix(rel, pt.Lit) && (n == 0 || rel[n-1] == '/')
		}
	}
	dir, name, slash := "", rel, false
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir, name, slash = rel[:i], rel[i+1:], true
	}
	for i := range m.parts {
		if m.parts[i].Match(dir, slash, name) {
			return true
		}
	}
	return false
}

// String returns the pattern as compiled.
func (m *Matcher) String() string { return m.pattern }
