// Package fuzzy scores paths against an autocomplete query the way the
// reference's fuzzyFind does.
package fuzzy

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Query is a prepared query. The zero value is the empty query.
type Query struct {
	raw  string // trimmed, lowercased
	norm string // raw without whitespace and / \ . _ -
	// slash is true when the query contains '/': path-style scoring.
	slash bool
}

// NewQuery trims and lowercases q and computes its normalised form.
func NewQuery(q string) Query {
	raw := lower(strings.TrimSpace(q))
	return Query{raw: raw, norm: normalize(raw), slash: strings.Contains(raw, "/")}
}

// Empty reports whether the query is empty after trimming.
func (q Query) Empty() bool { return q.raw == "" }

// Impossible reports a non-empty query whose normalised form is empty: it
// matches nothing.
func (q Query) Impossible() bool { return q.raw != "" && q.norm == "" }

// normalize lowercases s and drops whitespace and the separators / \ . _ -.
func normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	it := normRunes{s: s}
	for r := it.next(); r >= 0; r = it.next() {
		b.WriteRune(r)
	}
	return b.String()
}

// dropped reports the runes that normalisation removes.
func dropped(r rune) bool {
	switch r {
	case '/', '\\', '.', '_', '-', ' ', '\t', '\n', '\r':
		return true
	}
	return r >= utf8.RuneSelf && unicode.IsSpace(r)
}

// normRunes iterates over the normalised form of s without building it.
type normRunes struct {
	s       string
	i       int
	pending rune // a second rune still to yield (from 'İ'), or 0
}

// next returns the next normalised rune, or -1 at the end.
func (n *normRunes) next() rune {
	if r := n.pending; r != 0 {
		n.pending = 0
		return r
	}
	for n.i < len(n.s) {
		c := n.s[n.i]
		if c < utf8.RuneSelf {
			n.i++
			if dropped(rune(c)) {
				continue
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			return rune(c)
		}
		r, size := utf8.DecodeRuneInString(n.s[n.i:])
		n.i += size
		if r == 'İ' {
			n.pending = '\u0307'
			return 'i'
		}
		if !dropped(r) {
			return unicode.ToLower(r)
		}
	}
	return -1
}

// normEqual reports whether normalize(s) == norm.
func normEqual(s, norm string) bool {
	it := normRunes{s: s}
	for _, r := range norm {
		if it.next() != r {
			return false
		}
	}
	return it.next() == -1
}

// Score returns the score of path (relative, no trailing slash) for q; 0
// means no match. Directories get +10 on a match.
func (q Query) Score(path string, isDir bool) int {
	s := q.score(path)
	if s > 0 && isDir {
		s += 10
	}
	return s
}

func (q Query) score(path string) int {
	if q.raw == "" {
		return 1
	}
	if q.norm == "" {
		return 0
	}
	base := path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		base = path[i+1:]
	}
	lbase := lower(base)
	switch {
	case lbase == q.raw:
		return 120
	case strings.HasPrefix(lbase, q.raw):
		return 100
	case strings.Contains(lbase, q.raw):
		return 80
	}
	if !q.slash {
		if s := subsequence(q.norm, base); s > 0 {
			return 50 + s
		}
		return 0
	}
	if strings.Contains(lower(path), q.raw) {
		return 60
	}
	if s := subsequence(q.norm, base); s > 0 {
		return 50 + s
	}
	if normEqual(path, q.norm) {
		return 30 + 40
	}
	if s := subsequence(q.norm, path); s > 0 {
		return 30 + s
	}
	return 0
}

// lower lowercases s as Rust's str::to_lowercase does, skipping the work
// for ASCII strings already lower.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return rustLower(s)
		}
		if 'A' <= c && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// rustLower is Unicode full lowercasing with Rust's two differences from
// strings.ToLower: 'İ' becomes "i\u0307", and a capital sigma at the end
// of a word becomes the final form 'ς'.
func rustLower(s string) string {
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s) + 2)
	for i, r := range rs {
		switch r {
		case 'İ':
			b.WriteString("i\u0307")
		case 'Σ':
			if finalSigma(rs, i) {
				b.WriteRune('ς')
			} else {
				b.WriteRune('σ')
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma applies Unicode's Final_Sigma condition to rs[i]: a cased
// letter comes before it and none after it, skipping case-ignorable runes.
func finalSigma(rs []rune, i int) bool {
	j := i - 1
	for j >= 0 && caseIgnorable(rs[j]) {
		j--
	}
	if j < 0 || !cased(rs[j]) {
		return false
	}
	k := i + 1
	for k < len(rs) && caseIgnorable(rs[k]) {
		k++
	}
	return k == len(rs) || !cased(rs[k])
}

func cased(r rune) bool { return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) }

func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '^', '`', '\u00A8', '\u00AD', '\u00AF', '\u00B4', '\u00B7', '\u00B8',
		'\u0387', '\u05F4', '\u2018', '\u2019', '\u2024', '\u2027', '\uFE13', '\uFE52', '\uFE55',
		'\uFF07', '\uFF0E', '\uFF1A':
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// subsequence matches the normalised query q in normalize(t) greedily, left
// to right, by characters, and scores max(1, 40 - 5*gaps), where a gap is a
// matched character that does not directly follow the previous one; 0 when
// q is not a subsequence.
func subsequence(q, t string) int {
	if q == "" {
		return 0
	}
	gaps := 0
	prev := -2 // character index of the previous match
	ti := 0    // character index in normalize(t)
	rest := q
	it := normRunes{s: t}
	for r := it.next(); r >= 0 && rest != ""; r = it.next() {
		qr, n := utf8.DecodeRuneInString(rest)
		if r == qr {
			if prev >= 0 && ti != prev+1 {
				gaps++
			}
			prev = ti
			rest = rest[n:]
		}
		ti++
	}
	if rest != "" {
		return 0
	}
	return max(1, 40-5*gaps)
}
